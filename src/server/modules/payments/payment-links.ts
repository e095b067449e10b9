/**
 * Paying for someone else (decision 028): a customer makes a payment link for a request waiting for
 * payment; the first verified person who pays through it is its payer, pays from their own wallet or through the
 * gateway with their own card, and from then on the request's money is in their accounts (reservation, refunds).
 *
 * The token (192 random bits) is shown once and kept only as its SHA-256. What the payer sees is the service, the
 * price and the requester's masked name: never the request's form fields, nor the requester's wallet.
 *
 * Lock order, as in paying.ts: the request row, then the link row, then the ledger accounts.
 */
import { sql } from 'kysely';
import type { components } from '../../../generated/api';
import { firstNameAndInitial } from '../../../shared/masked-name';
import { PAID_STATES } from '../../../shared/request-lifecycle';
import { toPersianDigits } from '../../../shared/digits';
import type { Principal } from '../../contract/handlers';
import { HttpError } from '../../http/errors';
import { msg, type MessageKey } from '../../http/messages';
import { replayOf, requireIdempotencyKey } from '../../http/idempotency';
import { randomToken, sha256 } from '../../lib/crypto';
import { shownUserBalance } from '../ledger';
import { lockPurchase, priceInquiry } from '../requests';
import { onDb, type PaymentDeps } from './context';
import { abandoned, payAs, type PayOutcome } from './paying';
import { PAYER_LEVEL, rememberWaitingPayer } from './waiting-payers';
import type { Trx } from '../../db/database';

type CreatedPaymentLink = components['schemas']['CreatedPaymentLink'];
type OwnPaymentLink = components['schemas']['OwnPaymentLink'];
export type PaymentLinkView = components['schemas']['PaymentLinkView'];
type PaymentLinkPreview = components['schemas']['PaymentLinkPreview'];
type PaymentLinkPayResult = components['schemas']['PaymentLinkPayResult'];
type LinkState = PaymentLinkView['state'];

/** 24 bytes: 192 random bits, base64url (32 characters). */
const TOKEN_BYTES = 24;
/** Three days: a parent abroad or at work sees the message the next evening, with a day to spare. */
const DEFAULT_HOURS = 72;

const hashOf = (token: string) => sha256(token.trim());

/** Makes a new link for the customer's own request waiting for payment; an earlier live link of it is revoked. */
export async function createPaymentLink(
  deps: PaymentDeps,
  principal: Principal,
  input: { purchase: number; hours?: number | undefined },
): Promise<CreatedPaymentLink> {
  const hours = input.hours ?? DEFAULT_HOURS;
  return deps.db.transaction().execute(async (trx) => {
    const purchase = await lockPurchase(trx, input.purchase, principal.userId);
    if (!purchase) throw HttpError.of(404, 'purchase.notFound');
    if (purchase.state !== 'waitingForPayment') throw HttpError.of(422, 'paymentLink.notWaiting');
    await revokeLive(trx, purchase.id);
    const token = randomToken(TOKEN_BYTES);
    const expiresAt = new Date(Date.now() + hours * 3_600_000);
    await trx
      .insertInto('paymentLinks')
      .values({ purchaseId: purchase.id, createdBy: principal.userId, tokenHash: hashOf(token), expiresAt })
      .execute();
    return { token, path: `/pay/${token}`, expiresAt: expiresAt.toISOString() };
  });
}

async function revokeLive(trx: Trx, purchaseId: number): Promise<number> {
  const rows = await trx
    .updateTable('paymentLinks')
    .set({ revokedAt: sql<Date>`now()` as unknown as Date })
    .where('purchaseId', '=', purchaseId)
    .where('revokedAt', 'is', null)
    .where('paidAt', 'is', null)
    .returning('id')
    .execute();
  return rows.length;
}

/** Revokes the live link of the customer's own request; a payment already started through it credits its payer's wallet. */
export async function revokePaymentLink(
  deps: PaymentDeps,
  principal: Principal,
  purchaseId: number,
): Promise<OwnPaymentLink> {
  await deps.db.transaction().execute(async (trx) => {
    const purchase = await lockPurchase(trx, purchaseId, principal.userId);
    if (!purchase) throw HttpError.of(404, 'purchase.notFound');
    if ((await revokeLive(trx, purchase.id)) === 0) throw HttpError.of(422, 'paymentLink.none');
  });
  return (await ownPaymentLink(deps, purchaseId))!;
}

/** The request's latest link as its customer sees it (never the token); null when it has none. */
export async function ownPaymentLink(deps: PaymentDeps, purchaseId: number): Promise<OwnPaymentLink | null> {
  const link = await lastPaymentLinkQuery(deps.db, purchaseId).executeTakeFirst();
  return link ? ownPaymentLinkOf(link) : null;
}

/** A request's last payment link with its payer, as `ownPaymentLinkOf` reads it (also a subquery of the request page). */
export function lastPaymentLinkQuery(db: PaymentDeps['db'], purchaseId: number) {
  return db
    .selectFrom('paymentLinks as l')
    .leftJoin('users as u', 'u.id', 'l.payerUserId')
    .select(['l.expiresAt', 'l.revokedAt', 'l.paidAt', 'u.firstName', 'u.lastName'])
    .where('l.purchaseId', '=', purchaseId)
    .orderBy('l.id', 'desc')
    .limit(1);
}

export function ownPaymentLinkOf(link: {
  expiresAt: Date | string;
  revokedAt: Date | string | null;
  paidAt: Date | string | null;
  firstName: string | null;
  lastName: string | null;
}): OwnPaymentLink {
  return {
    expiresAt: new Date(link.expiresAt).toISOString(),
    revoked: link.revokedAt !== null,
    expired: new Date(link.expiresAt).getTime() <= Date.now(),
    payerName: link.paidAt === null ? null : firstNameAndInitial(link.firstName, link.lastName),
    paidAt: link.paidAt === null ? null : new Date(link.paidAt).toISOString(),
  };
}

interface LinkRow {
  id: number;
  purchaseId: number;
  createdBy: number;
  expiresAt: Date;
  revokedAt: Date | null;
  payerUserId: number | null;
}

async function findLink(deps: PaymentDeps, token: string): Promise<LinkRow> {
  const link = await deps.db
    .selectFrom('paymentLinks')
    .select(['id', 'purchaseId', 'createdBy', 'expiresAt', 'revokedAt', 'payerUserId'])
    .where('tokenHash', '=', hashOf(token))
    .executeTakeFirst();
  if (!link) throw HttpError.of(404, 'paymentLink.notFound');
  return link;
}

/** Where a link stands for `viewer`: whether it can be paid, or why not. */
function linkState(
  link: LinkRow,
  purchase: { state: string; payerUserId: number | null },
  viewer: number,
  now = Date.now(),
): LinkState {
  if ((PAID_STATES as readonly string[]).includes(purchase.state))
    return purchase.payerUserId === viewer ? 'paidByYou' : 'paid';
  if (purchase.state === 'cancelled') return 'cancelled';
  if (link.revokedAt !== null) return 'revoked';
  if (new Date(link.expiresAt).getTime() <= now) return 'expired';
  if (purchase.state !== 'waitingForPayment') return 'notPayable';
  return 'open';
}

const STATE_MESSAGES: Record<Exclude<LinkState, 'open'>, MessageKey> = {
  paidByYou: 'paymentLink.state.paidByYou',
  paid: 'paymentLink.state.paid',
  cancelled: 'paymentLink.state.cancelled',
  expired: 'paymentLink.state.expired',
  revoked: 'paymentLink.state.revoked',
  notPayable: 'paymentLink.state.notPayable',
};

/**
 * The link as its payer sees it. Only the service, the price with its breakdown, the expiry and the requester's
 * masked name; when the request's quote has expired the price is a fresh quote of the same inputs (its quoteId is
 * what payPaymentLink pays with), and never the requester's wallet.
 */
export async function fetchPaymentLink(
  deps: PaymentDeps,
  principal: Principal,
  token: string,
): Promise<PaymentLinkView> {
  const link = await findLink(deps, token);
  const view = await linkView(deps, principal, link);
  // A payer who cannot pay yet is told when staff approve them (waiting-payers.ts).
  if (view.state === 'open' && !view.ownLink) await rememberWaitingPayer(deps.db, link.id, principal.userId);
  return view;
}

/**
 * The link as anyone holding it sees it before logging in: the service, the amount, the price, the expiry and the
 * requester's first name and initial (the payer's own wallet and state come after log-in).
 */
export async function previewPaymentLink(deps: PaymentDeps, token: string): Promise<PaymentLinkPreview> {
  const link = await findLink(deps, token);
  const view = await linkView(deps, null, link);
  const state = view.state === 'paidByYou' ? 'paid' : view.state;
  return {
    state,
    message: state === 'open' ? null : msg(STATE_MESSAGES[state]),
    deskTitle: view.deskTitle,
    currencyCode: view.currencyCode,
    amount: view.amount,
    expectedPrice: view.expectedPrice,
    expiresAt: view.expiresAt,
    requesterName: view.requesterName,
  };
}

async function linkView(deps: PaymentDeps, principal: Principal | null, link: LinkRow): Promise<PaymentLinkView> {
  const row = await deps.db
    .selectFrom('purchases as p')
    .innerJoin('quotes as q', 'q.id', 'p.quoteId')
    .innerJoin('currencies as c', 'c.id', 'p.currencyId')
    .innerJoin('users as u', 'u.id', 'p.userId')
    .select([
      'p.id',
      'p.userId',
      'p.desk',
      'p.fields',
      'p.state',
      'p.payerUserId',
      'p.amountMinor',
      'p.grossPrice',
      'p.totalCosts',
      'p.expectedPrice',
      'c.code as currencyCode',
      'u.firstName',
      'u.lastName',
      sql<boolean>`q.expires_at > now()`.as('quoteLive'),
    ])
    .where('p.id', '=', link.purchaseId)
    .executeTakeFirstOrThrow();
  const state = linkState(link, row, principal?.userId ?? 0);
  let price = { grossPrice: row.grossPrice, totalCosts: row.totalCosts, expectedPrice: row.expectedPrice };
  let quoteId: string | null = null;
  if (state === 'open' && !row.quoteLive) {
    // Priced for the request's customer (a quote is signed for them and their desk); only the price is passed on.
    const quote = await priceInquiry(
      deps.requests,
      row.desk,
      row.fields as Record<string, unknown>,
      requesterPrincipal(row.userId),
    );
    price = { grossPrice: quote.grossPrice, totalCosts: quote.totalCosts, expectedPrice: quote.expectedPrice };
    quoteId = quote.quoteId;
  }
  return {
    state,
    message: state === 'open' ? null : msg(STATE_MESSAGES[state]),
    deskTitle: deps.requests.catalogue.deskForm(row.desk)?.desk.title ?? row.desk,
    currencyCode: row.currencyCode.trim(),
    amount: row.amountMinor / 100,
    ...price,
    expiresAt: new Date(link.expiresAt).toISOString(),
    requesterName: firstNameAndInitial(row.firstName, row.lastName),
    walletBalance: principal ? (await shownUserBalance(deps.db, principal.userId)).balance : 0,
    quoteId,
    ownLink: principal !== null && link.createdBy === principal.userId,
  };
}

/** Only to price a quote for the request's customer: no access rides on it. */
function requesterPrincipal(userId: number): Principal {
  return { userId, uid: '', isStaff: false, actions: new Set(), tokenId: 0 };
}

/**
 * Pays someone else's request through its link (see the contract's payPaymentLink): the one way of paying
 * (paying.ts payAs) with the payer paying — from their wallet, or online with their own card, and the request's money
 * in their accounts from then on. The first payer to get here claims the link; no one else may pay through it.
 */
export async function payPaymentLink(
  deps: PaymentDeps,
  principal: Principal,
  input: { token: string; quoteId?: string | undefined; card?: number | undefined },
  clientKey: string | undefined,
  siteUrl: string,
): Promise<PaymentLinkPayResult> {
  const idempotencyKey = requireIdempotencyKey(clientKey);
  const payer = principal.userId;
  const link = await findLink(deps, input.token);
  const requestHash = sha256(
    JSON.stringify(['link', link.id, input.quoteId ?? null, ...(input.card === undefined ? [] : [input.card])]),
  );
  const paid = await payAs(
    deps,
    {
      userId: payer,
      purchaseId: link.purchaseId,
      linkId: link.id,
      // A fresh quote is signed for the request's customer and their desk; only its price reaches the payer.
      quotePrincipal: requesterPrincipal,
      description: msg('paymentLink.description', { purchase: toPersianDigits(link.purchaseId) }),
      lock: async (trx) => {
        const purchase = await lockPurchase(trx, link.purchaseId);
        if (!purchase) throw HttpError.of(404, 'paymentLink.notFound');
        await claimLink(trx, link.id, purchase, payer);
        return purchase;
      },
    },
    input,
    { key: idempotencyKey, requestHash },
    siteUrl,
    {
      answer: async (outcome, db) => ({ link: await linkView(onDb(deps, db), principal, link), ...outcome }),
      stored: () => storedLinkAnswer(deps, principal, link, idempotencyKey, requestHash),
    },
  );
  return paid.data;
}

/**
 * Refuses a payer the link is not for (its own requester, a link not open, another payer's, a payer without a
 * verified profile) and claims it for this payer; holds the link row until the transaction ends.
 */
async function claimLink(
  trx: Trx,
  linkId: number,
  purchase: { state: string; userId: number; payerUserId: number | null },
  payer: number,
) {
  const locked = await trx
    .selectFrom('paymentLinks')
    .select(['id', 'purchaseId', 'createdBy', 'expiresAt', 'revokedAt', 'payerUserId'])
    .where('id', '=', linkId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (locked.createdBy === payer || purchase.userId === payer) throw HttpError.of(422, 'paymentLink.ownLink');
  const state = linkState(locked, purchase, payer);
  if (state !== 'open') throw HttpError.of(422, STATE_MESSAGES[state]);
  if (locked.payerUserId !== null && locked.payerUserId !== payer) throw HttpError.of(422, 'paymentLink.otherPayer');
  const user = await trx.selectFrom('users').select('approvedLevel').where('id', '=', payer).executeTakeFirstOrThrow();
  if (user.approvedLevel < PAYER_LEVEL) throw HttpError.of(403, 'paymentLink.profileRequired');
  // Claimed before the card and the price are checked: a refusal of either rolls the claim back with the payment.
  if (locked.payerUserId === null) {
    await trx.updateTable('paymentLinks').set({ payerUserId: payer }).where('id', '=', linkId).execute();
  }
}

/** An earlier answer under the key (see http/idempotency.ts), with the link as it stands now; null to go ahead. */
async function storedLinkAnswer(
  deps: PaymentDeps,
  principal: Principal,
  link: LinkRow,
  key: string,
  requestHash: string,
): Promise<PaymentLinkPayResult | null> {
  const row = await deps.db
    .selectFrom('payRequests')
    .select(['requestHash', 'result', abandoned.as('abandoned')])
    .where('userId', '=', principal.userId)
    .where('key', '=', key)
    .executeTakeFirst();
  const stored = replayOf(
    row && {
      sameRequest: row.requestHash === requestHash,
      answer: row.result as (PayOutcome & { link?: PaymentLinkView }) | null,
      abandoned: row.abandoned,
    },
  );
  if (stored === null) return null;
  const { walletWithdrawAmount, payable, gatewayUrl } = stored;
  return { link: await linkView(deps, principal, link), walletWithdrawAmount, payable, gatewayUrl };
}
