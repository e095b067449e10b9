/**
 * Fulfilment: staff carry out a paid request's currency payment and close it (done), or fail it; a profile rejected
 * at level 1 invalidates the customer's paid requests not yet fulfilled. Each decision moves the request's whole
 * reservation in one database transaction with the request's state, its history row, its staff task and the audit
 * entry, and happens once: the request row is locked and must still be `paid`.
 *
 * Lock order (as in payments): the request row, then its task row, then the ledger accounts (the ledger locks
 * those in id order). An L1 rejection holds the profile task and the user row before the requests.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import { toPersianDigits } from '../../../shared/digits';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { type FieldCipher, UnsealError } from '../../lib/field-cipher';
import type { LiveEvents } from '../../realtime/events';
import type { Catalogue } from '../desks/catalogue';
import { postTransaction, purchaseReservation, userBalance } from '../ledger/service';
import { Tx } from '../ledger/types';
import { ledgerKey, type PurchaseStep } from '../ledger/keys';
import type { Trx } from '../ledger/service';
import {
  changePurchaseState,
  type LockedPurchase,
  lockPurchase,
  purchaseTraceCode,
  type RequestService,
} from '../requests/service';
import { CURRENCY_PAYMENT_RECEIPT, type Storage } from '../storage/storage';
import {
  claimedByOther,
  claimTask,
  closePurchaseTask,
  CURRENCY_PAYMENT_TASK_TYPES,
  lockPurchaseTask,
  toTaskDtos,
} from '../tasks/service';
import { taskTypes } from '../tasks/task-types';
import { openSecret } from '../requests/secrets';
import { numericCode } from '../../lib/crypto';
import { nameOrMobile } from '../identity/users-store';
import type { GoogleAdsOperations } from '../google-ads/operations';
import { recordCharge } from '../google-ads/service';

type Db = Kysely<Database>;
type Purchase = components['schemas']['Purchase'];
export type FulfilmentTaskData = components['schemas']['FulfilmentTaskData'];
type CurrencyPaymentDto = components['schemas']['CurrencyPayment'];
type TaskDto = components['schemas']['Task'];

/**
 * Which staff decide a paid request: a currency payment (uafCprDone and its siblings, manageCurrencyPayments) or a
 * Google Ads charge (googleAdsAccountCrDone/Failed, manageGoogleAds). Each refuses the other's requests.
 */
export type FulfilmentKind = 'currencyPayment' | 'googleAdsCharge';

const GOOGLE_ADS_FORM_TYPE = 'googleAdsAccountCr';

function requireKind(purchase: LockedPurchase, kind: FulfilmentKind): void {
  const isGoogleAds = purchase.formType === GOOGLE_ADS_FORM_TYPE;
  if (kind === 'currencyPayment' && isGoogleAds) throw HttpError.of(422, 'fulfilment.googleAdsRequest');
  if (kind === 'googleAdsCharge' && !isGoogleAds) throw HttpError.of(422, 'googleAds.charge.wrongDesk');
}

/** States a request leaves only through fulfilment: paid and not yet carried out. */
const UNFULFILLED = ['paid', 'inProgress'] as const;

export interface DoneInput {
  purchase: number;
  realPrice: number;
  currencyPaymentReference: string;
  foreignAmount?: number | undefined;
  currency?: number | undefined;
  thirdParty?: number | null | undefined;
  paymentMethod?: number | null | undefined;
  receiptFile?: string | null | undefined;
}

/**
 * How a fulfilled request's reservation is spent. With `reserved` what the request holds (its expected price),
 * `costs` = fee + tax + operation cost as quoted, and `realPrice` what the request really cost the customer (the
 * currency's real rial cost plus those same costs):
 *
 *   D  expendedAmount = realPrice − costs        reservation → currency payments out (the currency's real cost)
 *   F  fee, tax, operationCost                   reservation → fees, tax, operation costs
 *   G  refundedAmount = reserved − realPrice     reservation → wallet (the price difference)
 *
 *   D + F + G = (realPrice − costs) + costs + (reserved − realPrice) = reserved,
 *
 * so the request's reservation ends at exactly zero. Refused: a real price above the reservation (G would be
 * negative) and one not above the costs (no currency was bought).
 */
export function fulfilmentSplit(
  reserved: number,
  costs: { fee: number; tax: number; operationCost: number },
  realPrice: number,
): { expendedAmount: number; refundedAmount: number } {
  const totalCosts = costs.fee + costs.tax + costs.operationCost;
  if (realPrice > reserved) {
    throw HttpError.of(422, 'fulfilment.realPriceTooHigh', { max: toPersianDigits(reserved.toLocaleString('en')) });
  }
  if (realPrice <= totalCosts) {
    throw HttpError.of(422, 'fulfilment.realPriceBelowCosts', {
      costs: toPersianDigits(totalCosts.toLocaleString('en')),
    });
  }
  return { expendedAmount: realPrice - totalCosts, refundedAmount: reserved - realPrice };
}

/** What a request charges besides the foreign payment itself. */
function costsOf(purchase: LockedPurchase): { fee: number; tax: number; operationCost: number } {
  return { fee: purchase.fee, tax: purchase.tax, operationCost: purchase.operationCost };
}

/**
 * Posts a fulfilled request's money under one trace code: transaction_D spends `expendedAmount` of the
 * reservation, transaction_F recognises the request's fee, tax and operation cost, and transaction_G returns any
 * `refundedAmount` to the wallet. Each is keyed on the request, so a replayed decision cannot post twice.
 */
async function postSettlement(
  trx: Trx,
  purchase: LockedPurchase,
  realPrice: number,
  split: { expendedAmount: number; refundedAmount: number },
): Promise<void> {
  const costs = costsOf(purchase);
  const traceCode = await purchaseTraceCode(trx, purchase, numericCode(12));
  const details = {
    purchaseId: purchase.id,
    totalExpectedPrice: purchase.expectedPrice,
    realPrice,
    stateIdentifier: 'purchaseSucceeded' as const,
  };
  const post = (
    type: typeof Tx.spendReservation | typeof Tx.recogniseCosts | typeof Tx.returnPriceDifference,
    amounts: Record<string, number>,
    step: PurchaseStep,
  ) =>
    postTransaction(trx, {
      type,
      userId: purchase.userId,
      amounts,
      details,
      traceCode,
      idempotencyKey: ledgerKey.purchase(purchase.id, step),
    });
  await post(Tx.spendReservation, { expendedAmount: split.expendedAmount }, 'spend');
  if (costs.fee + costs.tax + costs.operationCost > 0) await post(Tx.recogniseCosts, costs, 'costs');
  if (split.refundedAmount > 0)
    await post(Tx.returnPriceDifference, { refundedAmount: split.refundedAmount }, 'difference');
}

/**
 * How a request that failed through the customer's own error returns its reservation (transaction_J; SPEC section
 * 9: a refund after a user error deducts fee and tax). With `reserved` what the request holds (its expected price):
 *
 *   fee                                     reservation → fees
 *   tax                                     reservation → tax
 *   refundedAmount = reserved − fee − tax   reservation → wallet
 *
 *   fee + tax + refundedAmount = reserved, so the request's reservation ends at exactly zero.
 *
 * The operation cost is not deducted: it pays for the currency payment, which was never made, so it returns to the
 * wallet with the currency's price (the terms deduct only fee and tax). A paid request reserved its whole expected
 * price, which includes fee and tax, so `refundedAmount` is never negative.
 */
export function userErrorRefundSplit(
  reserved: number,
  costs: { fee: number; tax: number },
): { refundedAmount: number; fee: number; tax: number } {
  const refundedAmount = reserved - costs.fee - costs.tax;
  if (refundedAmount < 0) throw new Error(`a reservation of ${reserved} does not cover fee and tax`);
  return { refundedAmount, fee: costs.fee, tax: costs.tax };
}

/** Refuses a decision on a request that is not waiting for one (409: it was decided, or is not paid). */
function requireUnfulfilled(purchase: LockedPurchase | undefined): asserts purchase is LockedPurchase {
  if (!purchase) throw HttpError.of(404, 'purchase.notFound');
  if (['purchaseSucceeded', 'purchaseFailed', 'purchaseInvalidated'].includes(purchase.state)) {
    throw HttpError.of(409, 'fulfilment.alreadyDecided');
  }
  if (!(UNFULFILLED as readonly string[]).includes(purchase.state)) throw HttpError.of(409, 'fulfilment.notPaid');
}

/** The request's reservation, which a decision moves whole; a paid request always holds one. */
async function reservationOf(trx: Db, purchase: LockedPurchase): Promise<number> {
  const reserved = await purchaseReservation(trx, purchase.userId, purchase.id);
  if (reserved <= 0) throw new Error(`paid request ${purchase.id} holds no reservation`);
  return reserved;
}

/**
 * Releases the whole reservation of each paid, unfulfilled request of `userId` to the wallet (transaction_E with
 * cause profileL1Rejected) and marks it purchaseInvalidated, closing its task: the customer's level-1 profile was
 * rejected. Runs inside the rejection's own transaction; returns the requests it invalidated.
 */
export async function invalidateUnfulfilledPurchases(
  trx: Trx,
  userId: number,
  actorUserId: number | null,
  reason: string,
): Promise<number[]> {
  const candidates = await trx
    .selectFrom('purchases')
    .select('id')
    .where('userId', '=', userId)
    .where('state', 'in', UNFULFILLED)
    .orderBy('id')
    .execute();
  const invalidated: number[] = [];
  for (const { id } of candidates) {
    const purchase = await lockPurchase(trx, id, userId);
    if (!purchase || !(UNFULFILLED as readonly string[]).includes(purchase.state)) continue;
    const reserved = await reservationOf(trx, purchase);
    const traceCode = await purchaseTraceCode(trx, purchase, numericCode(12));
    await postTransaction(trx, {
      type: Tx.releaseReservation,
      userId,
      amounts: { expectedPrice: reserved },
      details: {
        purchaseId: purchase.id,
        totalExpectedPrice: purchase.expectedPrice,
        cause: 'profileL1Rejected',
        stateIdentifier: 'purchaseInvalidated',
      },
      traceCode,
      idempotencyKey: ledgerKey.purchase(purchase.id, 'release'),
    });
    await changePurchaseState(trx, purchase.id, 'purchaseInvalidated', 'profileL1Rejected', actorUserId, {}, reason);
    await closePurchaseTask(trx, purchase.id, { state: 'rejected', decidedBy: actorUserId, reason });
    await audit(trx, {
      actorUserId,
      action: 'invalidatePurchase',
      entity: 'purchase',
      entityId: purchase.id,
      before: { state: purchase.state, reserved },
      after: { state: 'purchaseInvalidated', cause: 'profileL1Rejected' },
    });
    invalidated.push(purchase.id);
  }
  return invalidated;
}

/** Tells the customer's open pages that their wallet and these requests changed (after commit). */
export async function announcePurchasesChanged(
  db: DB,
  live: LiveEvents,
  userId: number,
  purchaseIds: number[],
): Promise<void> {
  if (purchaseIds.length === 0) return;
  const user = await db.selectFrom('users').select('uid').where('id', '=', userId).executeTakeFirst();
  if (!user) return;
  const { balance } = await userBalance(db, userId);
  live.walletChanged(user.uid, { balance });
  const rows = await db.selectFrom('purchases').select(['id', 'state']).where('id', 'in', purchaseIds).execute();
  for (const row of rows) live.purchaseChanged(user.uid, { purchaseId: row.id, state: row.state });
}

export interface FulfilmentServiceOptions {
  db: DB;
  catalogue: Catalogue;
  requests: RequestService;
  storage: Storage;
  live: LiveEvents;
  /** How a Google Ads account is charged (today: staff in Google's console, recorded here). */
  googleAds: GoogleAdsOperations;
  /** Opens the request's sealed write-only fields for the reveal. */
  cipher: FieldCipher;
  log: FastifyBaseLogger;
}

export class FulfilmentService {
  private readonly db: DB;
  constructor(private readonly options: FulfilmentServiceOptions) {
    this.db = options.db;
  }

  private async purchaseOf(purchaseId: number): Promise<Purchase> {
    const found = (await this.options.requests.searchPurchases({ ids: [purchaseId] })).items[0];
    if (!found) throw HttpError.of(404, 'purchase.notFound');
    return found;
  }

  /** Opens a paid request's task (claiming it) with everything staff need to carry the request out. */
  async taskData(
    principal: Principal,
    taskId: number,
    types: readonly string[] = CURRENCY_PAYMENT_TASK_TYPES,
  ): Promise<FulfilmentTaskData> {
    const { task } = await this.db.transaction().execute(async (trx) => {
      const claimed = await claimTask(trx, taskId, types, principal.userId);
      if (claimed.claimedNow) {
        await audit(trx, {
          actorUserId: principal.userId,
          action: 'claimTask',
          entity: 'task',
          entityId: taskId,
          before: claimed.before,
          after: { state: 'claimed', claimedBy: principal.userId },
        });
      }
      return claimed;
    });
    if (task.purchaseId === null) throw HttpError.of(404, 'task.notFound');
    const type = taskTypes.find((t) => t.identifier === task.type);
    this.options.live.taskClaimed({
      taskId: task.id,
      type: task.type,
      title: type?.title ?? task.type,
      color: type?.color ?? '',
      claimedBy: principal.userId,
    });
    return this.requestData(task.purchaseId, (await toTaskDtos(this.db, [task]))[0]!);
  }

  private async requestData(purchaseId: number, task: TaskDto): Promise<FulfilmentTaskData> {
    const purchase = await this.purchaseOf(purchaseId);
    const row = await this.db
      .selectFrom('purchases as p')
      .innerJoin('users as u', 'u.id', 'p.userId')
      .select([
        'p.fields',
        'p.fee',
        'p.tax',
        'p.operationCost',
        'p.currencyId',
        'p.userId',
        'u.firstName',
        'u.lastName',
        'u.mobileNo',
        'u.nationalCode',
      ])
      .where('p.id', '=', purchaseId)
      .executeTakeFirstOrThrow();
    const deskForm = this.options.catalogue.deskForm(purchase.desk);
    const properties = (deskForm?.schema.properties ?? {}) as Record<string, { title?: string }>;
    const order = ((deskForm?.form.uiSchema as { 'ui:order'?: string[] } | undefined)?.['ui:order'] ?? []).filter(
      (name) => name !== '*',
    );
    const values = { ...(row.fields as Record<string, string | number | boolean | null>) };
    // Ids the desk's form picks from a list are shown by their titles, as the customer chose them.
    const widgets = (deskForm?.form.uiSchema ?? {}) as Record<string, { 'ui:widget'?: string } | undefined>;
    for (const [name, ui] of Object.entries(widgets)) {
      const id = Number(values[name]);
      if (!(name in values) || !Number.isInteger(id)) continue;
      if (ui?.['ui:widget'] === 'currencySelect') {
        values[name] = `${purchase.currencyTitle} (${purchase.currencyCode})`;
      } else if (ui?.['ui:widget'] === 'paymentMethodGroupSelect') {
        const group = await this.db
          .selectFrom('paymentMethodGroups')
          .select('title')
          .where('id', '=', id)
          .executeTakeFirst();
        if (group) values[name] = group.title;
      }
    }
    const names = [...order.filter((n) => n in values), ...Object.keys(values).filter((n) => !order.includes(n))];
    const secret = this.options.catalogue.writeOnlyFields;
    const reserved = await purchaseReservation(this.db, row.userId, purchaseId);
    const history = await this.db
      .selectFrom('purchaseStateChanges as c')
      .innerJoin('purchaseStates as s', 's.identifier', 'c.state')
      .select(['c.state', 's.title as stateTitle', 's.color as stateColor', 'c.cause', 'c.reason', 'c.createdAt'])
      .where('c.purchaseId', '=', purchaseId)
      .orderBy('c.id')
      .execute();
    const [thirdParties, paymentMethods] = await Promise.all([
      this.db.selectFrom('thirdParties').select(['id', 'title']).orderBy('title').execute(),
      this.db
        .selectFrom('paymentMethods')
        .select(['id', 'title'])
        .where('isActive', '=', true)
        .orderBy('title')
        .execute(),
    ]);
    return {
      task,
      purchase,
      costs: { fee: row.fee, tax: row.tax, operationCost: row.operationCost },
      reserved,
      fields: names.map((name) => ({
        name,
        title: properties[name]?.title ?? name,
        value: secret.has(name) ? null : (values[name] ?? null),
        secret: secret.has(name),
      })),
      customer: {
        id: row.userId,
        fullName: [row.firstName, row.lastName].filter(Boolean).join(' '),
        mobileNo: row.mobileNo,
        nationalCode: row.nationalCode,
      },
      history: history.map((h) => ({ ...h, createdAt: new Date(h.createdAt).toISOString() })),
      currencyPayment: await this.currencyPaymentOf(purchaseId),
      thirdParties,
      paymentMethods,
    };
  }

  private async currencyPaymentOf(purchaseId: number): Promise<CurrencyPaymentDto | null> {
    const row = await this.db
      .selectFrom('currencyPayments as c')
      .innerJoin('currencies as cur', 'cur.id', 'c.currencyId')
      .innerJoin('users as u', 'u.id', 'c.staffUserId')
      .leftJoin('thirdParties as t', 't.id', 'c.thirdPartyId')
      .leftJoin('paymentMethods as m', 'm.id', 'c.paymentMethodId')
      .select([
        'c.id',
        'c.purchaseId',
        'cur.code as currencyCode',
        'c.amountMinor',
        't.title as thirdPartyTitle',
        'm.title as paymentMethodTitle',
        'c.reference',
        'c.receiptPath',
        'c.realPrice',
        'u.firstName',
        'u.lastName',
        'u.mobileNo',
        'c.createdAt',
      ])
      .where('c.purchaseId', '=', purchaseId)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      purchaseId: row.purchaseId,
      currencyCode: row.currencyCode.trim(),
      foreignAmount: row.amountMinor / 100,
      thirdPartyTitle: row.thirdPartyTitle,
      paymentMethodTitle: row.paymentMethodTitle,
      reference: row.reference,
      receiptFile: row.receiptPath,
      realPrice: row.realPrice,
      staffName: nameOrMobile(row),
      createdAt: new Date(row.createdAt).toISOString(),
    };
  }

  /**
   * The request's write-only fields (the target page's password), opened from their sealed form; each reveal is
   * audit-logged with who and when. A value that does not open (sealed under a key this server does not hold, or
   * altered in the database) is refused with a Persian message and a warning naming only the request and why.
   */
  async revealSecret(principal: Principal, purchaseId: number): Promise<Record<string, string>> {
    const row = await this.db
      .selectFrom('purchases')
      .select(['userId', 'fields'])
      .where('id', '=', purchaseId)
      .executeTakeFirst();
    if (!row) throw HttpError.of(404, 'purchase.notFound');
    const fields = row.fields as Record<string, unknown>;
    const names = Object.keys(fields).filter((name) => this.options.catalogue.writeOnlyFields.has(name));
    let revealed: Record<string, string>;
    try {
      revealed = Object.fromEntries(
        names.map((name) => [name, openSecret(this.options.cipher, row.userId, name, fields[name])]),
      );
    } catch (error) {
      if (!(error instanceof UnsealError)) throw error;
      this.options.log.warn({ purchaseId, reason: error.reason }, 'a sealed request credential did not open');
      throw HttpError.of(422, 'purchase.secretUnreadable');
    }
    await audit(this.db, {
      actorUserId: principal.userId,
      action: 'revealPurchaseSecret',
      entity: 'purchase',
      entityId: purchaseId,
      after: { fields: names },
    });
    return revealed;
  }

  /** Locks the request and its task for a decision by `principal`; refuses a decided or colleague-held one. */
  private async lockForDecision(trx: Db, principal: Principal, purchaseId: number, kind: FulfilmentKind) {
    const purchase = await lockPurchase(trx, purchaseId);
    requireUnfulfilled(purchase);
    requireKind(purchase, kind);
    const task = await lockPurchaseTask(trx, purchaseId);
    if (task && claimedByOther(task, principal.userId)) throw HttpError.of(409, 'task.claimedByOther');
    return purchase;
  }

  /** The request was carried out: records the currency payment and spends the reservation (see fulfilmentSplit). */
  async done(principal: Principal, input: DoneInput): Promise<{ purchase: Purchase; refundedAmount: number }> {
    const result = await this.db.transaction().execute(async (trx) => {
      const purchase = await this.lockForDecision(trx, principal, input.purchase, 'currencyPayment');
      const reserved = await reservationOf(trx, purchase);
      const costs = costsOf(purchase);
      const { expendedAmount, refundedAmount } = fulfilmentSplit(reserved, costs, input.realPrice);
      const currencyId = input.currency ?? purchase.currencyId;
      await this.checkReferences(trx, principal, { ...input, currency: currencyId });

      const payment = await trx
        .insertInto('currencyPayments')
        .values({
          purchaseId: purchase.id,
          currencyId,
          amountMinor: Math.round((input.foreignAmount ?? purchase.amountMinor / 100) * 100),
          thirdPartyId: input.thirdParty ?? null,
          paymentMethodId: input.paymentMethod ?? null,
          reference: input.currencyPaymentReference.trim(),
          receiptPath: input.receiptFile ?? null,
          realPrice: input.realPrice,
          staffUserId: principal.userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();

      await postSettlement(trx, purchase, input.realPrice, { expendedAmount, refundedAmount });
      await changePurchaseState(trx, purchase.id, 'purchaseSucceeded', 'fulfilled', principal.userId);
      await closePurchaseTask(trx, purchase.id, { state: 'done', decidedBy: principal.userId });
      await audit(trx, {
        actorUserId: principal.userId,
        action: 'uafCprDone',
        entity: 'purchase',
        entityId: purchase.id,
        before: { state: purchase.state, reserved },
        after: {
          state: 'purchaseSucceeded',
          currencyPaymentId: payment.id,
          realPrice: input.realPrice,
          expendedAmount,
          refundedAmount,
        },
      });
      return { userId: purchase.userId, refundedAmount };
    });
    await announcePurchasesChanged(this.db, this.options.live, result.userId, [input.purchase]);
    return { purchase: await this.purchaseOf(input.purchase), refundedAmount: result.refundedAmount };
  }

  /** The catalogue rows and the receipt a currency payment names must exist (the receipt: the staff's own upload). */
  private async checkReferences(trx: Db, principal: Principal, input: DoneInput & { currency: number }) {
    const currency = await trx
      .selectFrom('currencies')
      .select('id')
      .where('id', '=', input.currency)
      .executeTakeFirst();
    if (!currency) throw HttpError.of(422, 'fulfilment.unknownCurrency');
    if (input.thirdParty != null) {
      const found = await trx
        .selectFrom('thirdParties')
        .select('id')
        .where('id', '=', input.thirdParty)
        .executeTakeFirst();
      if (!found) throw HttpError.of(422, 'fulfilment.unknownThirdParty');
    }
    if (input.paymentMethod != null) {
      const found = await trx
        .selectFrom('paymentMethods')
        .select('id')
        .where('id', '=', input.paymentMethod)
        .executeTakeFirst();
      if (!found) throw HttpError.of(422, 'fulfilment.unknownPaymentMethod');
    }
    if (input.receiptFile != null) {
      const attached = await this.options.storage.attach(
        trx,
        input.receiptFile,
        principal.userId,
        CURRENCY_PAYMENT_RECEIPT,
      );
      if (!attached) throw HttpError.of(422, 'fulfilment.receiptNotFound');
    }
  }

  /** The request could not be carried out: its whole reservation returns to the wallet and the customer sees why. */
  async failed(
    principal: Principal,
    purchaseId: number,
    reason: string,
    kind: FulfilmentKind = 'currencyPayment',
  ): Promise<Purchase> {
    return (await this.endFailed(principal, purchaseId, reason, 'failedByStaff', kind)).purchase;
  }

  /**
   * A paid Google Ads recharge was charged to its account: the charge is made through the account operations and
   * recorded with its reference, and the whole reservation is spent — transaction_D the charge's cost (the
   * reservation less fee, tax and operation cost), transaction_F those costs recognised — so it ends at zero.
   */
  async googleAdsChargeDone(
    principal: Principal,
    input: { purchase: number; chargeReference: string },
  ): Promise<{ purchase: Purchase; userId: number; googleAdsAccountId: number }> {
    const { userId, googleAdsAccountId } = await this.db.transaction().execute(async (trx) => {
      const purchase = await this.lockForDecision(trx, principal, input.purchase, 'googleAdsCharge');
      const reserved = await reservationOf(trx, purchase);
      const costs = costsOf(purchase);
      const { expendedAmount } = fulfilmentSplit(reserved, costs, reserved);
      const accountId = Number((purchase.fields as Record<string, unknown>).googleAdsAccount);
      const charge = await recordCharge(trx, this.options.googleAds, {
        purchaseId: purchase.id,
        userId: purchase.userId,
        accountId,
        amountMinor: purchase.amountMinor,
        chargeReference: input.chargeReference,
        staffUserId: principal.userId,
      });
      await postSettlement(trx, purchase, reserved, { expendedAmount, refundedAmount: 0 });
      await changePurchaseState(trx, purchase.id, 'purchaseSucceeded', 'fulfilled', principal.userId);
      await closePurchaseTask(trx, purchase.id, { state: 'done', decidedBy: principal.userId });
      await audit(trx, {
        actorUserId: principal.userId,
        action: 'googleAdsAccountCrDone',
        entity: 'purchase',
        entityId: purchase.id,
        before: { state: purchase.state, reserved },
        after: {
          state: 'purchaseSucceeded',
          googleAdsChargeId: charge.chargeId,
          googleAdsAccountId: charge.accountId,
          chargeReference: charge.chargeReference,
          expendedAmount,
          operations: this.options.googleAds.kind,
        },
      });
      return { userId: purchase.userId, googleAdsAccountId: charge.accountId };
    });
    await announcePurchasesChanged(this.db, this.options.live, userId, [input.purchase]);
    return { purchase: await this.purchaseOf(input.purchase), userId, googleAdsAccountId };
  }

  /**
   * The request failed through the customer's own error (a wrong username, an ineligible account, …): the fee and
   * its tax are kept and the rest of the reservation returns to the wallet (see userErrorRefundSplit).
   */
  async refundUserError(
    principal: Principal,
    purchaseId: number,
    reason: string,
  ): Promise<{ purchase: Purchase; refundedAmount: number }> {
    return this.endFailed(principal, purchaseId, reason, 'refundedUserError', 'currencyPayment');
  }

  /**
   * Ends a paid request purchaseFailed with `reason` on its history: 'failedByStaff' releases the whole reservation
   * (transaction_E), 'refundedUserError' keeps the fee and tax (transaction_J). Once, under the request's lock.
   */
  private async endFailed(
    principal: Principal,
    purchaseId: number,
    reason: string,
    cause: 'failedByStaff' | 'refundedUserError',
    kind: FulfilmentKind,
  ): Promise<{ purchase: Purchase; refundedAmount: number }> {
    const text = reason.trim();
    const { userId, refundedAmount } = await this.db.transaction().execute(async (trx) => {
      const purchase = await this.lockForDecision(trx, principal, purchaseId, kind);
      const reserved = await reservationOf(trx, purchase);
      const traceCode = await purchaseTraceCode(trx, purchase, numericCode(12));
      const details = {
        purchaseId: purchase.id,
        totalExpectedPrice: purchase.expectedPrice,
        stateIdentifier: 'purchaseFailed' as const,
      };
      let split: { refundedAmount: number; fee: number; tax: number };
      if (cause === 'failedByStaff') {
        split = { refundedAmount: reserved, fee: 0, tax: 0 };
        await postTransaction(trx, {
          type: Tx.releaseReservation,
          userId: purchase.userId,
          amounts: { expectedPrice: reserved },
          details,
          traceCode,
          idempotencyKey: ledgerKey.purchase(purchase.id, 'release'),
        });
      } else {
        split = userErrorRefundSplit(reserved, { fee: purchase.fee, tax: purchase.tax });
        await postTransaction(trx, {
          type: Tx.refundAfterUserError,
          userId: purchase.userId,
          amounts: split,
          details,
          traceCode,
          idempotencyKey: ledgerKey.purchase(purchase.id, 'refundUserError'),
        });
      }
      await changePurchaseState(trx, purchase.id, 'purchaseFailed', cause, principal.userId, {}, text);
      await closePurchaseTask(trx, purchase.id, { state: 'rejected', decidedBy: principal.userId, reason: text });
      await audit(trx, {
        actorUserId: principal.userId,
        action:
          kind === 'googleAdsCharge'
            ? 'googleAdsAccountCrFailed'
            : cause === 'failedByStaff'
              ? 'uafCprFailed'
              : 'uafCprRefundUserError',
        entity: 'purchase',
        entityId: purchase.id,
        before: { state: purchase.state, reserved },
        after: { state: 'purchaseFailed', cause, reason: text, ...split },
      });
      return { userId: purchase.userId, refundedAmount: split.refundedAmount };
    });
    await announcePurchasesChanged(this.db, this.options.live, userId, [purchaseId]);
    return { purchase: await this.purchaseOf(purchaseId), refundedAmount };
  }
}
