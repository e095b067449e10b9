/**
 * The rate history: each rate a currency is saved with becomes a row, in the transaction of the save, so the public
 * chart asks one indexed table instead of the audit log. `searchRateHistory` answers a range of at most a year.
 */
import type { Kysely } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import { MAX_RATE_HISTORY_DAYS } from '../../../shared/rate-alerts';
import { HttpError } from '../../http/errors';

type RateHistory = components['schemas']['RateHistory'];

const DAY_MS = 86_400_000;
/** More points than a year of saves every half hour; the contract's bound on the answer. */
const MAX_POINTS = 20_000;

export interface RateChange {
  currencyId: number;
  rate: number;
  changedBy: number | null;
}

/** Records a saved rate; returns its id, which names the change (a rate alert's crossing). */
export async function recordRate(trx: Kysely<Database>, change: RateChange, at: Date = new Date()): Promise<number> {
  const row = await trx
    .insertInto('currencyRateHistory')
    .values({ currencyId: change.currencyId, rate: change.rate, changedBy: change.changedBy, changedAt: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function searchRateHistory(
  db: Kysely<Database>,
  query: { currency: string; from: string; to: string },
): Promise<RateHistory> {
  const from = new Date(query.from);
  const to = new Date(query.to);
  if (!(from.getTime() < to.getTime())) throw HttpError.of(422, 'rateHistory.range.invalid');
  if (to.getTime() - from.getTime() > MAX_RATE_HISTORY_DAYS * DAY_MS)
    throw HttpError.of(422, 'rateHistory.range.tooLong');
  const currency = await db
    .selectFrom('currencies')
    .select(['id', 'code', 'title'])
    .where('code', '=', query.currency)
    .executeTakeFirst();
  if (!currency) throw HttpError.of(404, 'rateHistory.currency.notFound');
  const opening = await db
    .selectFrom('currencyRateHistory')
    .select(['rate', 'changedAt'])
    .where('currencyId', '=', currency.id)
    .where('changedAt', '<', from)
    .orderBy('changedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const points = await db
    .selectFrom('currencyRateHistory')
    .select(['rate', 'changedAt'])
    .where('currencyId', '=', currency.id)
    .where('changedAt', '>=', from)
    .where('changedAt', '<=', to)
    .orderBy('changedAt')
    .orderBy('id')
    .limit(MAX_POINTS)
    .execute();
  const point = (r: { rate: number; changedAt: Date | string }) => ({
    rate: Number(r.rate),
    at: new Date(r.changedAt).toISOString(),
  });
  return {
    code: currency.code.trim(),
    title: currency.title,
    openingRate: opening ? point(opening) : null,
    points: points.map(point),
  };
}
