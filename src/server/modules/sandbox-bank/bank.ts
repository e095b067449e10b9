/**
 * The sandbox bank's book of payments (table sandbox_bank_payments) and its rules, as ZarinPal applies them:
 * a payment is opened by the merchant, answered once by the payer (paid or cancelled) before it expires, and
 * verified by the merchant for the same amount (again and again: 101 after the first).
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { SandboxBankPayments } from '../../../generated/db';
import type { DB } from '../../db/database';

export type BankPayment = Selectable<SandboxBankPayments>;

/** A and 35 random digits (about 116 bits), the shape of ZarinPal's authorities. */
export function newAuthority(): string {
  const digits = BigInt(`0x${randomBytes(16).toString('hex')}`)
    .toString()
    .padStart(39, '0');
  return `A${digits.slice(-35)}`;
}

export const AUTHORITY = /^A\d{35}$/;

/** The card as banks report it: first 6 digits, ******, last 4. */
export const maskCard = (card: string) => `${card.slice(0, 6)}******${card.slice(-4)}`;

/** ZarinPal's card_hash: SHA-256 of the card number, upper-case hex. */
export const hashCard = (card: string) => createHash('sha256').update(card).digest('hex').toUpperCase();

export interface NewPayment {
  merchantId: string;
  amount: number;
  description: string;
  callbackUrl: string;
  payerMobile: string | null;
  payerNationalCode: string | null;
  /** SHA-256 of the card the merchant named (metadata.card_pan): the only card that may pay; null: any card. */
  requiredCardHash: string | null;
  /** That card, masked, for the page. */
  requiredCardMask: string | null;
}

export async function openPayment(db: DB, input: NewPayment, lifetimeSeconds: number): Promise<string> {
  const authority = newAuthority();
  await db
    .insertInto('sandboxBankPayments')
    .values({ authority, ...input, expiresAt: new Date(Date.now() + lifetimeSeconds * 1000) })
    .execute();
  return authority;
}

export async function findPayment(db: DB, authority: string): Promise<BankPayment | undefined> {
  if (!AUTHORITY.test(authority)) return undefined;
  return db.selectFrom('sandboxBankPayments').selectAll().where('authority', '=', authority).executeTakeFirst();
}

export const isExpired = (payment: BankPayment, now = new Date()) =>
  payment.state === 'new' && payment.expiresAt.getTime() <= now.getTime();

/**
 * The payer's answer: pays with the card (full number; only its mask and hash are kept) or cancels. Only a new,
 * unexpired payment takes an answer; returns whether this call was the one that answered it.
 */
export async function answerPayment(
  db: DB,
  authority: string,
  answer: { action: 'pay'; cardNo: string; holderNationalCode: string | null } | { action: 'cancel' },
): Promise<boolean> {
  const now = new Date();
  const update =
    answer.action === 'pay'
      ? {
          state: 'paid' as const,
          cardNo: maskCard(answer.cardNo),
          cardHash: hashCard(answer.cardNo),
          holderNationalCode: answer.holderNationalCode,
          // A bank reference: ten digits, not starting with 0 (ZarinPal's ref_id is a number).
          referenceId: String(randomInt(1_000_000_000, 10_000_000_000)),
          paidAt: now,
        }
      : { state: 'cancelled' as const };
  const result = await db
    .updateTable('sandboxBankPayments')
    .set(update)
    .where('authority', '=', authority)
    .where('state', '=', 'new')
    .where('expiresAt', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export type VerifyOutcome =
  { code: 100 | 101; payment: BankPayment } | { code: -50 | -51 | -54; payment: BankPayment | null };

/** The merchant asks what became of a payment, for the amount it asked: -54 not its payment, -50 another amount, -51 not paid. */
export async function verifyPayment(
  db: DB,
  input: { merchantId: string; authority: string; amount: number },
): Promise<VerifyOutcome> {
  const payment = await findPayment(db, input.authority);
  if (!payment || payment.merchantId.toLowerCase() !== input.merchantId.toLowerCase()) {
    return { code: -54, payment: null };
  }
  if (payment.amount !== input.amount) return { code: -50, payment };
  if (payment.state === 'verified') return { code: 101, payment };
  if (payment.state !== 'paid') return { code: -51, payment };
  const verified = await db
    .updateTable('sandboxBankPayments')
    .set({ state: 'verified', verifiedAt: new Date() })
    .where('authority', '=', payment.authority)
    .where('state', '=', 'paid')
    .returningAll()
    .executeTakeFirst();
  // Another verification took it first: this one is the repeat.
  if (!verified) return { code: 101, payment: (await findPayment(db, payment.authority)) ?? payment };
  return { code: 100, payment: verified };
}
