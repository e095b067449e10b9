/**
 * The live events the product sends, in one place, so each payload keeps one shape
 * (public payloads carry ids only, never personal data).
 */
import type { components } from '../../generated/api';
import type { LiveEventPayloads } from '../../generated/events';
import { PUBLIC_CHANNEL, STAFF_CHANNEL, userChannel } from './channels';
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
  private emit<E extends keyof LiveEventPayloads>(channel: string, event: E, data: LiveEventPayloads[E]): void {
    this.broadcaster?.emit(channel, event, data);
  }

  currencyUpdated(currency: Currency): void {
    this.emit(PUBLIC_CHANNEL, 'currency.updated', currency);
  }

  systemParametersUpdated(): void {
    this.emit(PUBLIC_CHANNEL, 'systemParameters.updated', {});
  }

  userProfileChanged(userId: number): void {
    this.emit(PUBLIC_CHANNEL, 'userProfile.changed', { userId });
  }

  taskCreated(task: TaskEventPayload): void {
    this.emit(STAFF_CHANNEL, 'task.created', task);
  }

  taskClaimed(task: TaskEventPayload & { claimedBy: number }): void {
    this.emit(STAFF_CHANNEL, 'task.claimed', task);
  }

  profileReviewed(uid: string, review: { approvedLevel: number; approved: boolean; reason: string | null }): void {
    this.emit(userChannel(uid), 'profile.reviewed', review);
  }

  purchaseChanged(uid: string, purchase: { purchaseId: number; state: string }): void {
    this.emit(userChannel(uid), 'purchase.changed', purchase);
  }

  walletChanged(uid: string, wallet: { balance: number }): void {
    this.emit(userChannel(uid), 'wallet.changed', wallet);
  }
}
