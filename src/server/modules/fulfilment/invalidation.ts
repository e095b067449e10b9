/**
 * A customer's level-1 profile was rejected: each paid request not yet carried out is invalidated and its whole
 * reservation returns to the wallet. Fulfilment subscribes to identity's `ProfileRejected` port at composition
 * (releaseOnProfileRejection); identity does not know fulfilment. The rejection holds the profile task and the
 * user row before the requests.
 */
import type { DB, Trx } from '../../db/database';
import { numericCode } from '../../lib/crypto';
import type { LiveEvents } from '../../realtime/events';
import type { ProfileRejected } from '../identity';
import { ledgerKey, postTransaction, Tx, userBalance } from '../ledger';
import { type DeskTitles, lockPurchase, moneyOwnerOf, purchaseTraceCode, runRequestEvent } from '../requests';
import { UNFULFILLED_STATES } from '../../../shared/request-lifecycle';
import { reservationOf } from './settlement';

/**
 * Releases the whole reservation of each paid, unfulfilled request of `userId` to the wallet (transaction_E with
 * cause profileL1Rejected) and marks it purchaseInvalidated, closing its task: the customer's level-1 profile was
 * rejected. Runs inside the rejection's own transaction; returns the requests it invalidated.
 */
export async function invalidateUnfulfilledPurchases(
  trx: Trx,
  catalogue: DeskTitles,
  userId: number,
  actorUserId: number | null,
  reason: string,
): Promise<number[]> {
  const candidates = await trx
    .selectFrom('purchases')
    .select('id')
    .where('userId', '=', userId)
    .where('state', 'in', UNFULFILLED_STATES)
    .orderBy('id')
    .execute();
  const invalidated: number[] = [];
  for (const { id } of candidates) {
    const purchase = await lockPurchase(trx, id, userId);
    if (!purchase || !(UNFULFILLED_STATES as readonly string[]).includes(purchase.state)) continue;
    const reserved = await reservationOf(trx, purchase);
    const traceCode = await purchaseTraceCode(trx, purchase, numericCode(12));
    await runRequestEvent(trx, purchase, 'invalidated', {
      actorUserId,
      reason,
      post: async () => {
        await postTransaction(trx, {
          type: Tx.releaseReservation,
          userId: moneyOwnerOf(purchase),
          amounts: { expectedPrice: reserved },
          details: {
            purchaseId: purchase.id,
            totalExpectedPrice: purchase.expectedPrice,
            cause: 'profileL1Rejected',
            stateIdentifier: 'purchaseInvalidated',
          },
          traceCode,
          idempotencyKey: ledgerKey.purchase(purchase.id, 'release'),
        });
      },
      catalogue,
      step: { kind: 'invalidated', reason, releasedAmount: reserved },
      audit: { before: { reserved }, after: { cause: 'profileL1Rejected' } },
    });
    invalidated.push(purchase.id);
  }
  return invalidated;
}

/** Tells the customer's open pages that their wallet and these requests changed (after commit). */
export async function announcePurchasesChanged(
  db: DB,
  live: LiveEvents,
  userId: number,
  purchaseIds: number[],
): Promise<void> {
  if (purchaseIds.length === 0) return;
  const user = await db.selectFrom('users').select('uid').where('id', '=', userId).executeTakeFirst();
  if (!user) return;
  const { balance } = await userBalance(db, userId);
  live.walletChanged(user.uid, { balance });
  const rows = await db.selectFrom('purchases').select(['id', 'state']).where('id', 'in', purchaseIds).execute();
  for (const row of rows) live.purchaseChanged(user.uid, { purchaseId: row.id, state: row.state });
}

/** Identity's ProfileRejected port, filled by fulfilment: release the customer's unfulfilled paid requests. */
export const releaseOnProfileRejection =
  (db: DB, live: LiveEvents, catalogue: DeskTitles): ProfileRejected =>
  async (trx, { userId, actorUserId, reason }) => {
    // Paid requests not yet carried out cannot be for a customer whose identity failed: their money returns.
    const invalidated = await invalidateUnfulfilledPurchases(trx, catalogue, userId, actorUserId, reason);
    return {
      audit: { invalidatedPurchases: invalidated },
      afterCommit: () => announcePurchasesChanged(db, live, userId, invalidated),
    };
  };
