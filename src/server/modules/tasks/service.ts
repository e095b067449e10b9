/**
 * The task queue's service: tasks is the only writer of `tasks`. Another module asks for a task here (identity
 * opens a profile review); deciding one stays in handlers.ts. Functions take the database or a transaction first.
 */
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { components } from '../../../generated/api';
import type { Tasks } from '../../../generated/db';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { displayName } from '../../lib/person-names';
import type { LiveEvents } from '../../realtime/events';
import { deadlinesOf } from './deadlines';
import { taskTypeOf, taskTypes } from './task-types';

type TaskDto = components['schemas']['Task'];
type TaskRow = Selectable<Tasks>;

const PENDING = ['open', 'claimed'] as const;

/** The undecided task of `type` about `subjectUserId`, if there is one. */
export async function findPendingTask(
  db: DB,
  type: string,
  subjectUserId: number,
): Promise<{ id: number } | undefined> {
  return db
    .selectFrom('tasks')
    .select('id')
    .where('type', '=', type)
    .where('subjectUserId', '=', subjectUserId)
    .where('state', 'in', PENDING)
    .executeTakeFirst();
}

/** Opens a task of `type` about `subjectUserId` unless one is undecided already; the new task's id, or null. */
export async function openTaskOnce(
  db: DB,
  type: string,
  subjectUserId: number,
  payload: Record<string, unknown>,
): Promise<number | null> {
  if (await findPendingTask(db, type, subjectUserId)) return null;
  const created = await db
    .insertInto('tasks')
    .values({ type, subjectUserId, payload: JSON.stringify(payload) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}

/**
 * Opens the fulfilment task of `type` for a paid request, once per request (a unique index backs it, so two
 * settlements of one payment cannot open two). The new task's id, or null when it exists already.
 */
export async function openPurchaseTask(
  db: DB,
  type: string,
  subjectUserId: number,
  purchaseId: number,
  payload: Record<string, unknown>,
): Promise<number | null> {
  const created = await db
    .insertInto('tasks')
    .values({ type, subjectUserId, purchaseId, payload: JSON.stringify({ ...payload, purchaseId }) })
    .onConflict((oc) => oc.columns(['type', 'purchaseId']).where('purchaseId', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return created?.id ?? null;
}

/**
 * Opens the ownership review of a customer's bank account (`approveUbaOwnerTask`), once while undecided (a
 * partial unique index backs it). The new task's id, or null when one is waiting already.
 */
export async function openBankAccountTask(
  db: DB,
  subjectUserId: number,
  userBankAccountId: number,
  payload: Record<string, unknown>,
): Promise<number | null> {
  const created = await db
    .insertInto('tasks')
    .values({
      type: 'approveUbaOwnerTask',
      subjectUserId,
      userBankAccountId,
      payload: JSON.stringify({ ...payload, userBankAccountId }),
    })
    .onConflict((oc) =>
      oc
        .columns(['type', 'userBankAccountId'])
        // Literal, not bound: PostgreSQL matches the partial index by this predicate's text.
        .where(sql<boolean>`user_bank_account_id is not null and state in ('open', 'claimed')`)
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return created?.id ?? null;
}

/**
 * Opens the ownership review of a customer's bank card (`approveUserCardTask`), once while undecided (a partial
 * unique index backs it). The new task's id, or null when one is waiting already.
 */
export async function openCardTask(
  db: DB,
  subjectUserId: number,
  userCardId: number,
  payload: Record<string, unknown>,
): Promise<number | null> {
  const created = await db
    .insertInto('tasks')
    .values({
      type: 'approveUserCardTask',
      subjectUserId,
      userCardId,
      payload: JSON.stringify({ ...payload, userCardId }),
    })
    .onConflict((oc) =>
      oc
        .columns(['type', 'userCardId'])
        // Literal, not bound: PostgreSQL matches the partial index by this predicate's text.
        .where(sql<boolean>`user_card_id is not null and state in ('open', 'claimed')`)
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return created?.id ?? null;
}

/**
 * Opens the staff task that makes a customer's requested Google Ads account (`makeGoogleAdsAccountTask`), once per
 * request (a unique index backs it). The new task's id, or null when it exists already.
 */
export async function openGoogleAdsAccountRequestTask(
  db: DB,
  subjectUserId: number,
  googleAdsAccountRequestId: number,
  payload: Record<string, unknown>,
): Promise<number | null> {
  const created = await db
    .insertInto('tasks')
    .values({
      type: 'makeGoogleAdsAccountTask',
      subjectUserId,
      googleAdsAccountRequestId,
      payload: JSON.stringify({ ...payload, googleAdsAccountRequestId }),
    })
    .onConflict((oc) =>
      oc
        .columns(['type', 'googleAdsAccountRequestId'])
        // Literal, not bound: PostgreSQL matches the partial index by this predicate's text.
        .where(sql<boolean>`google_ads_account_request_id is not null`)
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return created?.id ?? null;
}

/**
 * Decides a task of `type` that `userId` claimed: locks it, refuses (404/409, Persian) a task of another type,
 * decided already, not claimed or claimed by someone else, and records the decision. Returns the row as it was.
 */
export async function decideTask(
  trx: DB,
  taskId: number,
  type: string,
  userId: number,
  decision: { state: 'approved' | 'rejected' | 'done'; reason?: string },
): Promise<TaskRow> {
  const task = await trx.selectFrom('tasks').selectAll().where('id', '=', taskId).forUpdate().executeTakeFirst();
  if (task?.type !== type) throw HttpError.of(404, 'task.notFound');
  if (!(PENDING as readonly string[]).includes(task.state)) throw HttpError.of(409, 'task.alreadyDecided');
  if (task.state === 'open' || task.claimedBy === null) throw HttpError.of(409, 'task.notClaimed');
  if (task.claimedBy !== userId) throw HttpError.of(409, 'task.claimedByOther');
  await trx
    .updateTable('tasks')
    .set({
      state: decision.state,
      decidedBy: userId,
      decidedAt: new Date(),
      decisionReason: decision.reason ?? null,
    })
    .where('id', '=', task.id)
    .execute();
  return task;
}

/** How long opening a task keeps it with the one who opened it; after that a colleague may take it over. */
export const CLAIM_TTL_MS = 30 * 60_000;

/** The fulfilment tasks of paid requests: a currency payment made abroad, cash delivered, a Google Ads charge. */
export const PURCHASE_TASK_TYPES = ['uafCprCpTask', 'completeCurrencyPaymentTask', 'googleAdsAccountCrCpTask'] as const;

/** The fulfilment tasks staff decide with a currency payment (uafCprDone and its siblings). */
export const CURRENCY_PAYMENT_TASK_TYPES = ['uafCprCpTask', 'completeCurrencyPaymentTask'] as const;

/** The fulfilment task of a paid Google Ads recharge (googleAdsAccountCrDone and googleAdsAccountCrFailed). */
export const GOOGLE_ADS_CHARGE_TASK_TYPES = ['googleAdsAccountCrCpTask'] as const;

/** Whether a colleague other than `userId` holds `task` by a claim that has not lapsed. */
export function claimedByOther(
  task: { claimedBy: number | null; claimedAt: Date | string | null },
  userId: number,
  now = Date.now(),
): boolean {
  return (
    task.claimedBy !== null &&
    task.claimedBy !== userId &&
    task.claimedAt !== null &&
    now - new Date(task.claimedAt).getTime() < CLAIM_TTL_MS
  );
}

/** The request a task is for (null: a task of no request, or no such task); read before locking the request. */
export async function purchaseOfTask(db: DB, taskId: number): Promise<number | null> {
  const row = await db.selectFrom('tasks').select('purchaseId').where('id', '=', taskId).executeTakeFirst();
  return row?.purchaseId ?? null;
}

/**
 * Opens (claims) the undecided task `taskId` of one of `types` for `userId`: 404 when there is no such task, 409
 * when it was decided or a colleague holds it. Locks the row until `trx` ends; `claimedNow` says whether the claim
 * is new (the caller audits it).
 */
export async function claimTask(trx: DB, taskId: number, types: readonly string[], userId: number) {
  const row = await trx.selectFrom('tasks').selectAll().where('id', '=', taskId).forUpdate().executeTakeFirst();
  if (!row || !types.includes(row.type)) throw HttpError.of(404, 'task.notFound');
  if (!(PENDING as readonly string[]).includes(row.state)) throw HttpError.of(409, 'task.alreadyDecided');
  if (claimedByOther(row, userId)) throw HttpError.of(409, 'task.claimedByOther');
  const task = await trx
    .updateTable('tasks')
    .set({ state: 'claimed', claimedBy: userId, claimedAt: new Date() })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { task, before: { state: row.state, claimedBy: row.claimedBy }, claimedNow: row.claimedBy !== userId };
}

/**
 * Opening a task, the same in every module that owns a task type: claims it in `trx` (claimTask) and audits a new
 * claim. The caller announces it after commit (announceTaskClaimed).
 */
export async function claimTaskAudited(trx: DB, taskId: number, types: readonly string[], userId: number) {
  const claimed = await claimTask(trx, taskId, types, userId);
  if (claimed.claimedNow) {
    await audit(trx, {
      actorUserId: userId,
      action: 'claimTask',
      entity: 'task',
      entityId: taskId,
      before: claimed.before,
      after: { state: 'claimed', claimedBy: userId },
    });
  }
  return claimed.task;
}

/** Tells the staff who see the task's type that `userId` holds it now (after the claim committed). */
export function announceTaskClaimed(live: LiveEvents, task: { id: number; type: string }, userId: number): void {
  const type = taskTypeOf(task.type);
  live.taskClaimed({ taskId: task.id, type: task.type, title: type.title, color: type.color, claimedBy: userId });
}

/** The undecided fulfilment task of a paid request, locked until `trx` ends. */
export async function lockPurchaseTask(trx: DB, purchaseId: number) {
  return trx
    .selectFrom('tasks')
    .selectAll()
    .where('purchaseId', '=', purchaseId)
    .where('type', 'in', PURCHASE_TASK_TYPES)
    .where('state', 'in', PENDING)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Closes the undecided fulfilment task of a request with the decision taken on the request: `done` when it was
 * carried out, `rejected` (with the reason) when it failed or was invalidated. Returns the closed task's id.
 */
export async function closePurchaseTask(
  trx: DB,
  purchaseId: number,
  decision: { state: 'done' | 'rejected'; decidedBy: number | null; reason?: string | null },
): Promise<number | null> {
  const closed = await trx
    .updateTable('tasks')
    .set({
      state: decision.state,
      decidedBy: decision.decidedBy,
      decidedAt: new Date(),
      decisionReason: decision.reason ?? null,
    })
    .where('purchaseId', '=', purchaseId)
    .where('type', 'in', PURCHASE_TASK_TYPES)
    .where('state', 'in', PENDING)
    .returning('id')
    .executeTakeFirst();
  return closed?.id ?? null;
}

const typeOf = (identifier: string) => taskTypes.find((t) => t.identifier === identifier);
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * Tasks as the queue shows them: type title and colour, the names of the customer and of who holds it, and an
 * request's deadline with whether it is at risk.
 */
export async function toTaskDtos(db: DB, rows: TaskRow[]): Promise<TaskDto[]> {
  const ids = [...new Set(rows.flatMap((r) => [r.subjectUserId, r.claimedBy]).filter((x): x is number => x !== null))];
  const users = ids.length
    ? await db
        .selectFrom('users')
        .select(['id', 'firstName', 'lastName', 'mobileNo', 'email'])
        .where('id', 'in', ids)
        .execute()
    : [];
  const deadlines = await deadlinesOf(
    db,
    rows.flatMap((r) => (r.purchaseId === null ? [] : [r.purchaseId])),
  );
  const nameOf = (id: number | null) => {
    const u = users.find((x) => x.id === id);
    return u ? displayName(u) : null;
  };
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    title: typeOf(r.type)?.title ?? r.type,
    color: typeOf(r.type)?.color ?? '#607d8b',
    state: r.state,
    subjectUserId: r.subjectUserId,
    subjectName: nameOf(r.subjectUserId),
    claimedBy: r.claimedBy,
    claimedByName: nameOf(r.claimedBy),
    decisionReason: r.decisionReason,
    createdAt: new Date(r.createdAt).toISOString(),
    decidedAt: iso(r.decidedAt),
    deadlineAt: r.purchaseId === null ? null : (deadlines.get(r.purchaseId)?.deadlineAt ?? null),
    deadlineAtRisk: r.purchaseId !== null && (deadlines.get(r.purchaseId)?.atRisk ?? false),
  }));
}
