/**
 * Staff decide a paid request's currency payment: done (the currency payment recorded and the reservation spent,
 * D, F, G), failed (the whole reservation back, E) or failed through the customer's own error (fee and tax kept,
 * J). Each use case owns its transaction: it composes the steps of settlement.ts with the request's state, its
 * history row, its task and the audit entry, once under the request's lock, and announces after commit.
 */
import type { Kysely } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import type { Principal } from '../../contract/handlers';
import { HttpError } from '../../http/errors';
import { numericCode } from '../../lib/crypto';
import { ledgerKey, postTransaction, Tx } from '../ledger';
import { moneyOwnerOf, purchaseTraceCode, runRequestEvent } from '../requests';
import { CURRENCY_PAYMENT_RECEIPT } from '../storage';
import { canonicalForeignReference, foreignReferenceMessage } from '../../../shared/validation/foreign-reference';
import { type MessageKey, msg } from '../../http/messages';
import { type FulfilmentDeps, purchaseOf } from './deps';
import { announcePurchasesChanged } from './invalidation';
import {
  costsOf,
  type FulfilmentKind,
  fulfilmentSplit,
  lockForDecision,
  postSettlement,
  reservationOf,
  userErrorRefundSplit,
} from './settlement';

type Db = Kysely<Database>;
type Purchase = components['schemas']['Purchase'];

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

/** The request was carried out: records the currency payment and spends the reservation (see fulfilmentSplit). */
export async function done(
  deps: FulfilmentDeps,
  principal: Principal,
  input: DoneInput,
): Promise<{ purchase: Purchase; refundedAmount: number }> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const purchase = await lockForDecision(trx, principal, input.purchase, 'currencyPayment');
    const reserved = await reservationOf(trx, purchase);
    const costs = costsOf(purchase);
    const { expendedAmount, refundedAmount } = fulfilmentSplit(reserved, costs, input.realPrice);
    const currencyId = input.currency ?? purchase.currencyId;
    const reference = foreignReferenceOf(deps, purchase.desk, input.currencyPaymentReference);
    await checkReferences(deps, trx, principal, { ...input, currency: currencyId });
    const receiptSha256 = input.receiptFile == null ? null : await deps.storage.sha256Of(input.receiptFile);

    const payment = await trx
      .insertInto('currencyPayments')
      .values({
        purchaseId: purchase.id,
        currencyId,
        amountMinor: Math.round((input.foreignAmount ?? purchase.amountMinor / 100) * 100),
        thirdPartyId: input.thirdParty ?? null,
        paymentMethodId: input.paymentMethod ?? null,
        reference,
        receiptPath: input.receiptFile ?? null,
        receiptSha256,
        realPrice: input.realPrice,
        staffUserId: principal.userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const thirdParty = input.thirdParty == null ? null : await thirdPartyTitle(trx, input.thirdParty);
    await runRequestEvent(trx, purchase, 'done', {
      actorUserId: principal.userId,
      post: () => postSettlement(trx, purchase, input.realPrice, { expendedAmount, refundedAmount }),
      catalogue: deps.catalogue,
      step: { kind: 'done', priceAmount: input.realPrice, returnedAmount: refundedAmount, thirdParty },
      audit: {
        before: { reserved },
        after: { currencyPaymentId: payment.id, realPrice: input.realPrice, expendedAmount, refundedAmount },
      },
    });
    return { userId: purchase.userId, refundedAmount };
  });
  await announcePurchasesChanged(deps.db, deps.live, result.userId, [input.purchase]);
  return { purchase: await purchaseOf(deps, input.purchase), refundedAmount: result.refundedAmount };
}

/**
 * The reference as stored: in the canonical form of the format the desk declares (a SEVIS I-901 number is N and ten
 * digits, typed in any digits), 422 with that format's Persian message when it is not one; free text trimmed for a
 * desk that declares none.
 */
function foreignReferenceOf(deps: FulfilmentDeps, desk: string, typed: string): string {
  const format = deps.catalogue.deskForm(desk)?.desk.foreignReference?.format;
  const reference = canonicalForeignReference(format, typed);
  if (reference === null) throw new HttpError(422, msg(foreignReferenceMessage(format!) as MessageKey));
  return reference;
}

async function thirdPartyTitle(trx: Db, id: number): Promise<string | null> {
  const row = await trx.selectFrom('thirdParties').select('title').where('id', '=', id).executeTakeFirst();
  return row?.title ?? null;
}

/** The catalogue rows and the receipt a currency payment names must exist (the receipt: the staff's own upload). */
async function checkReferences(
  deps: FulfilmentDeps,
  trx: Db,
  principal: Principal,
  input: DoneInput & { currency: number },
) {
  const currency = await trx.selectFrom('currencies').select('id').where('id', '=', input.currency).executeTakeFirst();
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
    const attached = await deps.storage.attach(trx, input.receiptFile, principal.userId, CURRENCY_PAYMENT_RECEIPT);
    if (!attached) throw HttpError.of(422, 'fulfilment.receiptNotFound');
  }
}

/** The request could not be carried out: its whole reservation returns to the wallet and the customer sees why. */
export async function failed(
  deps: FulfilmentDeps,
  principal: Principal,
  purchaseId: number,
  reason: string,
  kind: FulfilmentKind = 'currencyPayment',
): Promise<Purchase> {
  return (await endFailed(deps, principal, purchaseId, reason, 'failedByStaff', kind)).purchase;
}

/**
 * The request failed through the customer's own error (a wrong username, an ineligible account, …): the fee and
 * its tax are kept and the rest of the reservation returns to the wallet (see userErrorRefundSplit).
 */
export async function refundUserError(
  deps: FulfilmentDeps,
  principal: Principal,
  purchaseId: number,
  reason: string,
): Promise<{ purchase: Purchase; refundedAmount: number }> {
  return endFailed(deps, principal, purchaseId, reason, 'refundedUserError', 'currencyPayment');
}

/**
 * Ends a paid request purchaseFailed with `reason` on its history: 'failedByStaff' releases the whole reservation
 * (transaction_E), 'refundedUserError' keeps the fee and tax (transaction_J). Once, under the request's lock.
 */
async function endFailed(
  deps: FulfilmentDeps,
  principal: Principal,
  purchaseId: number,
  reason: string,
  cause: 'failedByStaff' | 'refundedUserError',
  kind: FulfilmentKind,
): Promise<{ purchase: Purchase; refundedAmount: number }> {
  const text = reason.trim();
  const { userId, refundedAmount } = await deps.db.transaction().execute(async (trx) => {
    const purchase = await lockForDecision(trx, principal, purchaseId, kind);
    const reserved = await reservationOf(trx, purchase);
    const traceCode = await purchaseTraceCode(trx, purchase, numericCode(12));
    const details = {
      purchaseId: purchase.id,
      totalExpectedPrice: purchase.expectedPrice,
      stateIdentifier: 'purchaseFailed' as const,
    };
    const split =
      cause === 'failedByStaff'
        ? { refundedAmount: reserved, fee: 0, tax: 0 }
        : userErrorRefundSplit(reserved, { fee: purchase.fee, tax: purchase.tax });
    const event =
      cause === 'refundedUserError'
        ? 'refundedAfterUserError'
        : kind === 'googleAdsCharge'
          ? 'googleAdsChargeFailed'
          : 'failed';
    await runRequestEvent(trx, purchase, event, {
      actorUserId: principal.userId,
      cause,
      reason: text,
      post: async () => {
        if (cause === 'failedByStaff') {
          await postTransaction(trx, {
            type: Tx.releaseReservation,
            userId: moneyOwnerOf(purchase),
            amounts: { expectedPrice: reserved },
            details,
            traceCode,
            idempotencyKey: ledgerKey.purchase(purchase.id, 'release'),
          });
        } else {
          await postTransaction(trx, {
            type: Tx.refundAfterUserError,
            userId: moneyOwnerOf(purchase),
            amounts: split,
            details,
            traceCode,
            idempotencyKey: ledgerKey.purchase(purchase.id, 'refundUserError'),
          });
        }
      },
      catalogue: deps.catalogue,
      step:
        cause === 'failedByStaff'
          ? { kind: 'failed', reason: text, releasedAmount: split.refundedAmount }
          : { kind: 'refunded', reason: text, keptAmount: split.fee + split.tax, returnedAmount: split.refundedAmount },
      audit: { before: { reserved }, after: { cause, reason: text, ...split } },
    });
    return { userId: purchase.userId, refundedAmount: split.refundedAmount };
  });
  await announcePurchasesChanged(deps.db, deps.live, userId, [purchaseId]);
  return { purchase: await purchaseOf(deps, purchaseId), refundedAmount };
}
