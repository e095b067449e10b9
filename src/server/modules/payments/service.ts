/**
 * Paying requests: from the wallet, or through a bank gateway for the part the wallet does not cover; settling a
 * gateway payment once, after verifying it server to server; cancelling; receipts.
 *
 * Money rules (issue 8, SPEC terms): nothing leaves the wallet unless the request ends paid — a gateway payment
 * that is cancelled, fails or is refused moves nothing; money received from a card that is not the customer's is
 * recorded and returned to that card, never credited to the wallet. Every movement is a ledger transaction posted in
 * the same database transaction as the state change it belongs to.
 *
 * Lock order, the same everywhere so that two payments never wait on each other in a cycle: the online payment row,
 * then the request row, then the ledger accounts (the ledger locks those in id order).
 */
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { DB as Database } from '../../../generated/db';
import type { components } from '../../../generated/api';
import { toEnglishDigits, toPersianDigits } from '../../../shared/digits';
import { canonicalMobile } from '../../../shared/mobile';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import { numericCode, randomToken, sha256 } from '../../lib/crypto';
import type { LiveEvents } from '../../realtime/events';
import { lockedWalletBalance, postTransaction, userBalance } from '../ledger/service';
import {
  changePurchaseState,
  type LockedPurchase,
  lockPurchase,
  purchaseTraceCode,
  type RequestService,
  repriceFromQuote,
} from '../requests/service';
import { openPurchaseTask, PURCHASE_TASK_TYPES } from '../tasks/service';
import { taskTypes } from '../tasks/task-types';
import type { PaymentGateway, VerifyResult } from './gateway';
import { GatewayUnavailableError } from './gateway';
import { nameOrMobile } from '../../lib/person-names';
import { customerCurrencyPayment } from '../fulfilment/currency-payments';
import { namedCard, type PayingCard, payingCard } from '../cards/service';
import type { FieldCipher } from '../../lib/field-cipher';
import { sameMaskedCard } from '../../../shared/cards/card-number';

type Db = Kysely<Database>;
type Purchase = components['schemas']['Purchase'];
export type PayResult = components['schemas']['PayPurchaseResult'];
export type PurchaseDetail = components['schemas']['PurchaseDetail'];
export type StaffPurchaseDetail = components['schemas']['StaffPurchaseDetail'];
export type CollectionReceipt = components['schemas']['CollectionReceipt'];

/** Where the customer lands after the gateway, and the message the web shows for it. */
export type PaymentOutcome = 'success' | 'walletCredited' | 'cancelled' | 'failed' | 'cardMismatch' | 'pending';

/** An online payment's states that mean money was received: nothing may settle it again. */
const RECEIVED = ['settled', 'cardMismatch'] as const;

/** Thrown inside the payment's transaction to roll it back when the request's quote has expired. */
class QuoteExpired extends Error {}

/** Thrown inside the settlement's transaction when another settlement of the same payment won. */
class AlreadySettled extends Error {}

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

/** A payment's answer without the request itself, which a replay can read again. */
type PayOutcome = Omit<PayResult, 'purchase'>;

/**
 * A claim with no answer this old was left by a process that stopped between its claim and the gateway's answer
 * (the gateway call times out in seconds): the same key may start over instead of waiting forever.
 */
const ABANDONED_CLAIM_SECONDS = 60;

const abandoned = sql<boolean>`created_at < now() - make_interval(secs => ${ABANDONED_CLAIM_SECONDS})`;

/** Takes over an abandoned claim of this key for this request; null when the claim is alive or answered. */
async function reclaimAbandoned(trx: Db, userId: number, key: string, requestHash: string) {
  return trx
    .updateTable('payRequests')
    .set({ createdAt: sql<Date>`now()` })
    .where('userId', '=', userId)
    .where('key', '=', key)
    .where('requestHash', '=', requestHash)
    .where('result', 'is', null)
    .where(abandoned)
    .returning('key')
    .executeTakeFirst();
}

/**
 * The staff task that fulfils a paid request: a Google Ads recharge is charged to the account, cash delivery is
 * completed by hand, the rest paid abroad.
 */
function fulfilmentTaskOf(purchase: LockedPurchase, isCashService: boolean): string {
  if (purchase.formType === 'googleAdsAccountCr') return 'googleAdsAccountCrCpTask';
  return isCashService ? 'completeCurrencyPaymentTask' : 'uafCprCpTask';
}

export interface PaymentServiceOptions {
  db: DB;
  requests: RequestService;
  gateway: PaymentGateway;
  live: LiveEvents;
  log: FastifyBaseLogger;
  /** Whether a desk is a cash service (its paid requests open the completion task). */
  isCashDesk: (desk: string) => boolean;
  /** A signed, expiring address of a stored file (the currency payment's receipt shown to the customer). */
  signedUrl: (path: string) => string;
  /** Opens the customer's sealed card number for the gateway's request (decision 021). */
  cipher: FieldCipher;
}

interface TaskOpened {
  taskId: number;
  type: string;
}

/** What a collection records about where the money came from. */
type CollectionSource =
  | { source: 'online'; gateway: string; referenceId: string | null; cardNo: string | null }
  | {
      source: 'offline';
      trackingCode: string;
      sourceAccountNo: string;
      internalBankAccountId: number;
      recordedBy: number;
    };

interface Receipt {
  userId: number;
  /** The request the money was paid for, locked by the caller. */
  purchase: LockedPurchase | undefined;
  amount: number;
  onlineProformaId: number | null;
  cardMismatch: boolean;
  collection: CollectionSource;
}

interface Received {
  collectionId: number;
  outcome: PaymentOutcome;
  task: TaskOpened | null;
}

export type OfflineCollectionInput = components['schemas']['PayOfflineInput'];
export type OfflineCollectionResult = components['schemas']['PayOfflineResult'];

export class PaymentService {
  private readonly db: DB;
  constructor(private readonly options: PaymentServiceOptions) {
    this.db = options.db;
  }

  private get gateway(): PaymentGateway {
    return this.options.gateway;
  }

  private async purchaseOf(purchaseId: number, userId?: number): Promise<Purchase> {
    const found = (await this.options.requests.searchPurchases({ ids: [purchaseId], ...(userId ? { userId } : {}) }))
      .items[0];
    if (!found) throw HttpError.of(404, 'purchase.notFound');
    return found;
  }

  /** Reserves the expected price from the wallet, marks the request paid and opens its fulfilment task. */
  private async reserveAndMarkPaid(
    trx: Db,
    purchase: LockedPurchase,
    traceCode: string,
    paid: { cause: 'paidFromWallet' | 'paidOnline' | 'paidOffline'; payablePrice: number; actorUserId: number | null },
  ): Promise<TaskOpened | null> {
    await postTransaction(trx, {
      type: 'transaction_C',
      userId: purchase.userId,
      amounts: { expectedPrice: purchase.expectedPrice },
      details: { purchaseId: purchase.id, totalExpectedPrice: purchase.expectedPrice },
      traceCode,
      idempotencyKey: `purchase:${purchase.id}:reserve`,
    });
    await changePurchaseState(trx, purchase.id, 'paid', paid.cause, paid.actorUserId, {
      walletAmount: purchase.expectedPrice - paid.payablePrice,
      payablePrice: paid.payablePrice,
    });
    const type = fulfilmentTaskOf(purchase, this.options.isCashDesk(purchase.desk));
    const taskId = await openPurchaseTask(trx, type, purchase.userId, purchase.id, { desk: purchase.desk });
    return taskId === null ? null : { taskId, type };
  }

  private announceTask(task: TaskOpened | null): void {
    if (!task) return;
    const definition = taskTypes.find((t) => t.identifier === task.type);
    if (definition) {
      this.options.live.taskCreated({
        taskId: task.taskId,
        type: task.type,
        title: definition.title,
        color: definition.color,
      });
    }
  }

  private async announceMoney(userId: number, purchaseId: number | null): Promise<void> {
    const user = await this.db.selectFrom('users').select('uid').where('id', '=', userId).executeTakeFirst();
    if (!user) return;
    const { balance } = await userBalance(this.db, userId);
    this.options.live.walletChanged(user.uid, { balance });
    if (purchaseId !== null) {
      const purchase = await this.db
        .selectFrom('purchases')
        .select('state')
        .where('id', '=', purchaseId)
        .executeTakeFirst();
      if (purchase) this.options.live.purchaseChanged(user.uid, { purchaseId, state: purchase.state });
    }
  }

  /**
   * Records money received from a customer, the one path for every collection (a verified gateway payment, or a
   * deposit staff record by hand): the collection row, the money into the wallet (`transaction_A` from the gateway,
   * `transaction_B` from our bank) or back to a foreign card (`transaction_H`), and, when the request it was paid
   * for still waits and the wallet now covers it, the reservation and the paid state. Runs inside the caller's
   * transaction, which holds the online payment's row (when there is one) and then the request's row.
   */
  private async receive(trx: Db, input: Receipt): Promise<Received> {
    const { purchase, collection: source } = input;
    const traceCode = purchase ? await purchaseTraceCode(trx, purchase, numericCode(12)) : numericCode(12);
    const collection = await trx
      .insertInto('collections')
      .values({
        userId: input.userId,
        source: source.source,
        onlineProformaId: input.onlineProformaId,
        purchaseId: purchase?.id ?? null,
        amount: input.amount,
        refundedToCard: input.cardMismatch,
        cause: input.cardMismatch ? 'cardMismatch' : null,
        traceCode,
        ...(source.source === 'online'
          ? { gateway: source.gateway, referenceId: source.referenceId, cardNo: source.cardNo }
          : {
              trackingCode: source.trackingCode,
              sourceAccountNo: source.sourceAccountNo,
              internalBankAccountId: source.internalBankAccountId,
              recordedBy: source.recordedBy,
            }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const details = {
      collectionId: collection.id,
      onlineProformaId: input.onlineProformaId ?? undefined,
      purchaseId: purchase?.id,
      ...(source.source === 'offline' ? { customerAccountNo: source.sourceAccountNo } : {}),
    };
    const idempotencyKey =
      input.onlineProformaId === null ? `collection:${collection.id}` : `proforma:${input.onlineProformaId}`;
    if (input.cardMismatch) {
      // SPEC terms: money paid with another person's card returns only to that card.
      await postTransaction(trx, {
        type: 'transaction_H',
        userId: input.userId,
        amounts: { refundedAmount: input.amount },
        details: { ...details, refundedToUnsafe: true, cause: 'cardMismatch' },
        traceCode,
        idempotencyKey,
      });
      return { collectionId: collection.id, outcome: 'cardMismatch', task: null };
    }
    await postTransaction(trx, {
      type: source.source === 'online' ? 'transaction_A' : 'transaction_B',
      userId: input.userId,
      amounts: { collectionAmount: input.amount },
      details,
      traceCode,
      idempotencyKey,
    });
    if (purchase?.state !== 'waitingForPayment')
      return { collectionId: collection.id, outcome: 'walletCredited', task: null };
    const wallet = await lockedWalletBalance(trx, input.userId);
    if (wallet < purchase.expectedPrice) return { collectionId: collection.id, outcome: 'walletCredited', task: null };
    const task = await this.reserveAndMarkPaid(trx, purchase, traceCode, {
      cause: source.source === 'online' ? 'paidOnline' : 'paidOffline',
      payablePrice: Math.min(input.amount, purchase.expectedPrice),
      actorUserId: source.source === 'online' ? null : source.recordedBy,
    });
    return { collectionId: collection.id, outcome: 'success', task };
  }

  /**
   * Staff record money a customer deposited to one of our bank accounts (api/sys/payOffline). With an online
   * payment's token it settles that payment as the gateway would have (its request paid when the wallet covers it);
   * with an empty token it credits the wallet of the customer named by `customerMobileNo`. A tracking code is used
   * once. Audit-logged; the customer is told live.
   */
  async payOffline(principal: Principal, input: OfflineCollectionInput): Promise<OfflineCollectionResult> {
    if (input.formIsValid !== true) throw HttpError.of(422, 'collection.formInvalid');
    const trackingCode = toEnglishDigits(input.collectionTrackingCode.trim());
    const sourceAccountNo = toEnglishDigits(input.collectionSourceAccountNo.trim());
    const token = input.onlineProformaToken.trim();
    if (!trackingCode) throw HttpError.of(422, 'collection.trackingCode.required');
    if (!sourceAccountNo) throw HttpError.of(422, 'collection.sourceAccountNo.required');
    const destination = await this.db
      .selectFrom('internalBankAccounts')
      .select(['id', 'isActive'])
      .where('id', '=', input.collectionDestinationAccount)
      .executeTakeFirst();
    if (!destination?.isActive) throw HttpError.of(422, 'collection.destinationUnknown');

    let result: { collectionId: number; userId: number; purchaseId: number | null } & Received;
    try {
      result = await this.db.transaction().execute(async (trx) => {
        const used = await trx
          .selectFrom('collections')
          .select('id')
          .where('trackingCode', '=', trackingCode)
          .executeTakeFirst();
        if (used) throw HttpError.of(409, 'collection.trackingCodeUsed');
        const offline = {
          source: 'offline' as const,
          trackingCode,
          sourceAccountNo,
          internalBankAccountId: destination.id,
          recordedBy: principal.userId,
        };
        if (token === '') {
          const mobileNo = canonicalMobile(input.customerMobileNo ?? '');
          if (!mobileNo) throw HttpError.of(422, 'collection.customerRequired');
          const customer = await trx
            .selectFrom('users')
            .select('id')
            .where('mobileNo', '=', mobileNo)
            .where('isStaff', '=', false)
            .executeTakeFirst();
          if (!customer) throw HttpError.of(404, 'collection.customerNotFound');
          const received = await this.receive(trx, {
            userId: customer.id,
            purchase: undefined,
            amount: input.collectionAmount,
            onlineProformaId: null,
            cardMismatch: false,
            collection: offline,
          });
          await this.auditOffline(trx, principal, received.collectionId, input, null);
          return { ...received, userId: customer.id, purchaseId: null };
        }
        // The same claim as the gateway's settlement, so a callback arriving meanwhile settles nothing twice.
        const proforma = await trx
          .selectFrom('onlineProformas')
          .selectAll()
          .where('callbackToken', '=', token)
          .forUpdate()
          .executeTakeFirst();
        if (!proforma) throw HttpError.of(404, 'collection.proformaNotFound');
        if ((RECEIVED as readonly string[]).includes(proforma.state)) {
          throw HttpError.of(409, 'collection.proformaSettled');
        }
        if (proforma.amount !== input.collectionAmount) {
          throw HttpError.of(422, 'collection.amountMismatch', {
            amount: toPersianDigits(proforma.amount.toLocaleString('en-US')),
          });
        }
        const purchase = proforma.purchaseId === null ? undefined : await lockPurchase(trx, proforma.purchaseId);
        const received = await this.receive(trx, {
          userId: proforma.userId,
          purchase,
          amount: proforma.amount,
          onlineProformaId: proforma.id,
          cardMismatch: false,
          collection: offline,
        });
        await trx
          .updateTable('onlineProformas')
          .set({
            state: 'settled',
            settledAt: new Date(),
            verified: JSON.stringify({ offline: true, collectionId: received.collectionId, outcome: received.outcome }),
          })
          .where('id', '=', proforma.id)
          .execute();
        await this.auditOffline(trx, principal, received.collectionId, input, proforma.id);
        return { ...received, userId: proforma.userId, purchaseId: proforma.purchaseId };
      });
    } catch (error) {
      // Two staff recording the same deposit at once: the unique index lets one through.
      if ((error as { code?: string })?.code === '23505') throw HttpError.of(409, 'collection.trackingCodeUsed');
      throw error;
    }
    this.announceTask(result.task);
    await this.announceMoney(result.userId, result.purchaseId);
    const outcome = result.outcome === 'success' ? 'success' : 'walletCredited';
    return { collectionId: result.collectionId, purchaseId: result.purchaseId, outcome };
  }

  private async auditOffline(
    trx: Db,
    principal: Principal,
    collectionId: number,
    input: OfflineCollectionInput,
    onlineProformaId: number | null,
  ): Promise<void> {
    await audit(trx, {
      actorUserId: principal.userId,
      action: 'payOffline',
      entity: 'collection',
      entityId: collectionId,
      after: {
        onlineProformaId,
        amount: input.collectionAmount,
        trackingCode: input.collectionTrackingCode,
        sourceAccountNo: input.collectionSourceAccountNo,
        destinationAccount: input.collectionDestinationAccount,
        customerMobileNo: input.customerMobileNo ?? null,
      },
    });
  }

  /**
   * Pays a request waiting for payment (see the contract's payPurchase). The wallet is locked while deciding, so
   * parallel payments spend it at most once; a replayed key answers with the first result.
   */
  async pay(
    principal: Principal,
    input: { purchase: number; quoteId?: string | undefined; card?: number | undefined },
    idempotencyKey: string | undefined,
    siteUrl: string,
  ): Promise<{ data: PayResult; replayed: boolean }> {
    if (!idempotencyKey || !IDEMPOTENCY_KEY.test(idempotencyKey)) throw HttpError.of(400, 'idempotency.required');
    const userId = principal.userId;
    const requestHash = sha256(
      JSON.stringify([input.purchase, input.quoteId ?? null, ...(input.card === undefined ? [] : [input.card])]),
    );
    const earlier = await this.replayOf(userId, idempotencyKey, requestHash, input.purchase);
    if (earlier) return { data: earlier, replayed: true };

    type Step =
      | { kind: 'replay' }
      | { kind: 'paid'; task: TaskOpened | null; walletPart: number }
      | {
          kind: 'gateway';
          proformaId: number;
          token: string;
          payable: number;
          walletPart: number;
          card: PayingCard | null;
        };
    let step: Step;
    try {
      step = await this.db.transaction().execute(async (trx): Promise<Step> => {
        const claimed =
          (await trx
            .insertInto('payRequests')
            .values({ userId, key: idempotencyKey, requestHash, result: null })
            .onConflict((oc) => oc.columns(['userId', 'key']).doNothing())
            .returning('key')
            .executeTakeFirst()) ?? (await reclaimAbandoned(trx, userId, idempotencyKey, requestHash));
        if (!claimed) return { kind: 'replay' };
        let purchase = await lockPurchase(trx, input.purchase, userId);
        if (!purchase) throw HttpError.of(404, 'purchase.notFound');
        if (purchase.state === 'paid' || purchase.state === 'inProgress' || purchase.state === 'purchaseSucceeded') {
          throw HttpError.of(422, 'purchase.alreadyPaid');
        }
        if (purchase.state !== 'waitingForPayment') throw HttpError.of(422, 'purchase.notPayable');
        // A card named is checked whatever pays: only the caller's own verified card (decision 024).
        const card = input.card === undefined ? null : await payingCard(trx, this.options.cipher, userId, input.card);
        if (!purchase.quoteLive) {
          if (input.quoteId === undefined) throw new QuoteExpired();
          purchase = await repriceFromQuote(trx, purchase, input.quoteId);
        }
        const traceCode = await purchaseTraceCode(trx, purchase, numericCode(12));
        const wallet = await lockedWalletBalance(trx, userId);
        if (wallet >= purchase.expectedPrice) {
          const task = await this.reserveAndMarkPaid(trx, purchase, traceCode, {
            cause: 'paidFromWallet',
            payablePrice: 0,
            actorUserId: userId,
          });
          // The outcome commits with the money: a crash before the full result is stored still replays as paid.
          const outcome: PayOutcome = { walletWithdrawAmount: purchase.expectedPrice, payable: 0, gatewayUrl: null };
          await trx
            .updateTable('payRequests')
            .set({ result: JSON.stringify(outcome) })
            .where('userId', '=', userId)
            .where('key', '=', idempotencyKey)
            .execute();
          return { kind: 'paid', task, walletPart: purchase.expectedPrice };
        }
        const payable = purchase.expectedPrice - wallet;
        // A gateway that reports no card holder takes the payment only from a card verified as the customer's.
        if (card === null && this.gateway.requiresNamedCard) throw HttpError.of(422, 'card.required');
        const token = randomToken(24);
        const proforma = await trx
          .insertInto('onlineProformas')
          .values({
            userId,
            purchaseId: purchase.id,
            amount: payable,
            gateway: this.gateway.name,
            callbackToken: token,
            userCardId: card?.id ?? null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { kind: 'gateway', proformaId: proforma.id, token, payable, walletPart: wallet, card };
      });
    } catch (error) {
      if (error instanceof QuoteExpired) throw await this.refuseExpiredQuote(principal, input.purchase);
      throw error;
    }

    if (step.kind === 'replay') {
      const winner = await this.replayOf(userId, idempotencyKey, requestHash, input.purchase);
      if (!winner) throw HttpError.of(409, 'payment.inProgress');
      return { data: winner, replayed: true };
    }
    if (step.kind === 'paid') {
      const data: PayResult = {
        purchase: await this.purchaseOf(input.purchase, userId),
        walletWithdrawAmount: step.walletPart,
        payable: 0,
        gatewayUrl: null,
      };
      await this.storeResult(userId, idempotencyKey, data);
      this.announceTask(step.task);
      await this.announceMoney(userId, input.purchase);
      return { data, replayed: false };
    }

    // The gateway is called outside the database transaction: it may take seconds, and the sandbox bank answers
    // from this same server (on the embedded database it would wait for our own transaction).
    const user = await this.db
      .selectFrom('users')
      .select(['mobileNo', 'nationalCode'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    let created;
    try {
      created = await this.gateway.createPayment({
        amount: step.payable,
        callbackUrl: `${siteUrl}/api/public/payments/callback/${step.token}`,
        description: msg('payment.description', { purchase: toPersianDigits(input.purchase) }),
        payer: { mobileNo: user.mobileNo, nationalCode: user.nationalCode },
        ...(step.card ? { cardPan: step.card.cardNumber } : {}),
      });
    } catch (error) {
      this.options.log.warn({ err: error, proforma: step.proformaId }, 'payment gateway refused a new payment');
      await this.db.transaction().execute(async (trx) => {
        await trx.updateTable('onlineProformas').set({ state: 'failed' }).where('id', '=', step.proformaId).execute();
        // The key is free again: the customer may retry the same click.
        await trx.deleteFrom('payRequests').where('userId', '=', userId).where('key', '=', idempotencyKey).execute();
      });
      if (error instanceof GatewayUnavailableError) throw HttpError.of(503, 'payment.gatewayUnavailable');
      throw error;
    }
    await this.db
      .updateTable('onlineProformas')
      .set({ authority: created.authority, state: 'pending' })
      .where('id', '=', step.proformaId)
      .execute();
    const data: PayResult = {
      purchase: await this.purchaseOf(input.purchase, userId),
      walletWithdrawAmount: step.walletPart,
      payable: step.payable,
      gatewayUrl: created.redirectUrl,
    };
    await this.storeResult(userId, idempotencyKey, data);
    return { data, replayed: false };
  }

  private async replayOf(
    userId: number,
    key: string,
    requestHash: string,
    purchaseId: number,
  ): Promise<PayResult | null> {
    const row = await this.db
      .selectFrom('payRequests')
      .select(['requestHash', 'result', abandoned.as('abandoned')])
      .where('userId', '=', userId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) return null;
    if (row.requestHash !== requestHash) throw HttpError.of(422, 'idempotency.mismatch');
    if (row.result === null) {
      // The first call with this key is still on its way (at the gateway): the client retries in a moment.
      if (!row.abandoned) throw HttpError.of(409, 'payment.inProgress');
      return null;
    }
    const result = row.result as PayOutcome & { purchase?: Purchase };
    // Only the outcome was stored (the process stopped before the full answer): the request as it is now.
    return result.purchase ? (result as PayResult) : { ...result, purchase: await this.purchaseOf(purchaseId, userId) };
  }

  private async storeResult(userId: number, key: string, data: PayResult): Promise<void> {
    await this.db
      .updateTable('payRequests')
      .set({ result: JSON.stringify(data) })
      .where('userId', '=', userId)
      .where('key', '=', key)
      .execute();
  }

  /** 409 with a fresh quote for the request's own inputs: paying again with its quoteId re-prices the request. */
  private async refuseExpiredQuote(principal: Principal, purchaseId: number): Promise<HttpError> {
    const row = await this.db
      .selectFrom('purchases')
      .select(['desk', 'fields'])
      .where('id', '=', purchaseId)
      .executeTakeFirstOrThrow();
    const quote = await this.options.requests.priceInquiry(row.desk, row.fields as Record<string, unknown>, principal);
    return new HttpError(409, msg('purchase.quoteExpired'), { quote });
  }

  /** Cancels the customer's own request before payment. A gateway payment still open for it credits the wallet if it is paid after all. */
  async cancel(principal: Principal, purchaseId: number): Promise<Purchase> {
    await this.db.transaction().execute(async (trx) => {
      const purchase = await lockPurchase(trx, purchaseId, principal.userId);
      if (!purchase) throw HttpError.of(404, 'purchase.notFound');
      if (purchase.state !== 'waitingForPayment') throw HttpError.of(422, 'purchase.notCancellable');
      await changePurchaseState(trx, purchase.id, 'cancelled', 'cancelledByCustomer', principal.userId);
    });
    const purchase = await this.purchaseOf(purchaseId, principal.userId);
    this.options.live.purchaseChanged(principal.uid, { purchaseId, state: purchase.state });
    return purchase;
  }

  /**
   * The gateway sent the payer back. The query names the payment only: it is verified with the gateway, and money
   * moves at most once per payment whatever is replayed or forged. Returns the request to land on and the outcome.
   */
  async settleCallback(
    callbackToken: string,
    query: { Authority?: string | undefined; Status?: string | undefined },
  ): Promise<{ purchaseId: number | null; outcome: PaymentOutcome | null }> {
    const proforma = await this.db
      .selectFrom('onlineProformas')
      .selectAll()
      .where('callbackToken', '=', callbackToken)
      .executeTakeFirst();
    if (!proforma) return { purchaseId: null, outcome: null };
    const landing = (outcome: PaymentOutcome) => ({ purchaseId: proforma.purchaseId, outcome });
    if ((RECEIVED as readonly string[]).includes(proforma.state)) return landing(outcomeOfReceived(proforma));
    if (proforma.state === 'new' || proforma.authority === null) return landing('failed');
    // Another payment's authority, or none: this callback proves nothing; the payment keeps its true state.
    if (query.Authority !== proforma.authority) return landing(outcomeOfOpen(proforma.state));

    let verified: VerifyResult;
    try {
      verified = await this.gateway.verify({ authority: proforma.authority, amount: proforma.amount });
    } catch (error) {
      this.options.log.warn({ err: error, proforma: proforma.id }, 'payment gateway did not answer a verification');
      return landing('pending');
    }
    if (!verified.paid || verified.amount !== proforma.amount) {
      if (verified.paid) {
        this.options.log.error(
          { proforma: proforma.id, asked: proforma.amount, reported: verified.amount },
          'payment gateway reported another amount; nothing settled',
        );
      }
      const state = query.Status === 'OK' || verified.paid ? 'failed' : 'cancelled';
      await this.db
        .updateTable('onlineProformas')
        .set({ state })
        .where('id', '=', proforma.id)
        .where('state', 'not in', RECEIVED)
        .execute();
      return landing(state);
    }
    return this.settle(proforma.id, verified);
  }

  /** Records the money a verified payment brought, once: to the wallet (and the request), or back to a foreign card. */
  private async settle(
    proformaId: number,
    verified: Extract<VerifyResult, { paid: true }>,
  ): Promise<{ purchaseId: number | null; outcome: PaymentOutcome }> {
    let result: { purchaseId: number | null; outcome: PaymentOutcome; userId: number; task: TaskOpened | null };
    try {
      result = await this.db.transaction().execute(async (trx) => {
        // Whoever updates the row first settles it; a parallel replay waits for that commit, then finds it settled.
        const proforma = await trx
          .updateTable('onlineProformas')
          .set({ state: 'settled' })
          .where('id', '=', proformaId)
          .where('state', 'not in', RECEIVED)
          .returningAll()
          .executeTakeFirst();
        if (!proforma) throw new AlreadySettled();
        const purchase = proforma.purchaseId === null ? undefined : await lockPurchase(trx, proforma.purchaseId);
        const user = await trx
          .selectFrom('users')
          .select(['nationalCode'])
          .where('id', '=', proforma.userId)
          .executeTakeFirstOrThrow();
        const holderMismatch =
          verified.holderNationalCode !== null &&
          toEnglishDigits(verified.holderNationalCode.trim()) !== (user.nationalCode ?? '');
        // The card the payment named (decision 024): verify's card must be it, or the money goes back to the card.
        const named = proforma.userCardId === null ? null : await namedCard(trx, proforma.userCardId);
        const namedCardMismatch = named !== null && !paidWithNamedCard(named, verified);
        const cardMismatch = holderMismatch || namedCardMismatch;
        if (namedCardMismatch) {
          this.options.log.warn(
            { proforma: proforma.id, named: named.maskedPan, reported: verified.cardNo },
            'payment made with a card other than the one named; refunded to that card',
          );
        }
        const { outcome, task } = await this.receive(trx, {
          userId: proforma.userId,
          purchase,
          amount: proforma.amount,
          onlineProformaId: proforma.id,
          cardMismatch,
          collection: {
            source: 'online',
            gateway: proforma.gateway,
            referenceId: verified.referenceId,
            cardNo: verified.cardNo,
          },
        });
        await trx
          .updateTable('onlineProformas')
          .set({
            state: cardMismatch ? 'cardMismatch' : 'settled',
            settledAt: new Date(),
            verified: JSON.stringify({
              referenceId: verified.referenceId,
              cardNo: verified.cardNo,
              cardHash: verified.cardHash,
              holderNationalCode: verified.holderNationalCode,
              namedCard: named?.maskedPan ?? null,
              outcome,
            }),
          })
          .where('id', '=', proforma.id)
          .execute();
        return { purchaseId: proforma.purchaseId, outcome, userId: proforma.userId, task };
      });
    } catch (error) {
      if (!(error instanceof AlreadySettled)) throw error;
      const settled = await this.db
        .selectFrom('onlineProformas')
        .selectAll()
        .where('id', '=', proformaId)
        .executeTakeFirstOrThrow();
      return { purchaseId: settled.purchaseId, outcome: outcomeOfReceived(settled) };
    }
    this.announceTask(result.task);
    await this.announceMoney(result.userId, result.purchaseId);
    return { purchaseId: result.purchaseId, outcome: result.outcome };
  }

  /** One of the customer's requests, with the currency payment made for it once it succeeded. */
  async fetchPurchase(principal: Principal, purchaseId: number): Promise<PurchaseDetail> {
    const detail = await this.purchaseDetail(purchaseId, principal.userId);
    const currencyPayment = await customerCurrencyPayment(this.db, purchaseId, this.options.signedUrl);
    return { ...detail, currencyPayment };
  }

  /**
   * Any request for staff (viewRequests): its history, every online payment, and its undecided fulfilment task with
   * its type (a Google Ads recharge is decided by its own dialog and action, not the currency-payment one).
   */
  async fetchStaffPurchase(purchaseId: number): Promise<StaffPurchaseDetail> {
    const detail = await this.purchaseDetail(purchaseId);
    const task = await this.db
      .selectFrom('tasks')
      .select(['id', 'type'])
      .where('purchaseId', '=', purchaseId)
      .where('type', 'in', PURCHASE_TASK_TYPES)
      .where('state', 'in', ['open', 'claimed'])
      .executeTakeFirst();
    // The query keeps only PURCHASE_TASK_TYPES.
    const openTaskType = (task?.type ?? null) as StaffPurchaseDetail['openTaskType'];
    return { ...detail, openTaskId: task?.id ?? null, openTaskType };
  }

  /** A request with its state history and online payments; `userId` limits it to that customer's. */
  private async purchaseDetail(purchaseId: number, userId?: number): Promise<Omit<PurchaseDetail, 'currencyPayment'>> {
    const purchase = await this.purchaseOf(purchaseId, userId);
    const history = await this.db
      .selectFrom('purchaseStateChanges as c')
      .innerJoin('purchaseStates as s', 's.identifier', 'c.state')
      .select(['c.state', 's.title as stateTitle', 's.color as stateColor', 'c.cause', 'c.reason', 'c.createdAt'])
      .where('c.purchaseId', '=', purchaseId)
      .orderBy('c.id')
      .execute();
    const payments = await this.db
      .selectFrom('onlineProformas as p')
      .leftJoin('collections as c', 'c.onlineProformaId', 'p.id')
      .select(['p.id', 'p.amount', 'p.state', 'p.createdAt', 'c.id as collectionId'])
      .where('p.purchaseId', '=', purchaseId)
      .$if(userId !== undefined, (q) => q.where('p.userId', '=', userId!))
      .orderBy('p.id')
      .execute();
    return {
      purchase,
      history: history.map((h) => ({ ...h, createdAt: new Date(h.createdAt).toISOString() })),
      payments: payments.map((p) => ({
        onlineProformaId: p.id,
        amount: p.amount,
        state: p.state as PurchaseDetail['payments'][number]['state'],
        collectionId: p.collectionId,
        createdAt: new Date(p.createdAt).toISOString(),
      })),
    };
  }

  async fetchCollection(principal: Principal, collectionId: number): Promise<CollectionReceipt> {
    const row = await this.db
      .selectFrom('collections as c')
      .innerJoin('users as u', 'u.id', 'c.userId')
      .select([
        'c.id',
        'c.amount',
        'c.source',
        'c.traceCode',
        'c.referenceId',
        'c.cardNo',
        'c.gateway',
        'c.purchaseId',
        'c.refundedToCard',
        'c.cause',
        'c.createdAt',
        'u.firstName',
        'u.lastName',
        'u.mobileNo',
        'u.nationalCode',
      ])
      .where('c.id', '=', collectionId)
      .where('c.userId', '=', principal.userId)
      .executeTakeFirst();
    if (!row) throw HttpError.of(404, 'collection.notFound');
    const purchase = row.purchaseId === null ? null : await this.purchaseOf(row.purchaseId, principal.userId);
    return {
      id: row.id,
      amount: row.amount,
      source: row.source as CollectionReceipt['source'],
      traceCode: row.traceCode,
      referenceId: row.referenceId,
      cardNo: row.cardNo,
      gatewayTitle: row.gateway === this.gateway.name ? this.gateway.title : (row.gateway ?? msg('payment.offline')),
      purchaseId: row.purchaseId,
      purchaseTitle: purchase ? `${purchase.deskTitle} (${purchase.id})` : null,
      customerName: nameOrMobile(row),
      nationalCode: row.nationalCode,
      refundedToCard: row.refundedToCard,
      cause: row.cause === 'cardMismatch' ? 'cardMismatch' : null,
      createdAt: new Date(row.createdAt).toISOString(),
    };
  }
}

/**
 * Whether the gateway verified a payment from the card the payment named: its card_hash must be the card's (the
 * SHA-256 of the full number), and its masked card, when reported, must show the same first six and last four
 * digits. A gateway that reports no hash proves nothing, and an unproven card counts as another person's: the money
 * goes back to the card that paid, never to the request.
 */
export function paidWithNamedCard(
  named: { cardHash: string; maskedPan: string },
  verified: { cardHash: string | null; cardNo: string | null },
): boolean {
  if (verified.cardHash === null || verified.cardHash.toUpperCase() !== named.cardHash.toUpperCase()) return false;
  return verified.cardNo === null || sameMaskedCard(verified.cardNo, named.maskedPan);
}

function outcomeOfReceived(proforma: { state: string; verified: unknown }): PaymentOutcome {
  if (proforma.state === 'cardMismatch') return 'cardMismatch';
  const outcome = (proforma.verified as { outcome?: PaymentOutcome } | null)?.outcome;
  return outcome ?? 'success';
}

function outcomeOfOpen(state: string): PaymentOutcome {
  if (state === 'cancelled') return 'cancelled';
  if (state === 'failed') return 'failed';
  return 'pending';
}
