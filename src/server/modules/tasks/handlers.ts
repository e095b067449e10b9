/**
 * The staff task queue. A task is claimed by opening it; only the claimer may decide, once.
 * Claims older than CLAIM_TTL lapse so a task is never stuck with someone who went home.
 * Every claim and decision is audit-logged.
 */

import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Handlers, Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import type { DB as Database, Tasks } from '../../../generated/db';
import { HttpError, ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import { listOf, pageOf } from '../../lib/paging';
import type { LiveEvents } from '../../realtime/events';
import { approveProfileLevel1, rejectProfileLevel1 } from '../identity/profile';
import { loadUserDto } from '../identity/users-store';
import { announcePurchasesChanged, invalidateUnfulfilledPurchases } from '../fulfilment/service';
import type { Storage } from '../storage/storage';
import { CLAIM_TTL_MS, toTaskDtos } from './service';
import { taskTypes } from './task-types';

export { CLAIM_TTL_MS };
const typeOf = (identifier: string) => taskTypes.find((t) => t.identifier === identifier);
type TaskRow = Selectable<Tasks>;

const allowedTypes = (p: Principal) =>
  taskTypes.filter((t) => p.isStaff && p.actions.has(t.action)).map((t) => t.identifier);

/** Locks the task for a decision by `principal`, or explains in Persian why not. */
async function lockForDecision(trx: Kysely<Database>, taskId: number, principal: Principal): Promise<TaskRow> {
  const task = await trx.selectFrom('tasks').selectAll().where('id', '=', taskId).forUpdate().executeTakeFirst();
  if (task?.type !== 'approveProfileAsL1Task') throw HttpError.of(404, 'task.notFound');
  if (!['open', 'claimed'].includes(task.state)) throw HttpError.of(409, 'task.alreadyDecided');
  if (task.state === 'open' || task.claimedBy === null) throw HttpError.of(409, 'task.notClaimed');
  if (task.claimedBy !== principal.userId) throw HttpError.of(409, 'task.claimedByOther');
  return task;
}

export function taskHandlers(
  db: DB,
  storage: Storage,
  live: LiveEvents,
): Pick<
  Handlers,
  'searchTaskTypes' | 'searchTasks' | 'fetchApproveProfileAsL1TaskData' | 'approveProfileAsL1' | 'rejectProfileAsL1'
> {
  const announceReview = async (userId: number, review: Parameters<LiveEvents['profileReviewed']>[1]) => {
    const user = await db.selectFrom('users').select('uid').where('id', '=', userId).executeTakeFirstOrThrow();
    live.profileReviewed(user.uid, review);
    live.userProfileChanged({ id: userId, uid: user.uid });
  };

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
      let q = db.selectFrom('tasks').where('type', 'in', types);
      q = body?.state ? q.where('state', '=', body.state) : q.where('state', 'in', ['open', 'claimed']);
      const { items, total } = await pageOf(q, body ?? {}, (x) => x.selectAll().orderBy('createdAt').orderBy('id'));
      return ok({ items: await toTaskDtos(db, items), total });
    },

    fetchApproveProfileAsL1TaskData: async ({ body, principal }) => {
      const p = principal!;
      const task = await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('tasks')
          .selectAll()
          .where('id', '=', body.taskId)
          .forUpdate()
          .executeTakeFirst();
        if (row?.type !== 'approveProfileAsL1Task') throw HttpError.of(404, 'task.notFound');
        if (!['open', 'claimed'].includes(row.state)) throw HttpError.of(409, 'task.alreadyDecided');
        const claimLive =
          row.claimedBy !== null &&
          row.claimedAt !== null &&
          Date.now() - new Date(row.claimedAt).getTime() < CLAIM_TTL_MS;
        if (claimLive && row.claimedBy !== p.userId) throw HttpError.of(409, 'task.claimedByOther');
        const claimed = await trx
          .updateTable('tasks')
          .set({ state: 'claimed', claimedBy: p.userId, claimedAt: new Date() })
          .where('id', '=', row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (row.claimedBy !== p.userId) {
          await audit(trx, {
            actorUserId: p.userId,
            action: 'claimTask',
            entity: 'task',
            entityId: row.id,
            before: { state: row.state, claimedBy: row.claimedBy },
            after: { state: 'claimed', claimedBy: p.userId },
          });
        }
        return claimed;
      });
      const type = typeOf(task.type);
      live.taskClaimed({
        taskId: task.id,
        type: task.type,
        title: type?.title ?? task.type,
        color: type?.color ?? '',
        claimedBy: p.userId,
      });
      const user = await loadUserDto(db, task.subjectUserId!);
      const image = user.nationalCardImageAddress;
      return ok({
        task: (await toTaskDtos(db, [task]))[0]!,
        user,
        nationalCardImageUrl: image ? await storage.signFor(db, p, image) : '',
      });
    },

    approveProfileAsL1: async ({ body, principal }) => {
      const p = principal!;
      const subjectUserId = await db.transaction().execute(async (trx) => {
        const task = await lockForDecision(trx, body.taskId, p);
        const { before, after } = await approveProfileLevel1(trx, task.subjectUserId!);
        await trx
          .updateTable('tasks')
          .set({ state: 'approved', decidedBy: p.userId, decidedAt: new Date() })
          .where('id', '=', task.id)
          .execute();
        await audit(trx, {
          actorUserId: p.userId,
          action: 'approveProfileAsL1',
          entity: 'user',
          entityId: task.subjectUserId,
          before,
          after,
        });
        return task.subjectUserId!;
      });
      await announceReview(subjectUserId, { approvedLevel: 1, approved: true, reason: null });
      return ok(null, msg('task.approved'));
    },

    rejectProfileAsL1: async ({ body, principal }) => {
      const p = principal!;
      const { subjectUserId, invalidated } = await db.transaction().execute(async (trx) => {
        const task = await lockForDecision(trx, body.taskId, p);
        const { before, after } = await rejectProfileLevel1(trx, task.subjectUserId!, body.reason.trim());
        // Paid requests not yet carried out cannot be for a customer whose identity failed: their money returns.
        const invalidated = await invalidateUnfulfilledPurchases(
          trx,
          task.subjectUserId!,
          p.userId,
          body.reason.trim(),
        );
        await trx
          .updateTable('tasks')
          .set({ state: 'rejected', decidedBy: p.userId, decidedAt: new Date(), decisionReason: body.reason.trim() })
          .where('id', '=', task.id)
          .execute();
        await audit(trx, {
          actorUserId: p.userId,
          action: 'rejectProfileAsL1',
          entity: 'user',
          entityId: task.subjectUserId,
          before,
          after: { ...after, invalidatedPurchases: invalidated },
        });
        return { subjectUserId: task.subjectUserId!, invalidated };
      });
      await announceReview(subjectUserId, { approvedLevel: 0, approved: false, reason: body.reason.trim() });
      await announcePurchasesChanged(db, live, subjectUserId, invalidated);
      return ok(null, msg('task.rejected'));
    },
  };
}
