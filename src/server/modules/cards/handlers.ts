/** Customers' cards, and the staff side: the card ownership review (approveUserCardTask). */
import type { Handlers } from '../../contract/handlers';
import { ok } from '../../http/errors';
import { msg } from '../../http/messages';
import type { LiveEvents } from '../../realtime/events';
import { userBalance } from '../ledger';
import { loadUserDto } from '../identity';
import { announceTaskClaimed, taskTypeOf, toTaskDtos } from '../tasks';
import { type CardServices, claimCardTask, decideCard, saveCard, searchCards, type UserCardDto } from './service';

export function cardHandlers(
  services: CardServices,
  live: LiveEvents,
  options: { gatewayNeedsCard: boolean },
): Pick<
  Handlers,
  | 'saveUserCard'
  | 'searchUserCards'
  | 'fetchApproveUserCardTaskData'
  | 'approveUserCardOwnership'
  | 'rejectUserCardOwnership'
> {
  const { db, cipher } = services;
  const savedMessage = (card: UserCardDto, checkedNow: boolean) => {
    if (card.state === 'verified') return msg(checkedNow ? 'card.verified' : 'card.exists');
    if (card.state === 'rejected') return msg('card.rejectedByInquiry');
    return msg('card.saved');
  };

  /** The customer's pages list their cards; a decision reaches them as a wallet change, as a bank account's does. */
  const announce = async (userId: number) => {
    const user = await db.selectFrom('users').select('uid').where('id', '=', userId).executeTakeFirst();
    if (user) live.walletChanged(user.uid, { balance: (await userBalance(db, userId)).balance });
  };

  return {
    saveUserCard: async ({ body, principal }) => {
      const { card, task, checkedNow } = await saveCard(services, principal!.userId, body);
      if (task) {
        const type = taskTypeOf('approveUserCardTask');
        live.taskCreated({ taskId: task.taskId, type: type.identifier, title: type.title, color: type.color });
      }
      return ok(card, savedMessage(card, checkedNow));
    },

    searchUserCards: async ({ principal }) =>
      ok({
        ...(await searchCards(db, principal!.userId)),
        gatewayNeedsCard: options.gatewayNeedsCard,
        instantVerification: services.inquiry !== null,
      }),

    fetchApproveUserCardTaskData: async ({ body, principal }) => {
      const p = principal!;
      const { task, card, cardNumber } = await claimCardTask(db, cipher, p, body.taskId);
      announceTaskClaimed(live, task, p.userId);
      const user = await loadUserDto(db, task.subjectUserId!);
      return ok({ task: (await toTaskDtos(db, [task]))[0]!, card, cardNumber, user });
    },

    approveUserCardOwnership: async ({ body, principal }) => {
      const card = await decideCard(db, principal!, body.taskId, { approved: true });
      await announce(card.userId);
      return ok(card, msg('card.approved'));
    },

    rejectUserCardOwnership: async ({ body, principal }) => {
      const card = await decideCard(db, principal!, body.taskId, { approved: false, reason: body.reason });
      await announce(card.userId);
      return ok(card, msg('card.rejected'));
    },
  };
}
