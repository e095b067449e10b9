/**
 * Whether the server itself could have offered a quote's terms (decision 031). A quote is a signed token that writes
 * nothing when given (decision 016), so a valid signature was all a submission checked; whoever held the signing
 * key could sign any rate. Independently of the key, a spent quote's terms must be ones the server offered:
 * its rate the currency's rate at some moment of the quote's life (now, or in `currency_rate_history` since the
 * quote was given), its fee, tax and operation cost those the current parameters give for that rate and amount, and
 * its expiry no later than a quote given now would have. A parameter changed while a quote was out voids that
 * quote: the customer is given a fresh one (409), as for an expired quote.
 */
import { type Kysely, sql } from 'kysely';
import type { DB as Database } from '../../../generated/db';
import { priceOf } from '../../../shared/pricing';
import type { Settings } from '../settings';
import type { RequestDeps } from './deps';
import type { QuoteTerms } from './quote-token';

/** Clocks of processes behind one proxy may differ this much (decision 016 asks for NTP). */
const CLOCK_SKEW_MS = 5_000;

export interface PricingNow {
  /** The currency's rate as this process holds it now (undefined: an unknown currency). */
  rate: number | undefined;
  settings: Pick<Settings, 'feePercent' | 'fixedFee' | 'taxPercentOnFee' | 'operationCost' | 'quoteLifetimeSeconds'>;
}

/** Whether `rate` was the currency's rate at some moment from `since` until now, by its rate history. */
async function rateHeldSince(db: Kysely<Database>, currencyId: number, rate: number, since: Date): Promise<boolean> {
  const row = await sql<{ held: boolean }>`
    select exists (
      select 1 from currency_rate_history h
       where h.currency_id = ${currencyId} and h.rate = ${rate}
         and h.changed_at >= coalesce(
           (select max(changed_at) from currency_rate_history
             where currency_id = ${currencyId} and changed_at <= ${since.toISOString()}::timestamptz),
           '-infinity'::timestamptz)
    ) as held`.execute(db);
  return row.rows[0]?.held === true;
}

export async function wasOffered(
  db: Kysely<Database>,
  terms: QuoteTerms,
  now: PricingNow,
  at: number = Date.now(),
): Promise<boolean> {
  const lifetimeMs = now.settings.quoteLifetimeSeconds * 1000;
  if (terms.expiresAt > at + lifetimeMs + CLOCK_SKEW_MS) return false;
  if (terms.amountMinor <= 0 || terms.rate <= 0) return false;
  let price;
  try {
    price = priceOf(terms.amountMinor, terms.rate, now.settings);
  } catch {
    return false;
  }
  if (price.fee !== terms.fee || price.tax !== terms.tax || price.operationCost !== terms.operationCost) return false;
  if (now.rate === terms.rate) return true;
  return rateHeldSince(db, terms.currencyId, terms.rate, new Date(terms.expiresAt - lifetimeMs - CLOCK_SKEW_MS));
}

/** Whether the server could have offered `terms`, from the rates and parameters it holds now. */
export async function offeredByUs(deps: Pick<RequestDeps, 'db' | 'sources'>, terms: QuoteTerms): Promise<boolean> {
  const [currency, settings] = await Promise.all([deps.sources.currency(terms.currencyId), deps.sources.parameters()]);
  return wasOffered(deps.db, terms, { rate: currency?.rate, settings });
}
