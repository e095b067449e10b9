/**
 * How the customer's transactions table colours its rows (SPEC section 4). The transactions of one story (a
 * request paid through the gateway: collection, then reservation) share a trace code; each trace code gets one
 * colour of a 13-colour palette, the same on every visit (a hash of the code, not the order it was met). Reading
 * the list newest first, the first transaction seen of a trace code is its final one; the others are volatile
 * (steps the story has gone past) and are greyed. A final transaction is:
 *  - failed (red) when its story ended badly: stateIdentifier purchaseFailed or purchaseInvalidated, a cause
 *    (profile rejected, card mismatch) or money sent back to a card that is not the customer's;
 *  - succeeded (green) when it ended well: stateIdentifier purchaseSucceeded, or a reservation for a request
 *    (the request is paid) or a collection into the wallet (the money arrived) that nothing followed;
 *  - otherwise neutral (no colour): a release, a withdrawal, a correction.
 */

/** Thirteen colours, distinct enough side by side, each dark enough for white text (contrast 4.5:1 or more). */
export const TRACE_PALETTE = [
  '#1565c0',
  '#2e7d32',
  '#c62828',
  '#6a1b9a',
  '#a65200',
  '#00695c',
  '#283593',
  '#827717',
  '#ad1457',
  '#4e342e',
  '#00838f',
  '#37474f',
  '#bf360c',
] as const;

export type TransactionTone = 'failed' | 'succeeded' | 'volatile' | null;

/** The fields of a customer transaction the rule reads (the contract's CustomerTransaction has them all). */
export interface ToneInput {
  traceCode: string;
  type: string;
  stateIdentifier?: string | null | undefined;
  cause?: string | null | undefined;
  refundedToUnsafe?: boolean | null | undefined;
}

/** The palette colour of a trace code: a string hash (FNV-1a), so a code keeps its colour across pages and visits. */
export function traceColor(traceCode: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < traceCode.length; i++) {
    hash ^= traceCode.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return TRACE_PALETTE[hash % TRACE_PALETTE.length]!;
}

/** Reservation for a request, online and offline collection into the wallet. */
const SUCCEEDS_WHEN_FINAL = new Set(['transaction_A', 'transaction_B', 'transaction_C']);

/** The tone of a final transaction (the newest of its trace code). */
export function finalTone(tx: ToneInput): Exclude<TransactionTone, 'volatile'> {
  if (tx.stateIdentifier === 'purchaseFailed' || tx.stateIdentifier === 'purchaseInvalidated') return 'failed';
  if (tx.cause || tx.refundedToUnsafe) return 'failed';
  if (tx.stateIdentifier === 'purchaseSucceeded') return 'succeeded';
  return SUCCEEDS_WHEN_FINAL.has(tx.type) ? 'succeeded' : null;
}

/**
 * Each transaction of a newest-first list with its trace colour, whether it is final, and its tone. `seenBefore`
 * names trace codes that already appeared in newer transactions not in this list (an earlier page).
 */
export function toneTransactions<T extends ToneInput>(
  newestFirst: readonly T[],
  seenBefore: Iterable<string> = [],
): Array<T & { traceColor: string; isFinal: boolean; tone: TransactionTone }> {
  const seen = new Set(seenBefore);
  return newestFirst.map((tx) => {
    const isFinal = !seen.has(tx.traceCode);
    seen.add(tx.traceCode);
    return { ...tx, traceColor: traceColor(tx.traceCode), isFinal, tone: isFinal ? finalTone(tx) : 'volatile' };
  });
}

/** The amount fields a customer transaction may carry (see the contract's CustomerTransaction). */
export interface AmountInput {
  collectionAmount?: number | undefined;
  refundedAmount?: number | undefined;
  expectedPrice?: number | undefined;
  expendedAmount?: number | undefined;
  walletWithdrawAmount?: number | undefined;
  adjustmentAmount?: number | undefined;
  fee?: number | undefined;
  tax?: number | undefined;
  operationCost?: number | undefined;
}

/**
 * The one amount a transaction is about, for the customer's list: what was collected, returned, reserved or
 * released, spent, withdrawn or corrected; for the recognition of costs, fee, tax and operation cost together.
 * A refund to a stranger's card moves neither wallet nor reservation, so its effects alone would show nothing.
 */
export function transactionAmount(tx: AmountInput): number | null {
  const main =
    tx.collectionAmount ??
    tx.refundedAmount ??
    tx.expectedPrice ??
    tx.expendedAmount ??
    tx.walletWithdrawAmount ??
    tx.adjustmentAmount;
  if (main !== undefined) return main;
  const costs = [tx.fee, tx.tax, tx.operationCost].filter((n): n is number => n !== undefined);
  return costs.length > 0 ? costs.reduce((a, b) => a + b, 0) : null;
}
