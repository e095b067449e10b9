/**
 * The ledger's idempotency keys, built in one place: a posting under a key already used for its type returns the
 * first transaction and moves nothing (postTransaction), so a replayed decision or callback cannot move money twice.
 * The strings are stored; changing one would let an old story post again. docs/money.md lists them.
 */

/** The steps of a request's money, each posted at most once per request. */
export type PurchaseStep =
  'reserve' | 'spend' | 'costs' | 'difference' | 'release' | 'refundUserError' | 'compensation';

export const ledgerKey = {
  /** C, D, F, G, E, J, and K for a missed promise's compensation: one step of a request's money. */
  purchase: (purchaseId: number, step: PurchaseStep) => `purchase:${purchaseId}:${step}`,
  /** A or H: the money an online payment brought (to the wallet, or back to a foreign card). */
  onlinePayment: (onlineProformaId: number) => `proforma:${onlineProformaId}`,
  /** B: a deposit staff recorded, by its collection. */
  collection: (collectionId: number) => `collection:${collectionId}`,
  /** I: a withdrawal leaving the wallet. */
  withdrawal: (withdrawalId: number) => `withdrawal:${withdrawalId}`,
  /** K: a refused withdrawal's amount back in the wallet. */
  refusedWithdrawal: (withdrawalId: number) => `withdrawal:${withdrawalId}:refused`,
  /** K or L: an approved staff correction of a wallet. */
  walletCorrection: (correctionId: number) => `walletCorrection:${correctionId}`,
  /** M: a gateway's payout of its takings, by the gateway and the payout's reference. */
  payout: (gateway: string, reference: string) => `payout:${gateway}:${reference}`,
};
