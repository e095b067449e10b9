/**
 * Deadlines of paid requests in the staff queue (decision 033). A request's deadline (`purchases.deadline_at`,
 * written by requests from its form's `x-deadline` date) orders the fulfilment tasks, earliest first; a paid or
 * in-progress request with less than the `deadlineAtRiskHours` system parameter left is "at risk": its task shows it,
 * and entering it notifies the customer (`deadlineAtRisk`) and the staff who hold its task's action
 * (`staffDeadlineAtRisk`) once per request — the event key makes it once, with several processes too. A periodic
 * sweep finds requests entering it; payment checks at once (a request paid already at risk).
 */
import { sql } from 'kysely';
import { isAtRisk } from '../../../shared/deadline';
import type { DB } from '../../db/database';
import { notify, notifyStaffHolding } from '../notifications';
import { readSetting } from '../settings';
import { taskTypes } from './task-types';
import { UNFULFILLED_STATES } from '../../../shared/request-lifecycle';

/** The request states in which a deadline still matters (paid, not yet done, failed or refunded): the lifecycle's. */
export const OPEN_PURCHASE_STATES = UNFULFILLED_STATES;

/** Undecided tasks: the one a request's staff still hold. */
const PENDING = ['open', 'claimed'] as const;

/** The desk's title for a notification's text (the composition answers from the live catalogue). */
export type DeskTitle = (desk: string) => string;

export const atRiskHours = (db: DB) => readSetting(db, 'deadlineAtRiskHours');

/** The deadline and whether it is at risk now, for the tasks of requests `purchaseIds` (the queue's rows). */
export async function deadlinesOf(
  db: DB,
  purchaseIds: number[],
  now: number = Date.now(),
): Promise<Map<number, { deadlineAt: string; atRisk: boolean }>> {
  const ids = [...new Set(purchaseIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('purchases')
    .select(['id', 'state', 'deadlineAt'])
    .where('id', 'in', ids)
    .where('deadlineAt', 'is not', null)
    .execute();
  if (rows.length === 0) return new Map();
  const hours = await atRiskHours(db);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        deadlineAt: new Date(r.deadlineAt!).toISOString(),
        atRisk: (OPEN_PURCHASE_STATES as readonly string[]).includes(r.state) && isAtRisk(r.deadlineAt, hours, now),
      },
    ]),
  );
}

interface AtRisk {
  id: number;
  userId: number;
  desk: string;
  deadlineAt: Date | string | null;
  taskType: string | null;
}

/** Paid or in-progress requests whose deadline is less than `hours` after `now` (the one query of both paths). */
function atRiskQuery(db: DB, hours: number, now: Date) {
  return db
    .selectFrom('purchases')
    .leftJoin('tasks', (j) => j.onRef('tasks.purchaseId', '=', 'purchases.id').on('tasks.state', 'in', [...PENDING]))
    .select(['purchases.id', 'purchases.userId', 'purchases.desk', 'purchases.deadlineAt', 'tasks.type as taskType'])
    .where('purchases.deadlineAt', 'is not', null)
    .where('purchases.state', 'in', [...OPEN_PURCHASE_STATES])
    .where('purchases.deadlineAt', '<', new Date(now.getTime() + hours * 3_600_000));
}

/** Notifies the customer and the staff who hold the request's task's action, once per request (event key). */
async function notifyAtRisk(trx: DB, row: AtRisk, hours: number, deskTitle: DeskTitle, now: Date): Promise<number> {
  const input = {
    // Named as every request notification names it: the desk's title and the request's number.
    params: { title: `${deskTitle(row.desk)} (${row.id})`, hours },
    purchaseId: row.id,
    eventKey: `purchase:${row.id}:deadlineAtRisk`,
    // A deadline before the next morning is a reason to send the SMS at night.
    deadline: row.deadlineAt === null ? null : new Date(row.deadlineAt),
  };
  let written = (await notify(trx, { ...input, userId: row.userId, kind: 'deadlineAtRisk' }, now)) ? 1 : 0;
  const action = taskTypes.find((t) => t.identifier === row.taskType)?.action;
  if (action) written += (await notifyStaffHolding(trx, action, { ...input, kind: 'staffDeadlineAtRisk' }, now)).length;
  return written;
}

/**
 * At payment (in its transaction, after the task opened): notifies when the request is at risk already. Returns
 * the notifications written.
 */
export async function notifyIfDeadlineAtRisk(
  trx: DB,
  purchaseId: number,
  deskTitle: DeskTitle,
  now: Date = new Date(),
): Promise<number> {
  const hours = await atRiskHours(trx);
  const row = await atRiskQuery(trx, hours, now).where('purchases.id', '=', purchaseId).executeTakeFirst();
  return row ? notifyAtRisk(trx, row, hours, deskTitle, now) : 0;
}

/**
 * The sweep: every request that entered "at risk" by `now` and has not been told yet. Each request in its own
 * transaction; another process sweeping at the same time writes nothing twice (the event key's unique index, on
 * conflict do nothing). Returns the notifications written.
 */
export async function sweepDeadlines(db: DB, deskTitle: DeskTitle, now: Date = new Date()): Promise<number> {
  const hours = await atRiskHours(db);
  const rows = await atRiskQuery(db, hours, now)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notifications')
            .select(sql`1`.as('one'))
            .whereRef('notifications.purchaseId', '=', 'purchases.id')
            .where('notifications.kind', 'in', ['deadlineAtRisk', 'staffDeadlineAtRisk']),
        ),
      ),
    )
    .orderBy('purchases.deadlineAt')
    .limit(500)
    .execute();
  let written = 0;
  for (const row of rows) {
    written += await db.transaction().execute((trx) => notifyAtRisk(trx, row, hours, deskTitle, now));
  }
  return written;
}

export const DEADLINE_SWEEP_INTERVAL_MS = 60_000;

/**
 * Runs the sweep every `intervalMs` (never two at once in this process) until stopped; a failure is logged and the
 * next tick tries again.
 */
export function scheduleDeadlineSweep(
  run: () => Promise<number>,
  log: { error(obj: object, msg: string): void },
  intervalMs = DEADLINE_SWEEP_INTERVAL_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = run()
      .then(() => undefined)
      .catch((error: unknown) => log.error({ err: error }, 'deadline sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
