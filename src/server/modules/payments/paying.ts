/**
 * Paying a request (payPurchase): from the wallet, or through a bank gateway for the part the wallet does not
 * cover, once per Idempotency-Key (http/idempotency.ts; claims in pay_requests); cancelling one before payment.
 * The use case owns its transaction, calls the gateway outside it, and announces what changed after it commits.
 *
 * Money rules (decision 010, SPEC §4): nothing leaves the wallet unless the request ends paid. Lock order, the same
 * everywhere so that two payments never wait on each other in a cycle: the online payment row, then the request
 * row, then the ledger accounts (the ledger locks those in id order).
 */
import {
  type PaymentDeps,
  type PayResult,
  type Purchase,
  type TaskOpened,
  announceMoneyLater,
  announceTask,
  type KnownMoney,
  onDb,
  purchaseOf,
} from './context';
import { reserveAndMarkPaid } from './receiving';
import { sql } from 'kysely';
import { toPersianDigits } from '../../../shared/digits';
import type { Principal } from '../../contract/handlers';
import { HttpError } from '../../http/errors';
import { msg } from '../../http/messages';
import { numericCode, randomToken, sha256 } from '../../lib/crypto';
import { lockedWalletBalance } from '../ledger';
import { replayOf, requireIdempotencyKey } from '../../http/idempotency';
import type { DB, Trx } from '../../db/database';
import {
  type LockedPurchase,
  lockPurchase,
  priceInquiry,
  purchaseTraceCode,
  repriceFromQuote,
  runRequestEvent,
} from '../requests';
import { eventAllowedFrom, requestEventOf, UNFULFILLED_STATES } from '../../../shared/request-lifecycle';
import { GatewayUnavailableError } from './payment-gateway';
import { type PayingCard, payingCard } from '../cards';

/** Thrown inside the payment's transaction to roll it back when the request's quote has expired. */
class QuoteExpired extends Error {
  constructor(readonly customerUserId: number) {
    super('quote expired');
  }
}

/** A payment's answer without the request or link itself, which a replay can read again. */
export type PayOutcome = Omit<PayResult, 'purchase'>;

/**
 * A claim with no answer this old was left by a process that stopped between its claim and the gateway's answer
 * (the gateway call times out in seconds): the same key may start over instead of waiting forever.
 */
const ABANDONED_CLAIM_SECONDS = 60;

export const abandoned = sql<boolean>`created_at < now() - make_interval(secs => ${ABANDONED_CLAIM_SECONDS})`;

/** Takes over an abandoned claim of this key for this request; null when the claim is alive or answered. */
export async function reclaimAbandoned(trx: Trx, userId: number, key: string, requestHash: string) {
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
 * Pays a request waiting for payment (see the contract's payPurchase): its customer pays, through the one path a
 * payment link's payer takes too (payAs).
 */
export async function pay(
  deps: PaymentDeps,
  principal: Principal,
  input: { purchase: number; quoteId?: string | undefined; card?: number | undefined },
  clientKey: string | undefined,
  siteUrl: string,
): Promise<{ data: PayResult; replayed: boolean }> {
  const idempotencyKey = requireIdempotencyKey(clientKey);
  const userId = principal.userId;
  const requestHash = sha256(
    JSON.stringify([input.purchase, input.quoteId ?? null, ...(input.card === undefined ? [] : [input.card])]),
  );
  return payAs(
    deps,
    {
      userId,
      uid: principal.uid,
      purchaseId: input.purchase,
      quotePrincipal: () => principal,
      description: msg('payment.description', { purchase: toPersianDigits(input.purchase) }),
      lock: async (trx) => {
        const purchase = await lockPurchase(trx, input.purchase, userId);
        if (!purchase) throw HttpError.of(404, 'purchase.notFound');
        if (ALREADY_PAID.includes(purchase.state)) throw HttpError.of(422, 'purchase.alreadyPaid');
        if (!eventAllowedFrom('paidFromWallet', purchase.state)) throw HttpError.of(422, 'purchase.notPayable');
        return purchase;
      },
    },
    input,
    { key: idempotencyKey, requestHash },
    siteUrl,
    {
      answer: async (outcome, db) => ({
        purchase: await purchaseOf(onDb(deps, db), input.purchase, userId),
        ...outcome,
      }),
      stored: () => storedAnswer(deps, userId, idempotencyKey, requestHash, input.purchase),
    },
  );
}

/** Paid and not finished failing: paying again is "already paid" rather than "not payable". */
const ALREADY_PAID: readonly string[] = [...UNFULFILLED_STATES, requestEventOf('done').to];

/**
 * Who pays a request, and what their path adds to the one way of paying: the request's customer (pay), or the payer
 * of its payment link (payment-links.ts, decision 028), whose accounts then hold the request's money.
 */
export interface PayingParty {
  /** Whose wallet pays, whose card a gateway payment takes, and whose key claims the payment. */
  userId: number;
  purchaseId: number;
  /** Locks the request (the first lock, as everywhere) and refuses what this party may not pay. */
  lock: (trx: Trx) => Promise<LockedPurchase>;
  /** The payment link paid through, when someone other than the customer pays. */
  linkId?: number;
  /** Whom a fresh quote is priced for when the request's own expired (given its customer): that customer. */
  quotePrincipal: (customerUserId: number) => Principal;
  /** The gateway's description of the payment. */
  description: string;
  /** The payer's uid when they pay their own request (their live events then need no read). */
  uid?: string;
}

/** What one way of paying leaves to its caller: its answer around the outcome, and an earlier answer under the key. */
export interface PayView<T extends PayOutcome> {
  /** Reads through `db`: the payment's own transaction when paid from the wallet (the answer commits with it). */
  answer: (outcome: PayOutcome, db: DB) => Promise<T>;
  stored: () => Promise<T | null>;
}

/** Where a payment went inside its transaction. */
type Step<T> =
  | { kind: 'replay' }
  | { kind: 'paid'; task: TaskOpened | null; data: T; known: KnownMoney | null }
  | {
      kind: 'gateway';
      proformaId: number;
      token: string;
      payable: number;
      walletPart: number;
      card: PayingCard | null;
    };

/**
 * The one way to pay a request, once per Idempotency-Key (claims in pay_requests, per paying user): the payer's
 * wallet when it covers the price (reserved and paid at once), otherwise an online payment for the rest with the
 * payer's card, which pays the request at settlement (receiving.ts). The wallet is locked while deciding, so parallel
 * payments spend it at most once; an expired quote answers 409 with a fresh quote (payAs's callers differ only in who
 * pays).
 */
export async function payAs<T extends PayOutcome>(
  deps: PaymentDeps,
  party: PayingParty,
  input: { quoteId?: string | undefined; card?: number | undefined },
  claim: { key: string; requestHash: string },
  siteUrl: string,
  view: PayView<T>,
): Promise<{ data: T; replayed: boolean }> {
  const { userId } = party;
  // No look for an earlier answer first: the claim below finds one (a replay), and a fresh payment, the usual one,
  // makes one round trip fewer.
  let step: Step<T>;
  try {
    step = await deps.db.transaction().execute(async (trx): Promise<Step<T>> => {
      const claimed =
        (await trx
          .insertInto('payRequests')
          .values({ userId, key: claim.key, requestHash: claim.requestHash, result: null })
          .onConflict((oc) => oc.columns(['userId', 'key']).doNothing())
          .returning('key')
          .executeTakeFirst()) ?? (await reclaimAbandoned(trx, userId, claim.key, claim.requestHash));
      if (!claimed) return { kind: 'replay' };
      let purchase = await party.lock(trx);
      // A card named is checked whatever pays: only the payer's own verified card (decision 024).
      const card = input.card === undefined ? null : await payingCard(trx, deps.cipher, userId, input.card);
      if (!purchase.quoteLive) {
        if (input.quoteId === undefined) throw new QuoteExpired(purchase.userId);
        purchase = await repriceFromQuote(trx, purchase, input.quoteId, deps.requests);
      }
      const traceCode = purchase.traceCode ?? numericCode(12);
      const wallet = await lockedWalletBalance(trx, userId);
      if (wallet >= purchase.expectedPrice) {
        const task = await reserveAndMarkPaid(trx, deps, purchase, traceCode, {
          cause: 'paidFromWallet',
          payablePrice: 0,
          actorUserId: userId,
          ...(party.linkId === undefined ? {} : { payerUserId: userId }),
          newTraceCode: !purchase.traceCode,
        });
        // The whole answer, read in this transaction, commits with the money: the key's row is written once more
        // only, and a replay answers exactly as this payment did (a crash after the commit included).
        const outcome: PayOutcome = { walletWithdrawAmount: purchase.expectedPrice, payable: 0, gatewayUrl: null };
        const data = await view.answer(outcome, trx);
        await storeResult(trx, userId, claim.key, data);
        // What the live events say is known here when the customer paid their own request: no read after.
        const known =
          party.uid === undefined || party.linkId !== undefined
            ? null
            : { uid: party.uid, balance: wallet - purchase.expectedPrice, state: requestEventOf('paidFromWallet').to };
        return { kind: 'paid', task, data, known };
      }
      await purchaseTraceCode(trx, purchase, traceCode);
      const payable = purchase.expectedPrice - wallet;
      // A gateway that reports no card holder takes the payment only from a card verified as the payer's.
      if (card === null && deps.gateway.requiresNamedCard) throw HttpError.of(422, 'card.required');
      const token = randomToken(24);
      const proforma = await trx
        .insertInto('onlineProformas')
        .values({
          userId,
          purchaseId: purchase.id,
          amount: payable,
          gateway: deps.gateway.name,
          callbackToken: token,
          userCardId: card?.id ?? null,
          ...(party.linkId === undefined ? {} : { paymentLinkId: party.linkId }),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { kind: 'gateway', proformaId: proforma.id, token, payable, walletPart: wallet, card };
    });
  } catch (error) {
    if (error instanceof QuoteExpired) {
      throw await refuseExpiredQuote(deps, party.quotePrincipal(error.customerUserId), party.purchaseId);
    }
    throw error;
  }

  if (step.kind === 'replay') {
    // The twin that won the claim answered, or is still on its way (409).
    const winner = await view.stored();
    if (!winner) throw HttpError.of(409, 'idempotency.inProgress');
    return { data: winner, replayed: true };
  }
  if (step.kind === 'paid') {
    // Open pages hear of it after the answer has gone: the customer does not wait for the fan-out.
    announceTask(deps, step.task);
    announceMoneyLater(deps, userId, party.purchaseId, step.known);
    return { data: step.data, replayed: false };
  }
  const created = await openGatewayPayment(deps, {
    userId,
    idempotencyKey: claim.key,
    step,
    siteUrl,
    description: party.description,
  });
  const data = await view.answer(
    { walletWithdrawAmount: step.walletPart, payable: step.payable, gatewayUrl: created.redirectUrl },
    deps.db,
  );
  await storeResult(deps.db, userId, claim.key, data);
  return { data, replayed: false };
}

/**
 * Opens the gateway's payment for a proforma the caller's transaction made (`step`), for whoever pays (`userId`: the
 * request's customer, or the payer of a payment link). The gateway is called outside any database transaction: it may
 * take seconds, and the sandbox bank answers from this same server (on the embedded database it would wait for our own
 * transaction). A refusal marks the proforma failed and frees the Idempotency-Key, so the same click may be retried.
 */
export async function openGatewayPayment(
  deps: PaymentDeps,
  opts: {
    userId: number;
    idempotencyKey: string;
    step: { payable: number; token: string; proformaId: number; card: PayingCard | null };
    siteUrl: string;
    description: string;
  },
): Promise<{ authority: string; redirectUrl: string }> {
  const { userId, idempotencyKey, step } = opts;
  const user = await deps.db
    .selectFrom('users')
    .select(['mobileNo', 'nationalCode'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  let created;
  try {
    created = await deps.gateway.createPayment({
      amount: step.payable,
      callbackUrl: `${opts.siteUrl}/api/public/payments/callback/${step.token}`,
      description: opts.description,
      payer: { mobileNo: user.mobileNo, nationalCode: user.nationalCode },
      ...(step.card ? { cardPan: step.card.cardNumber } : {}),
    });
  } catch (error) {
    deps.log.warn({ err: error, proforma: step.proformaId }, 'payment gateway refused a new payment');
    await deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('onlineProformas').set({ state: 'failed' }).where('id', '=', step.proformaId).execute();
      await trx.deleteFrom('payRequests').where('userId', '=', userId).where('key', '=', idempotencyKey).execute();
    });
    if (error instanceof GatewayUnavailableError) throw HttpError.of(503, 'payment.gatewayUnavailable');
    throw error;
  }
  await deps.db
    .updateTable('onlineProformas')
    .set({ authority: created.authority, state: 'pending' })
    .where('id', '=', step.proformaId)
    .execute();
  return created;
}

/** The stored answer of an earlier payment under the key (see http/idempotency.ts), or null to go ahead. */
export async function storedAnswer(
  deps: PaymentDeps,
  userId: number,
  key: string,
  requestHash: string,
  purchaseId: number,
): Promise<PayResult | null> {
  const row = await deps.db
    .selectFrom('payRequests')
    .select(['requestHash', 'result', abandoned.as('abandoned')])
    .where('userId', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
  // The first call with this key may still be on its way (at the gateway): the client retries in a moment.
  const stored = replayOf(
    row && {
      sameRequest: row.requestHash === requestHash,
      answer: row.result as (PayOutcome & { purchase?: Purchase }) | null,
      abandoned: row.abandoned,
    },
  );
  if (stored === null) return null;
  const result = stored;
  // Only the outcome was stored (the process stopped before the full answer): the request as it is now.
  return result.purchase ? (result as PayResult) : { ...result, purchase: await purchaseOf(deps, purchaseId, userId) };
}

/** Stores a payment's answer (or, inside its transaction, its outcome) under the payer's key. */
export async function storeResult(db: Trx | DB, userId: number, key: string, data: PayOutcome): Promise<void> {
  await db
    .updateTable('payRequests')
    .set({ result: JSON.stringify(data) })
    .where('userId', '=', userId)
    .where('key', '=', key)
    .execute();
}

/**
 * 409 with a fresh quote for the request's own inputs, priced for `principal` (its customer): paying again with its
 * quoteId re-prices the request.
 */
export async function refuseExpiredQuote(
  deps: PaymentDeps,
  principal: Principal,
  purchaseId: number,
): Promise<HttpError> {
  const row = await deps.db
    .selectFrom('purchases')
    .select(['desk', 'fields'])
    .where('id', '=', purchaseId)
    .executeTakeFirstOrThrow();
  const quote = await priceInquiry(deps.requests, row.desk, row.fields as Record<string, unknown>, principal);
  return new HttpError(409, msg('purchase.quoteExpired'), { quote });
}

/** Cancels the customer's own request before payment. A gateway payment still open for it credits the wallet if it is paid after all. */
export async function cancel(deps: PaymentDeps, principal: Principal, purchaseId: number): Promise<Purchase> {
  await deps.db.transaction().execute(async (trx) => {
    const purchase = await lockPurchase(trx, purchaseId, principal.userId);
    if (!purchase) throw HttpError.of(404, 'purchase.notFound');
    if (!eventAllowedFrom('cancelled', purchase.state)) throw HttpError.of(422, 'purchase.notCancellable');
    await runRequestEvent(trx, purchase, 'cancelled', {
      actorUserId: principal.userId,
      catalogue: deps.requests.catalogue,
    });
  });
  const purchase = await purchaseOf(deps, purchaseId, principal.userId);
  deps.live.purchaseChanged(principal.uid, { purchaseId, state: purchase.state });
  return purchase;
}
