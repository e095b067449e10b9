/** Reading a request and its money: the customer's and staff's request pages, and a collection's receipt. */
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import {
  type CollectionReceipt,
  type PaymentDeps,
  type PurchaseDetail,
  type StaffPurchaseDetail,
  purchaseOf,
} from './context';
import type { Principal } from '../../contract/handlers';
import { HttpError } from '../../http/errors';
import { msg } from '../../http/messages';
import { toEnglishDigits } from '../../../shared/digits';
import { atRiskHours, OPEN_PURCHASE_STATES, PURCHASE_TASK_TYPES } from '../tasks';
import { isAtRisk } from '../../../shared/deadline';
import { fullNameOf, nameOrMobile } from '../../lib/person-names';
import { customerCurrencyPaymentQuery, toCustomerCurrencyPayment } from '../fulfilment';
import {
  PURCHASE_COLUMNS,
  purchasesQuery,
  purchaseView,
  requestTimeline,
  timelineOf,
  timelineSources,
  usualHoursOf,
  usualHoursToDone,
  usualWaitQuery,
} from '../requests';
import { lastPaymentLinkQuery, ownPaymentLinkOf } from './payment-links';
import { firstNameAndInitial } from '../../../shared/masked-name';
import { formatReceiptCode } from '../../../shared/receipt-code';
import { receiptCodeOf, verificationUrlOf } from './receipt-verification';

/** States in which the next step of the timeline is staff's (its usual wait is shown). */
const WAITS_FOR_STAFF = ['paid', 'inProgress'];

/**
 * One of the customer's requests with all its page shows: its history and timeline, its online payments, the
 * currency payment made for it once it succeeded, its payer and its payment link. One query reads them all (each a
 * subquery beside the request's row); a finished request whose receipt predates codes gets its code made, once.
 */
export async function fetchPurchase(
  deps: PaymentDeps,
  principal: Principal,
  purchaseId: number,
  now: Date = new Date(),
): Promise<PurchaseDetail> {
  const { db } = deps;
  const row = await purchasesQuery(db)
    .select(PURCHASE_COLUMNS)
    .select('purchases.formType')
    .select(timelineSources(db, purchaseId, now))
    .select((eb) => [
      eb
        .selectFrom('ledgerAccounts')
        .select('balance')
        .where('kind', '=', 'wallet')
        .whereRef('ledgerAccounts.userId', '=', 'purchases.userId')
        .as('wallet'),
      jsonArrayFrom(paymentsQuery(db, purchaseId, principal.userId)).as('payments'),
      jsonObjectFrom(customerCurrencyPaymentQuery(db, purchaseId)).as('currencyPayment'),
      eb.selectFrom('receiptCodes').select('code').where('purchaseId', '=', purchaseId).as('receiptCode'),
      jsonObjectFrom(lastPaymentLinkQuery(db, purchaseId)).as('paymentLink'),
      // The usual wait of the desk, asked only of a request that may be waiting for staff (the timeline's next step).
      eb
        .case()
        .when(
          eb.or([eb('purchases.state', 'in', WAITS_FOR_STAFF), eb('purchases.promiseCompensatedAt', 'is not', null)]),
        )
        .then(jsonObjectFrom(usualWaitQuery(db, eb.ref('purchases.desk'), now)))
        .end()
        .as('usualWait'),
    ])
    // The customer's own request only: someone else's is not found.
    .where('purchases.id', '=', purchaseId)
    .where('purchases.userId', '=', principal.userId)
    .executeTakeFirst();
  if (!row) throw HttpError.of(404, 'purchase.notFound');
  const usualWait = row.usualWait;
  const timeline = await timelineOf(db, row, row, 'customer', async () =>
    usualWait ? usualHoursOf(usualWait) : usualHoursToDone(db, row.desk, now),
  );
  const paidAbroad = row.currencyPayment && toCustomerCurrencyPayment(row.currencyPayment, deps.signedUrl);
  // A finished request's receipt: what was paid abroad, with the code anyone holding it can check.
  const code = paidAbroad
    ? row.receiptCode === null
      ? await receiptCodeOf(db, { purchaseId })
      : formatReceiptCode(row.receiptCode)
    : null;
  return {
    purchase: purchaseView(deps.requests, row, row.wallet ?? 0),
    history: historyOf(row.changes),
    payments: row.payments.map(paymentOf),
    currencyPayment:
      paidAbroad && code
        ? { ...paidAbroad, verificationCode: code, verificationUrl: verificationUrlOf(deps.publicUrl, code) }
        : null,
    timeline,
    payerName: row.payer ? firstNameAndInitial(row.payer.firstName, row.payer.lastName) : null,
    paymentLink: row.paymentLink && ownPaymentLinkOf(row.paymentLink),
  };
}

/**
 * Any request for staff (viewRequests): its history, every online payment, and its undecided fulfilment task with
 * its type (a Google Ads recharge is decided by its own dialog and action, not the currency-payment one).
 */
export async function fetchStaffPurchase(deps: PaymentDeps, purchaseId: number): Promise<StaffPurchaseDetail> {
  const detail = await purchaseDetail(deps, purchaseId);
  const task = await deps.db
    .selectFrom('tasks')
    .select(['id', 'type'])
    .where('purchaseId', '=', purchaseId)
    .where('type', 'in', PURCHASE_TASK_TYPES)
    .where('state', 'in', ['open', 'claimed'])
    .executeTakeFirst();
  // The query keeps only PURCHASE_TASK_TYPES.
  const openTaskType = (task?.type ?? null) as StaffPurchaseDetail['openTaskType'];
  const timeline = await requestTimeline(deps.db, purchaseId, 'staff');
  // Staff answer knowing who and how urgent: the customer's name and mobile, the deadline at risk or not.
  const customer = await deps.db
    .selectFrom('purchases as p')
    .innerJoin('users as u', 'u.id', 'p.userId')
    .select(['u.firstName', 'u.lastName', 'u.mobileNo'])
    .where('p.id', '=', purchaseId)
    .executeTakeFirstOrThrow();
  const open = (OPEN_PURCHASE_STATES as readonly string[]).includes(detail.purchase.state);
  return {
    ...detail,
    openTaskId: task?.id ?? null,
    openTaskType,
    timeline,
    customer: { fullName: fullNameOf(customer) ?? '', mobileNo: customer.mobileNo },
    deadlineAtRisk: open && isAtRisk(detail.purchase.deadlineAt, await atRiskHours(deps.db)),
  };
}

/** A request with its state history and online payments; `userId` limits it to that customer's. */
export async function purchaseDetail(
  deps: PaymentDeps,
  purchaseId: number,
  userId?: number,
): Promise<Omit<PurchaseDetail, 'currencyPayment' | 'timeline'>> {
  const purchase = await purchaseOf(deps, purchaseId, userId);
  return { purchase, ...(await purchaseMoney(deps, purchaseId, userId)) };
}

type Money = Pick<PurchaseDetail, 'history' | 'payments'>;

/** A request's state history and online payments, read together (`userId`: the customer's view of the payments). */
async function purchaseMoney(deps: PaymentDeps, purchaseId: number, userId?: number): Promise<Money> {
  const historyQuery = deps.db
    .selectFrom('purchaseStateChanges as c')
    .innerJoin('purchaseStates as s', 's.identifier', 'c.state')
    .select(['c.state', 's.title as stateTitle', 's.color as stateColor', 'c.cause', 'c.reason', 'c.createdAt'])
    .where('c.purchaseId', '=', purchaseId)
    .orderBy('c.id')
    .execute();
  const [history, payments] = await Promise.all([historyQuery, paymentsQuery(deps.db, purchaseId, userId).execute()]);
  return { history: historyOf(history), payments: payments.map(paymentOf) };
}

const historyOf = (
  rows: Array<Omit<Money['history'][number], 'createdAt'> & { createdAt: Date | string }>,
): Money['history'] =>
  rows.map((h) => ({
    state: h.state,
    stateTitle: h.stateTitle,
    stateColor: h.stateColor,
    cause: h.cause,
    reason: h.reason,
    createdAt: new Date(h.createdAt).toISOString(),
  }));

const paymentOf = (p: {
  id: number;
  amount: number;
  state: string;
  createdAt: Date | string;
  collectionId: number | null;
}): Money['payments'][number] => ({
  onlineProformaId: p.id,
  amount: p.amount,
  state: p.state as Money['payments'][number]['state'],
  collectionId: p.collectionId,
  createdAt: new Date(p.createdAt).toISOString(),
});

/** A request's online payments (`userId`: those its customer sees). */
function paymentsQuery(db: PaymentDeps['db'], purchaseId: number, userId?: number) {
  return (
    db
      .selectFrom('onlineProformas as p')
      .leftJoin('collections as c', 'c.onlineProformaId', 'p.id')
      .select(['p.id', 'p.amount', 'p.state', 'p.createdAt', 'c.id as collectionId'])
      .where('p.purchaseId', '=', purchaseId)
      // The customer's own payments, and the one of a payer (decision 028) that paid this request: the timeline says
      // it was paid from the bank's gateway, so «پرداخت‌های آنلاین» lists it with its receipt. The payer's other
      // attempts (failed, or refused for a card not theirs) are the payer's own business.
      .$if(userId !== undefined, (q) =>
        q.where((eb) =>
          eb.or([
            eb('p.userId', '=', userId!),
            eb.and([
              eb('c.refundedToCard', '=', false),
              eb.exists(
                eb
                  .selectFrom('purchases as r')
                  .select('r.id')
                  .whereRef('r.id', '=', 'p.purchaseId')
                  .where('r.userId', '=', userId!)
                  .whereRef('r.payerUserId', '=', 'p.userId'),
              ),
            ]),
          ]),
        ),
      )
      .orderBy('p.id')
  );
}

export async function fetchCollection(
  deps: PaymentDeps,
  principal: Principal,
  collectionId: number,
): Promise<CollectionReceipt> {
  const row = await deps.db
    .selectFrom('collections as c')
    .innerJoin('users as u', 'u.id', 'c.userId')
    .leftJoin('onlineProformas as p', 'p.id', 'c.onlineProformaId')
    .select([
      'p.verified',
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
    .select('c.userId')
    .where('c.id', '=', collectionId)
    .where((eb) =>
      eb.or([
        eb('c.userId', '=', principal.userId),
        // The request's customer also opens the receipt of the payer who paid it through a payment link.
        eb.and([
          eb('c.refundedToCard', '=', false),
          eb.exists(
            eb
              .selectFrom('purchases as r')
              .select('r.id')
              .whereRef('r.id', '=', 'c.purchaseId')
              .where('r.userId', '=', principal.userId)
              .whereRef('r.payerUserId', '=', 'c.userId'),
          ),
        ]),
      ]),
    )
    .executeTakeFirst();
  if (!row) throw HttpError.of(404, 'collection.notFound');
  // The payer of someone else's request reads only its title (the request itself is not theirs to open).
  const purchase = row.purchaseId === null ? null : await purchaseOf(deps, row.purchaseId);
  const own = row.userId === principal.userId;
  // Made with the collection; a collection recorded before receipts had codes gets its own now, once.
  const code = await receiptCodeOf(deps.db, { collectionId: row.id });
  return {
    verificationCode: code,
    verificationUrl: verificationUrlOf(deps.publicUrl, code),
    id: row.id,
    amount: row.amount,
    source: row.source as CollectionReceipt['source'],
    traceCode: row.traceCode,
    referenceId: row.referenceId,
    cardNo: own ? row.cardNo : null,
    gatewayTitle: row.gateway === deps.gateway.name ? deps.gateway.title : (row.gateway ?? msg('payment.offline')),
    purchaseId: row.purchaseId,
    purchaseTitle: purchase ? `${purchase.deskTitle} (${purchase.id})` : null,
    customerName: own ? nameOrMobile(row) : (purchase?.customerName ?? ''),
    payerName: own ? nameOrMobile(row) : (fullNameOf(row) ?? ''),
    // The payer's identifiers are theirs: the request's customer reads the payer's name only.
    nationalCode: own ? row.nationalCode : null,
    refundedToCard: row.refundedToCard,
    cause: row.cause === 'cardMismatch' ? 'cardMismatch' : null,
    // A refused card's receipt says whose card it was, when the gateway named its holder.
    cardHolderNationalCode: row.refundedToCard ? holderOf(row.verified) : null,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** The card holder's national code a verified payment's record names (Latin digits), or null. */
function holderOf(verified: unknown): string | null {
  const record = (typeof verified === 'string' ? JSON.parse(verified) : verified) as {
    holderNationalCode?: unknown;
  } | null;
  const holder = record?.holderNationalCode;
  return typeof holder === 'string' && holder.trim() !== '' ? toEnglishDigits(holder.trim()) : null;
}
