/**
 * A request row (a "request" on screen, «درخواست») locked for a decision, whose accounts hold its money, and the
 * trace code its ledger transactions share. Every step runs in the caller's transaction; its state moves only
 * through lifecycle.ts.
 */
import { type Kysely, sql } from 'kysely';
import type { DB as Database } from '../../../generated/db';

/** A request row locked until the transaction ends, with whether its quote still holds. */
export async function lockPurchase(trx: Kysely<Database>, purchaseId: number, userId?: number) {
  let q = trx
    .selectFrom('purchases')
    .innerJoin('quotes', 'quotes.id', 'purchases.quoteId')
    .selectAll('purchases')
    .select(sql<boolean>`quotes.expires_at > now()`.as('quoteLive'))
    .where('purchases.id', '=', purchaseId);
  if (userId !== undefined) q = q.where('purchases.userId', '=', userId);
  return q.forUpdate('purchases').executeTakeFirst();
}

export type LockedPurchase = NonNullable<Awaited<ReturnType<typeof lockPurchase>>>;

/**
 * Whose accounts hold a request's money: the payer who paid it through a payment link, else its customer (decision
 * 028). The reservation and every posting after it (spend, costs, difference, release, refund) name this user, so a
 * refund returns to whoever paid.
 */
export const moneyOwnerOf = (purchase: { userId: number; payerUserId: number | null }): number =>
  purchase.payerUserId ?? purchase.userId;

/** Sets the trace code a request's ledger transactions share, the first time it is paid for; returns it. */
export async function purchaseTraceCode(trx: Kysely<Database>, purchase: LockedPurchase, fresh: string) {
  if (purchase.traceCode) return purchase.traceCode;
  await trx.updateTable('purchases').set({ traceCode: fresh }).where('id', '=', purchase.id).execute();
  return fresh;
}
