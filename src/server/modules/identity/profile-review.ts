/**
 * Staff review a customer's profile (level 1) through the task queue's `approveProfileAsL1Task`: opening it claims
 * it, approving raises the profile's level, rejecting records the reason. The task rows are the tasks module's
 * (claimTaskAudited, decideTask); the profile is identity's own (profile.ts).
 *
 * A rejection also concerns modules above identity (fulfilment releases the customer's paid requests not yet
 * carried out). Identity does not import them: it offers the `ProfileRejected` port, which the composition
 * (app.ts) fills with their reactions.
 */
import type { Handlers } from '../../contract/handlers';
import type { DB, Trx } from '../../db/database';
import { ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import type { LiveEvents } from '../../realtime/events';
import type { Storage } from '../storage';
import { announceTaskClaimed, claimTaskAudited, decideTask, toTaskDtos } from '../tasks';
import { approveProfileLevel1, rejectProfileLevel1 } from './profile';
import { notify } from '../notifications';
import { loadUserDto, PROFILE_REVIEW_TASK } from './users-store';

/** The rejection of a customer's level-1 profile, as its reactions see it. */
export interface ProfileRejection {
  userId: number;
  actorUserId: number;
  reason: string;
}

/**
 * The port a rejected profile calls: runs inside the rejection's transaction (so what it changes commits or
 * rolls back with it); `audit` is added to the rejection's audit entry and `afterCommit` runs once it committed.
 */
/**
 * The port an approved profile calls inside the approval's transaction: payments tells a payer who was waiting on a
 * payment link that they can pay it now. When it told them anything (`told` > 0), that message is the approval's
 * word and the plain «پروفایل شما تأیید شد» is not sent as well.
 */
export type ProfileApproved = (trx: Trx, userId: number) => Promise<{ told: number }>;

export type ProfileRejected = (
  trx: Trx,
  rejection: ProfileRejection,
) => Promise<{ audit: Record<string, unknown>; afterCommit: () => Promise<void> }>;

export function profileReviewHandlers(
  db: DB,
  storage: Storage,
  live: LiveEvents,
  onRejected: ProfileRejected,
  onApproved: ProfileApproved,
): Pick<Handlers, 'fetchApproveProfileAsL1TaskData' | 'approveProfileAsL1' | 'rejectProfileAsL1'> {
  const announceReview = async (userId: number, review: Parameters<LiveEvents['profileReviewed']>[1]) => {
    const user = await db.selectFrom('users').select('uid').where('id', '=', userId).executeTakeFirstOrThrow();
    live.profileReviewed(user.uid, review);
    live.userProfileChanged({ id: userId, uid: user.uid });
  };

  return {
    fetchApproveProfileAsL1TaskData: async ({ body, principal }) => {
      const p = principal!;
      const task = await db
        .transaction()
        .execute((trx) => claimTaskAudited(trx, body.taskId, [PROFILE_REVIEW_TASK], p.userId));
      announceTaskClaimed(live, task, p.userId);
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
        const task = await decideTask(trx, body.taskId, PROFILE_REVIEW_TASK, p.userId, { state: 'approved' });
        const { before, after } = await approveProfileLevel1(trx, task.subjectUserId!);
        const { told } = await onApproved(trx, task.subjectUserId!);
        if (told === 0) {
          await notify(trx, {
            userId: task.subjectUserId!,
            kind: 'profileApproved',
            eventKey: `profileTask:${task.id}`,
          });
        }
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
      const reason = body.reason.trim();
      const { subjectUserId, afterCommit } = await db.transaction().execute(async (trx) => {
        const task = await decideTask(trx, body.taskId, PROFILE_REVIEW_TASK, p.userId, { state: 'rejected', reason });
        const { before, after } = await rejectProfileLevel1(trx, task.subjectUserId!, reason);
        await notify(trx, {
          userId: task.subjectUserId!,
          kind: 'profileRejected',
          params: { reason },
          eventKey: `profileTask:${task.id}`,
        });
        const reaction = await onRejected(trx, { userId: task.subjectUserId!, actorUserId: p.userId, reason });
        await audit(trx, {
          actorUserId: p.userId,
          action: 'rejectProfileAsL1',
          entity: 'user',
          entityId: task.subjectUserId,
          before,
          after: { ...after, ...reaction.audit },
        });
        return { subjectUserId: task.subjectUserId!, afterCommit: reaction.afterCommit };
      });
      await announceReview(subjectUserId, { approvedLevel: 0, approved: false, reason });
      await afterCommit();
      return ok(null, msg('task.rejected'));
    },
  };
}
