/**
 * The live events the product sends, in one place, so each payload keeps one shape and goes only to whom it
 * concerns: the public channel carries public data only (rates, parameters), a user's own news goes to their
 * private channel, and a staff event reaches only the staff who hold the action it concerns.
 */
import type { components } from '../../generated/api';
import type { LiveEventPayloads } from '../../generated/events';
import { taskTypes } from '../modules/tasks/task-types';
import { PROFILE_WATCHERS, PUBLIC_CHANNEL, STAFF_CHANNEL, staffAudience, userChannel } from './channels';
import type { Broadcaster } from './server';

type Currency = components['schemas']['Currency'];

export interface TaskEventPayload {
  taskId: number;
  type: string;
  title: string;
  color: string;
}

export class LiveEvents {
  constructor(private readonly broadcaster: Broadcaster | null = null) {}

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
    const action = taskTypes.find((t) => t.identifier === task.type)?.action;
    if (action) this.emit(STAFF_CHANNEL, event, task, [staffAudience(action)]);
  }

  currencyUpdated(currency: Currency): void {
    this.emit(PUBLIC_CHANNEL, 'currency.updated', currency);
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

  /** A signed-out or revoked session stops receiving at once: its sockets are dropped. */
  sessionEnded(tokenId: number): void {
    this.broadcaster?.endSession(tokenId);
  }

  walletChanged(uid: string, wallet: { balance: number }): void {
    this.emit(userChannel(uid), 'wallet.changed', wallet);
  }
}
