/**
 * The promise at the quote and its compensation (decision 041). A desk that declares its lead time (`promise` in
 * the catalogue) answers, for a deadline, until when the customer must pay for the work to be done before a time
 * (`promiseOf`, in the quote). The request keeps both instants from its submission; paid in time, it is promised
 * (`promised_by`, set by the lifecycle's writer when it becomes paid). A promised request still paid or in progress
 * when its promise passes is compensated by the server alone (`compensateMissedPromises`, on a timer, tests run it
 * with their clock): the fee, or the promiseCompensationPercent share of its price, from adjustments to the payer's
 * wallet, once — the request row is locked and its mark checked, and the ledger key is the request's.
 */
import { sql } from 'kysely';
import { type DeadlinePromise, promiseFor, tehranMomentText } from '../../../shared/deadline-promise';
import { deadlineFieldOf } from '../../../shared/deadline';
import { toPersianDigits } from '../../../shared/digits';
import { UNFULFILLED_STATES } from '../../../shared/request-lifecycle';
import type { DB } from '../../db/database';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import type { Catalogue, DeskForm } from '../desks';
import { ledgerKey, postTransaction, Tx } from '../ledger';
import { readSettings } from '../settings';
import { moneyOwnerOf } from './purchase-state';
import { type DeskTitles, notifyRequestStep, requestTitle } from './request-steps';

/** The desk's promise for the deadline the fields hold, at `now`; null when the desk promises nothing or no day. */
export function promiseOf(
  catalogue: Catalogue,
  deskForm: DeskForm,
  fields: Record<string, unknown>,
  now: Date = new Date(),
): DeadlinePromise | null {
  const rule = deskForm.desk.promise;
  const field = deadlineFieldOf(deskForm.schema);
  if (!rule || field === null || typeof fields[field] !== 'string') return null;
  return promiseFor(catalogue.snapshot.workingTime, rule, fields[field], now);
}

/** What a new request keeps of its promise: until when paying promises it, and by when it is then done. */
export function promiseColumns(promise: DeadlinePromise | null): {
  promisePayBy: Date | null;
  promiseDoneBy: Date | null;
} {
  if (!promise?.payBy || !promise.doneBy) return { promisePayBy: null, promiseDoneBy: null };
  return { promisePayBy: new Date(promise.payBy), promiseDoneBy: new Date(promise.doneBy) };
}

/** The column values that make a request promised when it becomes paid now, in time (the lifecycle's writer). */
export const promisedAtPayment = () =>
  sql<Date | null>`case when promise_pay_by is not null and now() <= promise_pay_by then promise_done_by end`;

/** What a missed promise pays back: the fee, or the parameter's share of the request's price. */
function compensationOf(purchase: { fee: number; expectedPrice: number }, percent: number): number {
  return percent > 0 ? Math.floor((purchase.expectedPrice * percent) / 100) : purchase.fee;
}

/**
 * Compensates every promised request still not done when its promise passed by `now`. Each in its own transaction,
 * the request locked: another process running the same check waits, then finds it compensated. Returns how many
 * this call compensated.
 */
export async function compensateMissedPromises(db: DB, catalogue: DeskTitles, now: Date = new Date()): Promise<number> {
  const due = await db
    .selectFrom('purchases')
    .select('id')
    .where('promisedBy', 'is not', null)
    .where('promiseCompensatedAt', 'is', null)
    .where('promisedBy', '<', now)
    .where('state', 'in', [...UNFULFILLED_STATES])
    .orderBy('promisedBy')
    .limit(500)
    .execute();
  const { promiseCompensationPercent } = await readSettings(db);
  let compensated = 0;
  for (const { id } of due) {
    const done = await db.transaction().execute(async (trx) => {
      const purchase = await trx
        .selectFrom('purchases')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const open = (UNFULFILLED_STATES as readonly string[]).includes(purchase.state);
      if (purchase.promiseCompensatedAt !== null || purchase.promisedBy === null || !open) return false;
      if (new Date(purchase.promisedBy) >= now) return false;
      const amount = compensationOf(purchase, promiseCompensationPercent);
      const doneBy = tehranMomentText(purchase.promisedBy);
      if (amount > 0) {
        await postTransaction(trx, {
          type: Tx.compensateMissedPromise,
          userId: moneyOwnerOf(purchase),
          amounts: { adjustmentAmount: amount },
          traceCode: purchase.traceCode ?? undefined,
          idempotencyKey: ledgerKey.purchase(purchase.id, 'compensation'),
          details: {
            purchaseId: purchase.id,
            generalTitle: msg('promise.compensationTitle', {
              // What the wallet reads is Persian, the request's number too.
              title: toPersianDigits(requestTitle(catalogue, purchase)),
              doneBy,
            }),
          },
        });
      }
      await trx
        .updateTable('purchases')
        .set({ promiseCompensatedAt: now, promiseCompensation: amount })
        .where('id', '=', purchase.id)
        .execute();
      await notifyRequestStep(trx, catalogue, purchase, { kind: 'compensated', amount, doneBy });
      await audit(trx, {
        actorUserId: null,
        action: 'promiseCompensated',
        entity: 'purchase',
        entityId: purchase.id,
        before: { promisedBy: new Date(purchase.promisedBy).toISOString(), state: purchase.state },
        after: { compensation: amount },
      });
      return true;
    });
    if (done) compensated++;
  }
  return compensated;
}

/** Days over which the staff home counts compensated promises. */
export const COMPENSATED_WINDOW_DAYS = 30;

/** How many missed promises the server compensated in the last COMPENSATED_WINDOW_DAYS (the staff home's count). */
export async function countCompensatedPromises(db: DB, now: Date = new Date()): Promise<number> {
  const row = await db
    .selectFrom('purchases')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('promiseCompensatedAt', '>=', new Date(now.getTime() - COMPENSATED_WINDOW_DAYS * 86_400_000))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
