/**
 * The steps of a fulfilment decision, each a plain function of the caller's transaction: lock the paid request
 * (and its task) for a decision, read its reservation, split it (fulfilmentSplit for a request carried out,
 * userErrorRefundSplit for one that failed through the customer's error) and post the split to the ledger. The use
 * cases (decisions.ts here, google-ads/charge-done.ts) compose them inside the one transaction they own.
 *
 * Lock order (as in payments): the request row, then its task row, then the ledger accounts (the ledger locks
 * those in id order).
 */
import type { Kysely } from 'kysely';
import type { DB as Database } from '../../../generated/db';
import { toPersianDigits } from '../../../shared/digits';
import type { Principal } from '../../contract/handlers';
import { HttpError } from '../../http/errors';
import { numericCode } from '../../lib/crypto';
import { ledgerKey, postTransaction, purchaseReservation, type PurchaseStep, Tx } from '../ledger';
import { type LockedPurchase, lockPurchase, moneyOwnerOf, purchaseTraceCode } from '../requests';
import { claimedByOther, lockPurchaseTask } from '../tasks';
import type { Trx } from '../../db/database';
import { PAID_STATES, UNFULFILLED_STATES } from '../../../shared/request-lifecycle';

type Db = Kysely<Database>;

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
export function costsOf(purchase: LockedPurchase): { fee: number; tax: number; operationCost: number } {
  return { fee: purchase.fee, tax: purchase.tax, operationCost: purchase.operationCost };
}

/**
 * Posts a fulfilled request's money under one trace code: transaction_D spends `expendedAmount` of the
 * reservation, transaction_F recognises the request's fee, tax and operation cost, and transaction_G returns any
 * `refundedAmount` to the wallet. Each is keyed on the request, so a replayed decision cannot post twice.
 */
export async function postSettlement(
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
      userId: moneyOwnerOf(purchase),
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

/** Paid and not yet carried out (the lifecycle's UNFULFILLED_STATES): where a decision may start. */
const unfulfilled = (purchase: { state: string }) => (UNFULFILLED_STATES as readonly string[]).includes(purchase.state);

/** Refuses a decision on a request that is not waiting for one (409: it was decided, or is not paid). */
function requireUnfulfilled(purchase: LockedPurchase | undefined): asserts purchase is LockedPurchase {
  if (!purchase) throw HttpError.of(404, 'purchase.notFound');
  if ((PAID_STATES as readonly string[]).includes(purchase.state) && !unfulfilled(purchase)) {
    throw HttpError.of(409, 'fulfilment.alreadyDecided');
  }
  if (!unfulfilled(purchase)) throw HttpError.of(409, 'fulfilment.notPaid');
}

/** The request's reservation, which a decision moves whole; a paid request always holds one. */
export async function reservationOf(trx: Db, purchase: LockedPurchase): Promise<number> {
  const reserved = await purchaseReservation(trx, moneyOwnerOf(purchase), purchase.id);
  if (reserved <= 0) throw new Error(`paid request ${purchase.id} holds no reservation`);
  return reserved;
}

/** Locks the request and its task for a decision by `principal`; refuses a decided or colleague-held one. */
export async function lockForDecision(
  trx: Db,
  principal: Principal,
  purchaseId: number,
  kind: FulfilmentKind,
): Promise<LockedPurchase> {
  const purchase = await lockPurchase(trx, purchaseId);
  requireUnfulfilled(purchase);
  requireKind(purchase, kind);
  const task = await lockPurchaseTask(trx, purchaseId);
  if (task && claimedByOther(task, principal.userId)) throw HttpError.of(409, 'task.claimedByOther');
  return purchase;
}
