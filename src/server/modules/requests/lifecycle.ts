/**
 * The one writer of a request's state (decision 037): `runRequestEvent` runs an event of the lifecycle table
 * (schemas/requests/lifecycle.json) on a request its caller locked — it refuses an event the table does not allow
 * from the request's state (409, naming the state in Persian), then posts (the caller's ledger step), moves the state
 * with its history row, tells the customer, opens, claims or closes the task and writes the audit entry, all in the
 * caller's transaction and each as the table says. `recordSubmitted` makes a request in the table's first state.
 * Live events are announced by the caller after commit (their payloads are the caller's module's).
 */
import { type Insertable, type Kysely, sql } from 'kysely';
import type { DB as Database, Purchases } from '../../../generated/db';
import type { RequestStep } from '../../../shared/request-steps';
import { type RequestEventName, requestEventOf, stateTitle } from '../../../shared/request-lifecycle';
import { stepNotification } from '../../../shared/request-steps';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { beforeCommit } from '../../db/after-commit';
import type { AuditAction } from '../../../shared/audit/names';
import { recordFunnelPaid } from '../desks';
import { closePurchaseTask, openPurchaseTask } from '../tasks';
import type { LockedPurchase } from './purchase-state';
import { promisedAtPayment } from './promises';
import { type DeskTitles, notifyRequestStep } from './request-steps';

type Db = Kysely<Database>;

export interface EventRun {
  /** Who acted: staff, the customer or payer; null for the bank or the system. */
  actorUserId: number | null;
  /** The history row's cause: one of the event's causes (the first when omitted). */
  cause?: string;
  /** What the customer is told about the move (why staff failed the request). */
  reason?: string | null;
  /** What the move fixes on the request besides its state. */
  set?: { walletAmount?: number; payablePrice?: number; payerUserId?: number; traceCode?: string };
  /** The event's ledger postings, made after the state is checked and before it moves. */
  post?: () => Promise<void>;
  /** The step the customer is told of; its notification must be the table's kind. */
  step?: RequestStep;
  /** Tells people of the step in the caller's own words (paid through a link: requester and payer each). */
  tell?: () => Promise<void>;
  catalogue: DeskTitles;
  /** The task type to open, when the event opens one (one of the table's types). */
  openTask?: string;
  /** What the audit entry records before and after, when the table names an audit action. */
  audit?: { before: Record<string, unknown>; after: Record<string, unknown> };
}

/** Refuses `event` on a request in a state the table does not allow it from (409, the state in Persian words). */
export function requireEventAllowed(purchase: { state: string }, event: RequestEventName): void {
  if (!(requestEventOf(event).from as string[]).includes(purchase.state)) {
    throw HttpError.of(409, 'purchase.eventNotAllowed', { state: stateTitle(purchase.state) });
  }
}

/** Runs `event` on a request locked by the caller; returns the task it opened (null when none or already open). */
export async function runRequestEvent(
  trx: Db,
  purchase: LockedPurchase,
  event: RequestEventName,
  run: EventRun,
): Promise<{ taskId: number | null }> {
  const definition = requestEventOf(event);
  requireEventAllowed(purchase, event);
  const cause = run.cause ?? definition.causes[0];
  if (!definition.causes.includes(cause)) throw new Error(`${event}: cause ${cause} is not in the lifecycle table`);
  await run.post?.();
  const to = definition.to;
  await trx
    .updateTable('purchases')
    .set({
      ...run.set,
      state: to,
      updatedAt: sql<Date>`now()` as unknown as Date,
      // Paid in time, the request is promised the time its quote said (decision 041).
      ...(to === 'paid' ? { paidAt: sql<Date>`now()` as unknown as Date, promisedBy: promisedAtPayment() } : {}),
    })
    .where('id', '=', purchase.id)
    .execute();
  await recordChange(trx, purchase.id, to, cause, run.actorUserId, run.reason ?? null);
  // The desk funnel's last stage is the server's word, whichever way the request was paid (decision 046). Its
  // row (one per desk and day) is every payment's: counted last, its lock is held until the commit and no longer.
  if (to === 'paid' && purchase.state !== 'paid') await beforeCommit(trx, () => recordFunnelPaid(trx, purchase.desk));
  if (run.step) {
    const kind = stepNotification(run.step, '')?.kind ?? null;
    if (kind !== definition.notification) throw new Error(`${event}: a ${run.step.kind} step does not send ${kind}`);
    await notifyRequestStep(trx, run.catalogue, { ...purchase, ...run.set }, run.step);
  }
  await run.tell?.();
  let taskId: number | null = null;
  const task = definition.task;
  if (task.does === 'opens') {
    if (!run.openTask || !task.types?.includes(run.openTask)) throw new Error(`${event}: no task type to open`);
    taskId = await openPurchaseTask(trx, run.openTask, purchase.userId, purchase.id, { desk: purchase.desk });
  } else if (task.does === 'closesDone' || task.does === 'closesRejected') {
    await closePurchaseTask(trx, purchase.id, {
      state: task.does === 'closesDone' ? 'done' : 'rejected',
      decidedBy: run.actorUserId,
      ...(task.does === 'closesRejected' ? { reason: run.reason ?? null } : {}),
    });
  }
  if (definition.audit !== null) {
    if (!run.audit) throw new Error(`${event}: the table names audit ${definition.audit}, none was given`);
    await audit(trx, {
      actorUserId: run.actorUserId,
      action: definition.audit as AuditAction,
      entity: 'purchase',
      entityId: purchase.id,
      before: { state: purchase.state, ...run.audit.before },
      after: { state: to, ...run.audit.after },
    });
  }
  return { taskId };
}

/** Makes a request in the state the table's `submitted` event ends in, with its first history row. */
export async function recordSubmitted(
  trx: Db,
  values: Omit<Insertable<Purchases>, 'state'>,
  actorUserId: number,
): Promise<number> {
  const submitted = requestEventOf('submitted');
  const created = await trx
    .insertInto('purchases')
    .values({ ...values, state: submitted.to })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordChange(trx, created.id, submitted.to, submitted.causes[0], actorUserId, null);
  return created.id;
}

async function recordChange(
  trx: Db,
  purchaseId: number,
  state: string,
  cause: string,
  actorUserId: number | null,
  reason: string | null,
): Promise<void> {
  await trx.insertInto('purchaseStateChanges').values({ purchaseId, state, cause, actorUserId, reason }).execute();
}
