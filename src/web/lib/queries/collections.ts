/** The receipt of one of the customer's collections (api/me/fetchCollection). */
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type CollectionReceipt = components['schemas']['CollectionReceipt'];

export const collectionQuery = (collection: number) => ({
  queryKey: ['collection', collection],
  queryFn: () => call<CollectionReceipt>(api.POST('/api/me/fetchCollection', { body: { collection } })),
});
