/**
 * The staff task queue: the task types a staff member may see, with their open counts, and the tasks of those
 * types. A task is claimed by opening it in its owner's module (identity for a profile review, fulfilment for a
 * paid request, …); only the claimer may decide, once. Claims older than CLAIM_TTL lapse so a task is never stuck
 * with someone who went home. Paid requests' tasks are ordered by their deadline (deadlines.ts).
 */

import { sql } from 'kysely';
import type { Handlers, Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { ok } from '../../http/errors';
import { listOf, pageOf } from '../../lib/paging';
import { toTaskDtos } from './service';
import { taskTypes } from './task-types';

const allowedTypes = (p: Principal) =>
  taskTypes.filter((t) => p.isStaff && p.actions.has(t.action)).map((t) => t.identifier);

export function taskHandlers(db: DB): Pick<Handlers, 'searchTaskTypes' | 'searchTasks'> {
  return {
    searchTaskTypes: async ({ principal }) => {
      const counts = await db
        .selectFrom('tasks')
        .select(['type', sql<number>`count(*)::int`.as('n')])
        .where('state', 'in', ['open', 'claimed'])
        .groupBy('type')
        .execute();
      const visible = allowedTypes(principal!);
      const items = taskTypes
        .filter((t) => visible.includes(t.identifier))
        .map((t) => ({ ...t, openCount: counts.find((c) => c.type === t.identifier)?.n ?? 0 }));
      return ok(listOf(items));
    },

    searchTasks: async ({ body, principal }) => {
      const types = allowedTypes(principal!).filter((t) => !body?.type || t === body.type);
      if (types.length === 0) return ok({ items: [], total: 0 });
      // A paid request's task comes by its deadline, earliest first; tasks without one follow, oldest first.
      let q = db
        .selectFrom('tasks')
        .leftJoin('purchases', 'purchases.id', 'tasks.purchaseId')
        .where('tasks.type', 'in', types);
      q = body?.state ? q.where('tasks.state', '=', body.state) : q.where('tasks.state', 'in', ['open', 'claimed']);
      const { items, total } = await pageOf(q, body ?? {}, (x) =>
        x
          .selectAll('tasks')
          .orderBy(sql`purchases.deadline_at asc nulls last`)
          .orderBy('tasks.createdAt')
          .orderBy('tasks.id'),
      );
      return ok({ items: await toTaskDtos(db, items), total });
    },
  };
}
