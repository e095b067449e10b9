/**
 * A request's conversation with staff: the customer's (api/me/searchPurchaseMessages, never staff's internal
 * notes) and staff's (api/sys/searchStaffPurchaseMessages), sending from either side, and staff's queue of
 * conversations waiting for an answer with the first-answer times (api/sys/searchSupportThreads).
 * purchase.message refreshes them (lib/realtime.ts).
 */
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type PurchaseMessage = components['schemas']['PurchaseMessage'];
export type SupportThreads = components['schemas']['SupportThreads'];

/** The most characters a message may have (the contract's maxLength). */
export const MESSAGE_MAX_LENGTH = 2000;

export const conversationQuery = (purchase: number, staff: boolean) => ({
  queryKey: ['conversation', staff ? 'staff' : 'customer', purchase],
  queryFn: () =>
    call<{ items: PurchaseMessage[] }>(
      staff
        ? api.POST('/api/sys/searchStaffPurchaseMessages', { body: { purchase } })
        : api.POST('/api/me/searchPurchaseMessages', { body: { purchase } }),
    ),
});

export interface OutgoingMessage {
  purchase: number;
  body: string;
  attachment: string | null;
  /** Staff only: a note the customer never sees. */
  internal?: boolean;
}

/** Sends a message from the customer, or from staff when `staff`; throws the server's refusal. */
export function sendMessage(message: OutgoingMessage, staff: boolean): Promise<PurchaseMessage> {
  const { internal, ...body } = message;
  return call<PurchaseMessage>(
    staff
      ? api.POST('/api/sys/sendStaffPurchaseMessage', { body: { ...body, internal: internal ?? false } })
      : api.POST('/api/me/sendPurchaseMessage', { body }),
  );
}

export const supportThreadsQuery = {
  queryKey: ['staff', 'supportThreads'],
  queryFn: () => call<SupportThreads>(api.POST('/api/sys/searchSupportThreads', { body: {} })),
};
