/**
 * What the payment steps share: the app's dependencies (PaymentDeps), the shapes they pass, reading a request as the
 * customer sees it, and telling open pages that money or a request changed (after the transaction commits).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { components } from '../../../generated/api';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import type { LiveEvents } from '../../realtime/events';
import { userBalance } from '../ledger';
import { type RequestDeps, searchPurchases } from '../requests';
import { taskTypes } from '../tasks';
import type { PaymentGateway } from './payment-gateway';
import type { FieldCipher } from '../../lib/field-cipher';

export type Purchase = components['schemas']['Purchase'];
export type PayResult = components['schemas']['PayPurchaseResult'];
export type PurchaseDetail = components['schemas']['PurchaseDetail'];
export type StaffPurchaseDetail = components['schemas']['StaffPurchaseDetail'];
export type CollectionReceipt = components['schemas']['CollectionReceipt'];

/** Where the customer lands after the gateway, and the message the web shows for it. */
export type PaymentOutcome = 'success' | 'walletCredited' | 'cancelled' | 'failed' | 'cardMismatch' | 'pending';

/** An online payment's states that mean money was received: nothing may settle it again. */
export const RECEIVED = ['settled', 'cardMismatch'] as const;

/** What the payment steps need from the app (composed in app.ts). */
export interface PaymentDeps {
  db: DB;
  requests: RequestDeps;
  gateway: PaymentGateway;
  live: LiveEvents;
  log: FastifyBaseLogger;
  /** Whether a desk is a cash service (its paid requests open the completion task). */
  isCashDesk: (desk: string) => boolean;
  /** A signed, expiring address of a stored file (the currency payment's receipt shown to the customer). */
  signedUrl: (path: string) => string;
  /** Opens the customer's sealed card number for the gateway's request (decision 021). */
  cipher: FieldCipher;
  /** The site's address for customers (PUBLIC_URL), for a receipt's verify address; undefined: the page's own origin. */
  publicUrl: string | undefined;
}

export interface TaskOpened {
  taskId: number;
  type: string;
}

export type OfflineCollectionInput = components['schemas']['PayOfflineInput'];
export type OfflineCollectionResult = components['schemas']['PayOfflineResult'];

export async function purchaseOf(deps: PaymentDeps, purchaseId: number, userId?: number): Promise<Purchase> {
  const found = (await searchPurchases(deps.requests, { ids: [purchaseId], ...(userId ? { userId } : {}) })).items[0];
  if (!found) throw HttpError.of(404, 'purchase.notFound');
  return found;
}

/** The same dependencies reading through `db` (a transaction's handle: what it wrote, before it commits). */
export function onDb(deps: PaymentDeps, db: DB): PaymentDeps {
  return { ...deps, db, requests: { ...deps.requests, db } };
}

export function announceTask(deps: PaymentDeps, task: TaskOpened | null): void {
  if (!task) return;
  const definition = taskTypes.find((t) => t.identifier === task.type);
  if (definition) {
    deps.live.taskCreated({
      taskId: task.taskId,
      type: task.type,
      title: definition.title,
      color: definition.color,
    });
  }
}

export async function announceMoney(deps: PaymentDeps, userId: number, purchaseId: number | null): Promise<void> {
  // The request's own customer hears of it, also when someone else paid it through a payment link: read with the
  // request (one query), and the payer's uid is the customer's when they are the same person (most payments).
  const [purchase, { balance }] = await Promise.all([
    purchaseId === null
      ? undefined
      : deps.db
          .selectFrom('purchases as p')
          .innerJoin('users as u', 'u.id', 'p.userId')
          .select(['p.state', 'p.userId', 'u.uid'])
          .where('p.id', '=', purchaseId)
          .executeTakeFirst(),
    userBalance(deps.db, userId),
  ]);
  const uid =
    purchase?.userId === userId
      ? purchase.uid
      : (await deps.db.selectFrom('users').select('uid').where('id', '=', userId).executeTakeFirst())?.uid;
  if (!uid) return;
  deps.live.walletChanged(uid, { balance });
  if (purchase) deps.live.purchaseChanged(purchase.uid, { purchaseId: purchaseId!, state: purchase.state });
}

/** What a payment's transaction knew at its commit: the customer's uid, their wallet after it, the request's state. */
export interface KnownMoney {
  uid: string;
  balance: number;
  state: string;
}

/**
 * announceMoney without holding the caller's answer: a failure to announce is logged, not the customer's. With what
 * the transaction knew (`known`, a customer paying their own request), nothing is read.
 */
export function announceMoneyLater(
  deps: PaymentDeps,
  userId: number,
  purchaseId: number,
  known: KnownMoney | null = null,
): void {
  if (known) {
    deps.live.walletChanged(known.uid, { balance: known.balance });
    deps.live.purchaseChanged(known.uid, { purchaseId, state: known.state });
    return;
  }
  announceMoney(deps, userId, purchaseId).catch((error: unknown) => {
    deps.log.warn({ err: error, purchase: purchaseId }, 'the live events of a payment were not sent');
  });
}
