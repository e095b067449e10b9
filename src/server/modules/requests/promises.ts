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
import { requestStates, UNFULFILLED_STATES } from '../../../shared/request-lifecycle';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
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
  // A compensation changes a desk's record: this process reads it afresh (another process within RECORD_CACHE_MS).
  if (due.length > 0) forgetPromiseRecords(db);
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

/** A desk's record of its promises (decision 041): of its last promised requests that came due or ended, how many
 * were done before their promise. */
export interface PromiseRecordCounts {
  kept: number;
  total: number;
}

/** The states a request ends in (done, failed, invalidated, cancelled): its promise is settled either way. */
const FINAL_STATES = requestStates.filter((s) => s.final).map((s) => s.state);

/**
 * The desk's record at `now` over its last `size` settled promises: promised requests (paid in time) that ended, were
 * compensated, or whose promise came due, newest promise first. Kept: done (purchaseSucceeded, the state change's
 * time) by its promise and never compensated. A failure counts as a promise not kept; a request still open before its
 * promise is not in the record yet. Counts only: nothing says who.
 */
export async function promiseRecordOf(db: DB, desk: string, size: number, now: Date = new Date()) {
  const rows = await db
    .selectFrom('purchases as p')
    .select((eb) => [
      'p.promisedBy',
      'p.promiseCompensatedAt',
      eb
        .selectFrom('purchaseStateChanges as c')
        .select((c) => c.fn.min('c.createdAt').as('at'))
        .whereRef('c.purchaseId', '=', 'p.id')
        .where('c.state', '=', 'purchaseSucceeded')
        .as('doneAt'),
    ])
    .where('p.desk', '=', desk)
    .where('p.promisedBy', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('p.state', 'in', FINAL_STATES),
        eb('p.promiseCompensatedAt', 'is not', null),
        eb('p.promisedBy', '<=', now),
      ]),
    )
    .orderBy('p.promisedBy', 'desc')
    .orderBy('p.id', 'desc')
    .limit(size)
    .execute();
  const kept = rows.filter(
    (r) =>
      r.promiseCompensatedAt === null &&
      r.doneAt !== null &&
      new Date(r.doneAt as Date | string).getTime() <= new Date(r.promisedBy!).getTime(),
  ).length;
  return { kept, total: rows.length } satisfies PromiseRecordCounts;
}

/** The record as the desk's page reads it: «۲ از ۳ درخواست آخر پیش از موعد انجام شد». */
export const promiseRecordText = ({ kept, total }: PromiseRecordCounts) =>
  msg('promise.record', { kept: toPersianDigits(kept), total: toPersianDigits(total) });

/** How long a desk's public record is served from memory: the page is public, the record changes slowly. */
export const RECORD_CACHE_MS = 30_000;
const recordCache = new WeakMap<DB, Map<string, { at: number; record: PromiseRecordCounts | null }>>();

function forgetPromiseRecords(db: DB) {
  recordCache.delete(db);
}

/**
 * The desk's public record, null for a desk that promises nothing or has no settled promise yet (a new desk says
 * nothing rather than «۰ از ۰»). Read at most once per RECORD_CACHE_MS per desk and process.
 */
export async function publicPromiseRecord(
  db: DB,
  catalogue: Pick<Catalogue, 'deskForm'>,
  desk: string,
  now: Date = new Date(),
): Promise<(PromiseRecordCounts & { text: string }) | null> {
  const deskForm = catalogue.deskForm(desk);
  if (!deskForm) throw HttpError.of(404, 'desk.notFound');
  if (!deskForm.desk.promise) return null;
  let cache = recordCache.get(db);
  if (!cache) recordCache.set(db, (cache = new Map()));
  let entry = cache.get(desk);
  if (!entry || now.getTime() - entry.at > RECORD_CACHE_MS) {
    const { promiseRecordSize } = await readSettings(db);
    const counts = await promiseRecordOf(db, desk, promiseRecordSize, now);
    entry = { at: now.getTime(), record: counts.total > 0 ? counts : null };
    cache.set(desk, entry);
  }
  return entry.record && { ...entry.record, text: promiseRecordText(entry.record) };
}

/**
 * Each promising desk's record, the promised requests not in it yet, and the compensations of the last
 * COMPENSATED_WINDOW_DAYS (count and rial), in catalogue order: staff's table (decision 041).
 */
export async function promiseRecordsForStaff(db: DB, catalogue: Pick<Catalogue, 'desks'>, now: Date = new Date()) {
  const desks = catalogue.desks.filter((d) => d.promise);
  const { promiseRecordSize } = await readSettings(db);
  const since = new Date(now.getTime() - COMPENSATED_WINDOW_DAYS * 86_400_000);
  const compensated = await db
    .selectFrom('purchases')
    .select((eb) => [
      'desk',
      eb.fn.countAll<number>().as('n'),
      eb.fn.coalesce(eb.fn.sum<number>('promiseCompensation'), eb.lit(0)).as('rial'),
    ])
    .where('promiseCompensatedAt', '>=', since)
    .groupBy('desk')
    .execute();
  const open = await db
    .selectFrom('purchases')
    .select((eb) => ['desk', eb.fn.countAll<number>().as('n')])
    .where('promisedBy', '>', now)
    .where('promiseCompensatedAt', 'is', null)
    .where('state', 'not in', FINAL_STATES)
    .groupBy('desk')
    .execute();
  const items = [];
  for (const d of desks) {
    const record = await promiseRecordOf(db, d.identifier, promiseRecordSize, now);
    const paid = compensated.find((c) => c.desk === d.identifier);
    items.push({
      desk: d.identifier,
      deskTitle: d.title,
      ...record,
      open: Number(open.find((o) => o.desk === d.identifier)?.n ?? 0),
      compensatedCount: Number(paid?.n ?? 0),
      compensatedRial: Number(paid?.rial ?? 0),
    });
  }
  return { items, total: items.length, windowSize: promiseRecordSize, compensationDays: COMPENSATED_WINDOW_DAYS };
}
