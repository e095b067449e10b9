/** Public read endpoints over the catalogue tables. */
import type { components } from '../../../generated/api';
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { ok } from '../../http/errors';
import { fetchSystemParameters, searchCurrencies, searchPaymentMethodGroups } from './store';

type PublicSystemParameters = components['schemas']['PublicSystemParameters'];

export function catalogueHandlers(
  db: DB,
): Pick<Handlers, 'publicSearchCurrencies' | 'publicSearchPaymentMethodGroups' | 'publicFetchSystemParameters'> {
  return {
    publicSearchCurrencies: async ({ body }) => ok(await searchCurrencies(db, body ?? {})),
    publicSearchPaymentMethodGroups: async ({ body }) => ok(await searchPaymentMethodGroups(db, body ?? {})),
    publicFetchSystemParameters: async () =>
      ok((await fetchSystemParameters(db, true)) as unknown as PublicSystemParameters),
  };
}
