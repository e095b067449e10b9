/**
 * The live events the product sends, in one place, so each payload keeps one shape and goes only to whom it
 * concerns: the public channel carries public data only (rates, parameters), a user's own news goes to their
 * private channel, and a staff event reaches only the staff who hold the action it concerns.
 */
import type { components } from '../../generated/api';
import type { LiveEventPayloads } from '../../generated/events';
import {
  CONVERSATION_STAFF,
  GOOGLE_ADS_STAFF,
  GOOGLE_MCC_STAFF,
  PROFILE_WATCHERS,
  PUBLIC_CHANNEL,
  STAFF_CHANNEL,
  staffAudience,
  userChannel,
} from './channels';
import type { Broadcaster } from './server';

type Currency = components['schemas']['Currency'];

export interface TaskEventPayload {
  taskId: number;
  type: string;
  title: string;
  color: string;
}

/**
 * Sends each live event to its channel. `taskActions` names, for each task type, the staff action that sees it;
 * the composition hands it in from the tasks module's catalogue, since realtime imports no module.
 */
export class LiveEvents {
  constructor(
    private readonly broadcaster: Broadcaster | null = null,
    private readonly taskActions: ReadonlyMap<string, string> = new Map(),
  ) {}

  /** Payload shapes come from schemas/events (generated types), so server and clients agree. */
  private emit<E extends keyof LiveEventPayloads>(
    channel: string,
    event: E,
    data: LiveEventPayloads[E],
    audience?: readonly string[],
  ): void {
    this.broadcaster?.emit(channel, event, data, audience);
  }

  /** Task events go to the staff who hold the task type's action (the queue shows them only those types). */
  private toTaskStaff<E extends 'task.created' | 'task.claimed'>(event: E, task: LiveEventPayloads[E]): void {
    const action = this.taskActions.get(task.type);
    if (action) this.emit(STAFF_CHANNEL, event, task, [staffAudience(action)]);
  }

  currencyUpdated(currency: Currency): void {
    this.emit(PUBLIC_CHANNEL, 'currency.updated', currency);
  }

  /**
   * The desk catalogue of this process changed (a file or a published version): open desk pages re-fetch it.
   * Sent by each process to its own sockets once it has the change, never through the other processes.
   */
  catalogueChanged(change: LiveEventPayloads['catalogue.changed']): void {
    this.broadcaster?.emitLocal(PUBLIC_CHANNEL, 'catalogue.changed', change);
  }

  systemParametersUpdated(): void {
    this.emit(PUBLIC_CHANNEL, 'systemParameters.updated', {});
  }

  /** To the user concerned, and to the staff whose user and customer lists show them. */
  userProfileChanged(user: { id: number; uid: string }): void {
    this.emit(userChannel(user.uid), 'userProfile.changed', { userId: user.id });
    this.emit(STAFF_CHANNEL, 'userProfile.changed', { userId: user.id }, PROFILE_WATCHERS.map(staffAudience));
  }

  taskCreated(task: TaskEventPayload): void {
    this.toTaskStaff('task.created', task);
  }

  taskClaimed(task: TaskEventPayload & { claimedBy: number }): void {
    this.toTaskStaff('task.claimed', task);
  }

  profileReviewed(uid: string, review: { approvedLevel: number; approved: boolean; reason: string | null }): void {
    this.emit(userChannel(uid), 'profile.reviewed', review);
  }

  purchaseChanged(uid: string, purchase: { purchaseId: number; state: string }): void {
    this.emit(userChannel(uid), 'purchase.changed', purchase);
  }

  /**
   * A new message in a request's conversation: to its customer unless it is staff's internal note (`customerUid`
   * null), and to the staff who answer conversations. The payload carries no text.
   */
  purchaseMessage(customerUid: string | null, message: LiveEventPayloads['purchase.message']): void {
    if (customerUid) this.emit(userChannel(customerUid), 'purchase.message', message);
    this.emit(STAFF_CHANNEL, 'purchase.message', message, [staffAudience(CONVERSATION_STAFF)]);
  }

  /** A signed-out or revoked session stops receiving at once: its sockets are dropped. */
  sessionEnded(tokenId: number): void {
    this.broadcaster?.endSession(tokenId);
  }

  /**
   * A customer's Google Ads account or account request changed: to them (null when unknown) and to the staff who
   * keep the accounts.
   */
  googleAdsAccountChanged(
    uid: string | null,
    change: { googleAdsAccountId?: number; googleAdsAccountRequestId?: number },
  ): void {
    if (uid) this.emit(userChannel(uid), 'googleAdsAccount.changed', change);
    this.emit(STAFF_CHANNEL, 'googleAdsAccount.changed', change, [staffAudience(GOOGLE_ADS_STAFF)]);
  }

  /** A manager panel changed (or gained an account): to the staff who keep the panels. */
  googleMccAccountChanged(googleMccAccountId: number): void {
    this.emit(STAFF_CHANNEL, 'googleMccAccount.changed', { googleMccAccountId }, [staffAudience(GOOGLE_MCC_STAFF)]);
  }

  /** A notification for the person shown in the app (the bell and the list update without a reload). */
  notificationCreated(uid: string, notification: LiveEventPayloads['notification.created']): void {
    this.emit(userChannel(uid), 'notification.created', notification);
  }

  walletChanged(uid: string, wallet: { balance: number }): void {
    this.emit(userChannel(uid), 'wallet.changed', wallet);
  }
}
