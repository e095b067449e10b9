/**
 * Receiving money, the one path for every collection (a verified gateway payment, or a deposit staff record by
 * hand): the collection row, its ledger posting, and the request paid when the wallet now covers it. Steps that run
 * inside the caller's transaction (decision 007: `trx` first).
 */
import { type PaymentDeps, type PaymentOutcome, type TaskOpened } from './context';
import { numericCode } from '../../lib/crypto';
import { ledgerKey, lockedWalletBalance, postTransaction, Tx } from '../ledger';
import { type LockedPurchase, paidHowOf, purchaseTraceCode, requestTitle, runRequestEvent } from '../requests';
import { notifyIfDeadlineAtRisk } from '../tasks';
import { notify } from '../notifications';
import { firstNameAndInitial } from '../../../shared/masked-name';
import { linkPayerMayPay, markLinkPaid } from './link-claims';
import { receiptCodeOf } from './receipt-verification';
import type { Trx } from '../../db/database';

/**
 * The staff task that fulfils a paid request: a Google Ads recharge is charged to the account, cash delivery is
 * completed by hand, the rest paid abroad.
 */
function fulfilmentTaskOf(purchase: LockedPurchase, isCashService: boolean): string {
  if (purchase.formType === 'googleAdsAccountCr') return 'googleAdsAccountCrCpTask';
  return isCashService ? 'completeCurrencyPaymentTask' : 'uafCprCpTask';
}

/** What a collection records about where the money came from. */
export type CollectionSource =
  | { source: 'online'; gateway: string; referenceId: string | null; cardNo: string | null }
  | {
      source: 'offline';
      trackingCode: string;
      /** `trackingCode` in the one form codes are compared in (tracking-code.ts). */
      trackingCodeCanonical: string;
      sourceAccountNo: string;
      internalBankAccountId: number;
      recordedBy: number;
    };

export interface Receipt {
  userId: number;
  /** The request the money was paid for, locked by the caller. */
  purchase: LockedPurchase | undefined;
  amount: number;
  onlineProformaId: number | null;
  cardMismatch: boolean;
  collection: CollectionSource;
}

export interface Received {
  collectionId: number;
  outcome: PaymentOutcome;
  task: TaskOpened | null;
}

/**
 * Reserves the expected price from the payer's wallet (the customer's own, or the payer's who paid through a payment
 * link, decision 028), marks the request paid, tells the customer and opens its fulfilment task: the lifecycle's
 * paid events (requests/lifecycle.ts).
 */
export async function reserveAndMarkPaid(
  trx: Trx,
  deps: PaymentDeps,
  purchase: LockedPurchase,
  traceCode: string,
  paid: {
    cause: 'paidFromWallet' | 'paidOnline' | 'paidOffline';
    payablePrice: number;
    actorUserId: number | null;
    /** Who pays when it is not the request's customer: they paid through the request's payment link. */
    payerUserId?: number;
    /** The request has no trace code yet: `traceCode` is written with its paid state (one update, not two). */
    newTraceCode?: boolean;
  },
): Promise<TaskOpened | null> {
  const payer = paid.payerUserId ?? purchase.userId;
  const forOther = payer !== purchase.userId;
  const type = fulfilmentTaskOf(purchase, deps.isCashDesk(purchase.desk));
  const { taskId } = await runRequestEvent(trx, purchase, forOther ? 'paidByLinkPayer' : paid.cause, {
    actorUserId: paid.actorUserId,
    cause: paid.cause,
    set: {
      walletAmount: purchase.expectedPrice - paid.payablePrice,
      payablePrice: paid.payablePrice,
      ...(forOther ? { payerUserId: payer } : {}),
      ...(paid.newTraceCode ? { traceCode } : {}),
    },
    post: async () => {
      await postTransaction(trx, {
        type: Tx.reserveForPurchase,
        userId: payer,
        amounts: { expectedPrice: purchase.expectedPrice },
        details: { purchaseId: purchase.id, totalExpectedPrice: purchase.expectedPrice },
        traceCode,
        idempotencyKey: ledgerKey.purchase(purchase.id, 'reserve'),
      });
    },
    catalogue: deps.requests.catalogue,
    ...(forOther
      ? { tell: () => tellLinkPaid(trx, deps, purchase, payer) }
      : { step: { kind: 'paid' as const, how: paidHowOf(paid.cause), amount: purchase.expectedPrice } }),
    openTask: type,
  });
  // Paid with its deadline near already: the customer and the task's staff hear it now, not at the next sweep. A
  // request without a deadline (its form has none) is never at risk: nothing to read.
  if (purchase.deadlineAt !== null) {
    await notifyIfDeadlineAtRisk(trx, purchase.id, (d) => deps.requests.catalogue.deskForm(d)?.desk.title ?? d);
  }
  return taskId === null ? null : { taskId, type };
}

/** Paid through the payment link: the link is marked paid, and requester and payer each hear it. */
async function tellLinkPaid(trx: Trx, deps: PaymentDeps, purchase: LockedPurchase, payer: number): Promise<void> {
  await markLinkPaid(trx, purchase.id, payer);
  const people = await trx
    .selectFrom('users')
    .select(['id', 'firstName', 'lastName'])
    .where('id', 'in', [payer, purchase.userId])
    .execute();
  const nameOf = (id: number) => {
    const u = people.find((p) => p.id === id);
    return firstNameAndInitial(u?.firstName, u?.lastName);
  };
  const title = requestTitle(deps.requests.catalogue, purchase);
  // Each names the other as the payment link's preview does: first name and last initial, nothing more.
  await notify(trx, {
    userId: purchase.userId,
    kind: 'purchasePaidByOther',
    params: { title, payerName: nameOf(payer), amount: purchase.expectedPrice },
    purchaseId: purchase.id,
    eventKey: `purchase:${purchase.id}:paid`,
  });
  // The payer cannot open the request, so their notification links nowhere but names where the receipt is.
  await notify(trx, {
    userId: payer,
    kind: 'purchasePaidForOther',
    params: { title, requesterName: nameOf(purchase.userId), amount: purchase.expectedPrice },
    eventKey: `purchase:${purchase.id}:paid:payer`,
  });
}

/**
 * Records money received from a customer, the one path for every collection (a verified gateway payment, or a
 * deposit staff record by hand): the collection row, the money into the wallet (`Tx.collectOnline` from the gateway,
 * `Tx.collectOffline` from our bank) or back to a foreign card (`Tx.refundToForeignCard`), and, when the request it was paid
 * for still waits and the wallet now covers it, the reservation and the paid state. Runs inside the caller's
 * transaction, which holds the online payment's row (when there is one) and then the request's row.
 */
export async function receive(trx: Trx, deps: PaymentDeps, input: Receipt): Promise<Received> {
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
            trackingCodeCanonical: source.trackingCodeCanonical,
            sourceAccountNo: source.sourceAccountNo,
            internalBankAccountId: source.internalBankAccountId,
            recordedBy: source.recordedBy,
          }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The receipt's verification code comes into being with the receipt.
  await receiptCodeOf(trx, { collectionId: collection.id });
  const details = {
    collectionId: collection.id,
    onlineProformaId: input.onlineProformaId ?? undefined,
    purchaseId: purchase?.id,
    ...(source.source === 'offline' ? { customerAccountNo: source.sourceAccountNo } : {}),
  };
  const idempotencyKey =
    input.onlineProformaId === null
      ? ledgerKey.collection(collection.id)
      : ledgerKey.onlinePayment(input.onlineProformaId);
  if (input.cardMismatch) {
    // SPEC terms: money paid with another person's card returns only to that card.
    await postTransaction(trx, {
      type: Tx.refundToForeignCard,
      userId: input.userId,
      amounts: { refundedAmount: input.amount },
      details: { ...details, refundedToUnsafe: true, cause: 'cardMismatch' },
      traceCode,
      idempotencyKey,
    });
    return { collectionId: collection.id, outcome: 'cardMismatch', task: null };
  }
  await postTransaction(trx, {
    type: source.source === 'online' ? Tx.collectOnline : Tx.collectOffline,
    userId: input.userId,
    amounts: { collectionAmount: input.amount },
    details,
    traceCode,
    idempotencyKey,
  });
  if (purchase?.state !== 'waitingForPayment')
    return { collectionId: collection.id, outcome: 'walletCredited', task: null };
  // Money from someone other than the customer pays the request only through its payment link, still unrevoked and
  // claimed by this payer (decision 028); otherwise it stays in the payer's wallet.
  const forOther = input.userId !== purchase.userId;
  if (forOther && !(await linkPayerMayPay(trx, purchase.id, input.userId))) {
    return { collectionId: collection.id, outcome: 'walletCredited', task: null };
  }
  const wallet = await lockedWalletBalance(trx, input.userId);
  if (wallet < purchase.expectedPrice) return { collectionId: collection.id, outcome: 'walletCredited', task: null };
  const task = await reserveAndMarkPaid(trx, deps, purchase, traceCode, {
    cause: source.source === 'online' ? 'paidOnline' : 'paidOffline',
    payablePrice: Math.min(input.amount, purchase.expectedPrice),
    actorUserId: source.source === 'online' ? null : source.recordedBy,
    ...(forOther ? { payerUserId: input.userId } : {}),
  });
  return { collectionId: collection.id, outcome: 'success', task };
}
