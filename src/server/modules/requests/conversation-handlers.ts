/** The conversation operations: the customer's and staff's messages of a request, and staff's waiting queue. */
import type { Handlers } from '../../contract/handlers';
import { ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { listOf } from '../../lib/paging';
import {
  type ConversationDeps,
  customerMessages,
  sendCustomerMessage,
  sendStaffMessage,
  staffMessages,
} from './conversation';
import { supportThreads } from './support-threads';

export function conversationHandlers(
  deps: ConversationDeps,
): Pick<
  Handlers,
  | 'searchPurchaseMessages'
  | 'sendPurchaseMessage'
  | 'searchStaffPurchaseMessages'
  | 'sendStaffPurchaseMessage'
  | 'searchSupportThreads'
> {
  return {
    searchPurchaseMessages: async ({ body, principal }) =>
      ok(listOf(await customerMessages(deps, principal!, body.purchase))),

    sendPurchaseMessage: async ({ body, principal }) =>
      ok(await sendCustomerMessage(deps, principal!, body), msg('conversation.sent')),

    searchStaffPurchaseMessages: async ({ body }) => ok(listOf(await staffMessages(deps, body.purchase))),

    sendStaffPurchaseMessage: async ({ body, principal }) =>
      ok(
        await sendStaffMessage(deps, principal!, body),
        msg(body.internal ? 'conversation.noteSaved' : 'conversation.sent'),
      ),

    searchSupportThreads: async () => ok(await supportThreads(deps.db, deps.deskTitle)),
  };
}
