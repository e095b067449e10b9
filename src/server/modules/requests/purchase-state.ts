/**
 * The purchase state machine's steps (a "request" on screen, «درخواست»): a request row locked for a decision, its
 * moves between states with their history rows, and the trace code its ledger transactions share. Every step runs
 * in the caller's transaction; payments and fulfilment compose them.
 */
import { type Kysely, sql } from 'kysely';
import type { DB as Database } from '../../../generated/db';

/**
 * Records that a request entered `state` (its history); the caller changes the state in the same transaction.
 * `reason` is what the customer is told (why staff failed the request).
 */
export async function recordStateChange(
  trx: Kysely<Database>,
  purchaseId: number,
  state: string,
  cause: string,
  actorUserId: number | null,
  reason: string | null = null,
): Promise<void> {
  await trx.insertInto('purchaseStateChanges').values({ purchaseId, state, cause, actorUserId, reason }).execute();
}

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

/** States a request moves to after it was submitted. */
export type PurchaseStateChange = 'paid' | 'cancelled' | 'purchaseSucceeded' | 'purchaseFailed' | 'purchaseInvalidated';

/**
 * Moves a request to `state` with its history row; `set` adds what the move fixes (paid amounts, …), `reason`
 * what the customer is told about it.
 */
export async function changePurchaseState(
  trx: Kysely<Database>,
  purchaseId: number,
  state: PurchaseStateChange,
  cause: string,
  actorUserId: number | null,
  set: { walletAmount?: number; payablePrice?: number; traceCode?: string; payerUserId?: number } = {},
  reason: string | null = null,
): Promise<void> {
  await trx
    .updateTable('purchases')
    .set({
      ...set,
      state,
      updatedAt: sql<Date>`now()` as unknown as Date,
      ...(state === 'paid' ? { paidAt: sql<Date>`now()` as unknown as Date } : {}),
    })
    .where('id', '=', purchaseId)
    .execute();
  await recordStateChange(trx, purchaseId, state, cause, actorUserId, reason);
}

/** Sets the trace code a request's ledger transactions share, the first time it is paid for; returns it. */
export async function purchaseTraceCode(trx: Kysely<Database>, purchase: LockedPurchase, fresh: string) {
  if (purchase.traceCode) return purchase.traceCode;
  await trx.updateTable('purchases').set({ traceCode: fresh }).where('id', '=', purchase.id).execute();
  return fresh;
}
