/**
 * Receipts anyone can verify (decision 027). Each receipt — a collection (money received), or a finished request
 * with what was paid abroad for it — carries one random code (receipt_codes, 80 bits), made when the receipt comes
 * into being or, for one made before, the first time it is shown. `verifyReceipt` answers a code with what the
 * receipt states and nothing that identifies the customer: no mobile number, national code, card or internal id, the
 * payer's name masked.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import { HttpError } from '../../http/errors';
import { maskedName } from '../../lib/person-names';
import {
  RECEIPT_CODE_BYTES,
  encodeReceiptCode,
  formatReceiptCode,
  normalizeReceiptCode,
} from '../../../shared/receipt-code';
import { sameForeignReference } from '../../../shared/validation/foreign-reference';

type Db = Kysely<Database> | Transaction<Database>;
export type VerifiedReceipt = components['schemas']['VerifiedReceipt'];
type State = VerifiedReceipt['state'];

/** What a code belongs to: a collection's receipt or a finished request's. */
export type ReceiptSubject = { collectionId: number } | { purchaseId: number };

/**
 * The receipt's code in its printed form (groups of four), made once: concurrent callers for the same receipt all
 * get the one that was stored first (the unique subject column decides), and a clash of two random codes (2⁻⁸⁰)
 * only draws again.
 */
export async function receiptCodeOf(db: Db, subject: ReceiptSubject): Promise<string> {
  const existing = () =>
    'collectionId' in subject
      ? db.selectFrom('receiptCodes').select('code').where('collectionId', '=', subject.collectionId).executeTakeFirst()
      : db.selectFrom('receiptCodes').select('code').where('purchaseId', '=', subject.purchaseId).executeTakeFirst();
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const found = await existing();
    if (found) return formatReceiptCode(found.code);
    await db
      .insertInto('receiptCodes')
      .values({ code: encodeReceiptCode(randomBytes(RECEIPT_CODE_BYTES)), ...subject })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  throw new Error('no receipt code could be stored');
}

/** The absolute address of a code's verify page on PUBLIC_URL, or null (the web then uses its own origin). */
export function verificationUrlOf(publicUrl: string | undefined, code: string): string | null {
  return publicUrl ? `${publicUrl.replace(/\/+$/, '')}/verify/${code}` : null;
}

/**
 * The payer's name as a receipt's reader sees it, from the user who paid (a collection's paying user, a request's
 * payer — its customer or whoever paid through its link): the first letter of the first and the last name.
 */
export async function maskedPayerName(db: Db, payingUserId: number): Promise<string> {
  const user = await db
    .selectFrom('users')
    .select(['firstName', 'lastName'])
    .where('id', '=', payingUserId)
    .executeTakeFirst();
  return user ? maskedName(user) : '***';
}

/** A request's state in the words of a receipt's reader. */
export function stateOf(purchaseState: string): State {
  switch (purchaseState) {
    case 'purchaseSucceeded':
      return 'done';
    // A failed or invalidated request's money went back to the wallet (less fee and tax after a user error).
    case 'purchaseFailed':
    case 'purchaseInvalidated':
      return 'refunded';
    case 'waitingForPayment':
    case 'paid':
    case 'inProgress':
    case 'cancelled':
      return purchaseState;
    default:
      return 'paid';
  }
}

const iso = (at: Date | string) => new Date(at).toISOString();

/** The request a receipt names, as its reader sees it: service, foreign amount, state and its dates. */
async function requestFacts(db: Db, purchaseId: number, deskTitle: (desk: string) => string) {
  const p = await db
    .selectFrom('purchases as p')
    .innerJoin('currencies as cur', 'cur.id', 'p.currencyId')
    .select(['p.desk', 'p.amountMinor', 'cur.code as currencyCode', 'p.state', 'p.paidAt', 'p.userId', 'p.payerUserId'])
    .where('p.id', '=', purchaseId)
    .executeTakeFirstOrThrow();
  const change = await db
    .selectFrom('purchaseStateChanges')
    .select('createdAt')
    .where('purchaseId', '=', purchaseId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    service: deskTitle(p.desk),
    foreignAmount: p.amountMinor / 100,
    currencyCode: p.currencyCode.trim(),
    state: stateOf(p.state),
    paidAt: p.paidAt === null ? null : iso(p.paidAt),
    stateChangedAt: change ? iso(change.createdAt) : null,
    // Whoever paid: the requester, or the person who paid through the request's link (decision 028).
    payerUserId: p.payerUserId ?? p.userId,
  };
}

/** The receipt a typed code names, in its canonical form; 404 with the receipt's own message when there is none. */
async function receiptOf(db: Db, typedCode: string) {
  const code = normalizeReceiptCode(typedCode);
  const row = code
    ? await db
        .selectFrom('receiptCodes')
        .select(['collectionId', 'purchaseId'])
        .where('code', '=', code)
        .executeTakeFirst()
    : undefined;
  if (!code || !row) throw HttpError.of(404, 'receipt.verify.notFound');
  return { code, ...row };
}

/**
 * Whether the reference a reader holds is the one a request's receipt was paid under (compared like tracking codes),
 * with the request's state now; never the reference itself. A collection's receipt, or a request with no payment
 * abroad, has no reference: nothing matches it.
 */
export async function checkReceiptReference(
  db: Db,
  typedCode: string,
  typedReference: string,
): Promise<{ matches: boolean; state: State }> {
  const row = await receiptOf(db, typedCode);
  const purchaseId = row.purchaseId ?? null;
  const found =
    purchaseId === null
      ? undefined
      : await db
          .selectFrom('purchases as p')
          .leftJoin('currencyPayments as c', 'c.purchaseId', 'p.id')
          .select(['p.state', 'c.reference'])
          .where('p.id', '=', purchaseId)
          .executeTakeFirst();
  if (!found) {
    // A collection's receipt: its state as verifyReceipt tells it, and no reference to match.
    const receipt = await verifyReceipt(db, typedCode, (desk) => desk);
    return { matches: false, state: receipt.state };
  }
  return {
    matches: found.reference !== null && sameForeignReference(typedReference, found.reference),
    state: stateOf(found.state),
  };
}

/** What the receipt of `code` (as typed) states; 404 with the receipt's own message for an unknown or malformed code. */
export async function verifyReceipt(
  db: Db,
  typedCode: string,
  deskTitle: (desk: string) => string,
): Promise<VerifiedReceipt> {
  const { code, ...row } = await receiptOf(db, typedCode);
  const printed = formatReceiptCode(code);

  if (row.collectionId !== null) {
    const c = await db
      .selectFrom('collections')
      .select(['amount', 'purchaseId', 'refundedToCard', 'createdAt', 'userId'])
      .where('id', '=', row.collectionId)
      .executeTakeFirstOrThrow();
    const request = c.purchaseId === null ? null : await requestFacts(db, c.purchaseId, deskTitle);
    let state: State = request?.state ?? 'walletDeposit';
    // Someone else's card: the money went back to it and paid nothing.
    if (c.refundedToCard) state = 'returnedToCard';
    return {
      code: printed,
      kind: 'collection',
      service: request?.service ?? null,
      amount: c.amount,
      foreignAmount: request?.foreignAmount ?? null,
      currencyCode: request?.currencyCode ?? null,
      issuedAt: iso(c.createdAt),
      paidAt: request?.paidAt ?? null,
      state,
      stateChangedAt: request?.stateChangedAt ?? null,
      payerName: await maskedPayerName(db, c.userId),
    };
  }

  const purchaseId = row.purchaseId!;
  const request = await requestFacts(db, purchaseId, deskTitle);
  const paidAbroad = await db
    .selectFrom('currencyPayments as cp')
    .innerJoin('currencies as cur', 'cur.id', 'cp.currencyId')
    .select(['cp.amountMinor', 'cur.code as currencyCode', 'cp.realPrice', 'cp.createdAt'])
    .where('cp.purchaseId', '=', purchaseId)
    .executeTakeFirstOrThrow();
  return {
    code: printed,
    kind: 'request',
    service: request.service,
    amount: paidAbroad.realPrice,
    foreignAmount: paidAbroad.amountMinor / 100,
    currencyCode: paidAbroad.currencyCode.trim(),
    issuedAt: iso(paidAbroad.createdAt),
    paidAt: request.paidAt,
    state: request.state,
    stateChangedAt: request.stateChangedAt,
    payerName: await maskedPayerName(db, request.payerUserId),
  };
}
