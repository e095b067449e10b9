/** A finished request's proof letter (api/me/fetchProofLetter) and the verify page's reference check. */
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type ProofLetter = components['schemas']['ProofLetter'];
export type ReferenceCheck = { matches: boolean; state: components['schemas']['VerifiedReceiptState'] };

export const proofLetterQuery = (purchase: number) => ({
  queryKey: ['proofLetter', purchase],
  queryFn: () => call<ProofLetter>(api.POST('/api/me/fetchProofLetter', { body: { purchase } })),
});

/** Whether `reference` is the receipt's (api/public/checkReceiptReference): matches or not, never the reference. */
export const checkReceiptReference = (code: string, reference: string) =>
  call<ReferenceCheck>(api.POST('/api/public/checkReceiptReference', { body: { code, reference } }));
