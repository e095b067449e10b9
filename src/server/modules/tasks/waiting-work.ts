/**
 * What is waiting for staff (the staff home): open tasks per type with the type's colour, for the types this
 * person's actions open, and the paid requests nobody has fulfilled yet with how long each has waited, for those
 * who may see customers' requests (viewRequests) or carry them out (manageCurrencyPayments); and the count of each
 * other queue of work (withdrawals to pay, payments to complete by hand…) for those whose action works it. The
 * queues are handed in at composition (app.ts), so this module imports none of the modules that own them.
 */
import { type Kysely, sql } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import type { Handlers, Principal } from '../../contract/handlers';
import { ok } from '../../http/errors';
import { taskTypes } from './task-types';
import { nameOrMobile } from '../../lib/person-names';
import { isAtRisk } from '../../../shared/deadline';
import { atRiskHours } from './deadlines';
import { UNFULFILLED_STATES } from '../../../shared/request-lifecycle';

type WaitingWork = components['schemas']['WaitingWork'];

/** A queue of waiting work besides tasks and paid requests: who works it, and how many items wait in it. */
export interface WorkQueue {
  identifier: WaitingWork['queues'][number]['identifier'];
  title: string;
  /** The staff action that works the queue; only its holders see the count. */
  action: string;
  count: (db: Kysely<Database>) => Promise<number>;
}

/** Paid requests not yet fulfilled (the lifecycle's): their money is reserved and a currency payment is owed. */
const UNFULFILLED = UNFULFILLED_STATES;
const OLDEST_SHOWN = 20;
/** The actions that show paid requests (their customers and prices) on the staff home. */
const SEES_PAID_REQUESTS = ['viewRequests', 'manageCurrencyPayments'];

export async function waitingWork(
  db: Kysely<Database>,
  principal: Principal,
  deskTitle: (desk: string) => string,
  queues: readonly WorkQueue[] = [],
): Promise<WaitingWork> {
  const counts = await db
    .selectFrom('tasks')
    .select(['type', sql<number>`count(*)::int`.as('n')])
    .where('state', 'in', ['open', 'claimed'])
    .groupBy('type')
    .execute();
  const tasks = taskTypes
    .filter((t) => principal.isStaff && principal.actions.has(t.action))
    .map((t) => ({
      identifier: t.identifier,
      title: t.title,
      color: t.color,
      openCount: counts.find((c) => c.type === t.identifier)?.n ?? 0,
    }));

  const queueCounts = await Promise.all(
    queues
      .filter((q) => principal.isStaff && principal.actions.has(q.action))
      .map(async (q) => ({ identifier: q.identifier, title: q.title, count: await q.count(db) })),
  );

  if (!SEES_PAID_REQUESTS.some((action) => principal.isStaff && principal.actions.has(action))) {
    return { taskTypes: tasks, queues: queueCounts, paidRequests: { total: 0, items: [] } };
  }
  const paid = db.selectFrom('purchases as p').where('p.state', 'in', UNFULFILLED);
  const [total, oldest] = await Promise.all([
    paid.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    paid
      .innerJoin('users as u', 'u.id', 'p.userId')
      .innerJoin('purchaseStates as s', 's.identifier', 'p.state')
      .select([
        'p.id',
        'p.desk',
        'p.expectedPrice',
        'p.paidAt',
        'p.createdAt',
        'p.state',
        'p.deadlineAt',
        's.title as stateTitle',
        's.color as stateColor',
        'u.firstName',
        'u.lastName',
        'u.mobileNo',
        sql<number>`floor(extract(epoch from (now() - coalesce(p.paid_at, p.created_at))))::int`.as('waitingSeconds'),
      ])
      .orderBy(sql`coalesce(p.paid_at, p.created_at)`)
      .orderBy('p.id')
      .limit(OLDEST_SHOWN)
      .execute(),
  ]);
  const hours = await atRiskHours(db);
  return {
    taskTypes: tasks,
    queues: queueCounts,
    paidRequests: {
      total: total.n,
      items: oldest.map((r) => ({
        id: r.id,
        deskTitle: deskTitle(r.desk),
        customerName: nameOrMobile(r),
        expectedPrice: r.expectedPrice,
        state: r.state,
        stateTitle: r.stateTitle,
        stateColor: r.stateColor,
        paidAt: new Date(r.paidAt ?? r.createdAt).toISOString(),
        waitingSeconds: Math.max(0, r.waitingSeconds),
        // Staff answer knowing how urgent: the deadline and whether it is at risk, as the task queue shows them.
        deadlineAt: r.deadlineAt === null ? null : new Date(r.deadlineAt).toISOString(),
        deadlineAtRisk: isAtRisk(r.deadlineAt, hours),
      })),
    },
  };
}

export function waitingWorkHandlers(
  db: Kysely<Database>,
  deskTitle: (desk: string) => string,
  queues: readonly WorkQueue[] = [],
): Pick<Handlers, 'fetchWaitingWork'> {
  return {
    fetchWaitingWork: async ({ principal }) => ok(await waitingWork(db, principal!, deskTitle, queues)),
  };
}
