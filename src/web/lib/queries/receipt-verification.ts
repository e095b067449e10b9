/** The public check of a receipt by its verification code (api/public/verifyReceipt). */
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type VerifiedReceipt = components['schemas']['VerifiedReceipt'];

export const receiptVerificationQuery = (code: string) => ({
  queryKey: ['verifyReceipt', code],
  queryFn: () => call<VerifiedReceipt>(api.POST('/api/public/verifyReceipt', { body: { code } })),
  // A 404 or 429 is an answer, not a hiccup: asking again would only spend the address's lookups.
  retry: false,
  staleTime: 60_000,
});
