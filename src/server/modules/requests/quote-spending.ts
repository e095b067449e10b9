/**
 * Spending quotes: a submitted or re-priced request spends its quote once (its row in `quotes`, written when spent),
 * and a quote that cannot price a request says why (expired, spent, another currency, amount or payment method).
 */
import { type Kysely, sql } from 'kysely';
import type { DB as Database } from '../../../generated/db';
import { HttpError } from '../../http/errors';
import type { MessageKey } from '../../http/messages';
import type { LockedPurchase } from './purchase-state';
import type { RequestDeps } from './deps';
import { breakdownOf, type QuoteTerms } from './quote-token';
import { offeredByUs } from './offered-quote';

/** A quote as submission checks it: its terms, whether it still holds, and whether a request spent it. */
export interface CheckedQuote extends QuoteTerms {
  id: string;
  live: boolean;
  spentAt: Date | string | null;
}

/** The payment method group of a quote for a desk without one (a Google Ads recharge). */
export const NO_PAYMENT_METHOD_GROUP = 0;

/**
 * Re-prices a request whose quote expired from a fresh quote of the same customer for the same desk, currency,
 * amount and payment method group (refused with the same messages as a submission), and spends that quote.
 */
export async function repriceFromQuote(
  trx: Kysely<Database>,
  purchase: LockedPurchase,
  quoteId: string,
  requests: Pick<RequestDeps, 'db' | 'sources' | 'signer'>,
): Promise<LockedPurchase> {
  const previous = await trx
    .selectFrom('quotes')
    .select(['paymentMethodGroupId'])
    .where('id', '=', purchase.quoteId)
    .executeTakeFirstOrThrow();
  const signed = requests.signer.verify(quoteId, Number(purchase.userId), purchase.desk);
  // A signature is not enough: the terms must be ones this server offered (decision 031).
  const terms = signed && (await offeredByUs(requests, signed)) ? signed : null;
  const spent = terms
    ? await trx.selectFrom('quotes').select('spentAt').where('id', '=', quoteId).executeTakeFirst()
    : undefined;
  const quote: CheckedQuote | undefined = terms
    ? { id: quoteId, ...terms, live: terms.expiresAt > Date.now(), spentAt: spent ? (spent.spentAt ?? 'before') : null }
    : undefined;
  const refusal = quoteRefusal(quote, {
    currencyId: purchase.currencyId,
    amountMinor: purchase.amountMinor,
    paymentMethodGroupId: previous.paymentMethodGroupId ?? NO_PAYMENT_METHOD_GROUP,
  });
  if (!quote || refusal) throw HttpError.of(409, refusal ?? 'quote.mismatch');
  if (!(await spendQuote(trx, quote, Number(purchase.userId), purchase.desk))) throw HttpError.of(409, 'quote.spent');
  const { amountMinor: _amount, ...rest } = breakdownOf(quote);
  const price = { quoteId: quote.id, ...rest };
  await trx.updateTable('purchases').set(price).where('id', '=', purchase.id).execute();
  return { ...purchase, ...price, quoteLive: true };
}

/**
 * Why `quote` cannot make a request priced from these inputs, or null when it can: it must exist, be unspent
 * and live, and be for the same currency, amount and payment method group.
 */
export function quoteRefusal(
  quote: CheckedQuote | undefined,
  priced: { currencyId: number; amountMinor: number; paymentMethodGroupId: number },
): MessageKey | null {
  if (!quote) return 'quote.mismatch';
  if (quote.spentAt !== null) return 'quote.spent';
  if (!quote.live) return 'quote.expired';
  if (quote.currencyId !== priced.currencyId || quote.amountMinor !== priced.amountMinor) return 'quote.mismatch';
  if (quote.paymentMethodGroupId !== priced.paymentMethodGroupId) return 'quote.paymentMethodMismatch';
  return null;
}

/**
 * Writes the row of a quote a request spends (spent now); false when a request spent it first. The row keeps
 * the quote's terms for the request's later checks (its expiry when it is paid, its payment method group).
 */
export async function spendQuote(
  trx: Kysely<Database>,
  quote: CheckedQuote,
  userId: number,
  desk: string,
): Promise<boolean> {
  const written = await trx
    .insertInto('quotes')
    .values({
      id: quote.id,
      userId,
      desk,
      currencyId: quote.currencyId,
      paymentMethodGroupId: quote.paymentMethodGroupId === NO_PAYMENT_METHOD_GROUP ? null : quote.paymentMethodGroupId,
      ...breakdownOf(quote),
      expiresAt: new Date(quote.expiresAt),
      spentAt: sql<Date>`now()` as unknown as Date,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return written !== undefined;
}
