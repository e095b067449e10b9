/**
 * Customers' rate alerts (decision 029): «tell me when the dollar is at 950,000 rial or less». An alert remembers
 * whether the last saved rate met its condition (`beyond`); a rate save that takes it from not meeting to meeting is
 * a crossing and notifies the customer once (in the app and by SMS), in the save's transaction. While the rate stays
 * beyond nothing more is sent; when it comes back the alert re-arms. A paused alert follows the rate silently, so
 * resuming it does not report a crossing that happened while it was paused; an expired one is left alone.
 */
import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database, RateAlerts } from '../../../generated/db';
import {
  MAX_RATE_ALERTS,
  RATE_ALERT_CONDITION,
  RATE_ALERT_DAYS,
  type RateAlertDirection,
  rateAlertExpiresAt,
  rateMeets,
} from '../../../shared/rate-alerts';
import { HttpError } from '../../http/errors';
import { notify } from '../notifications';

type Db = Kysely<Database>;
type RateAlert = components['schemas']['RateAlert'];

const DAY_MS = 86_400_000;
/** Alerts created before this moment have expired. */
const expiryCutoff = (now: Date) => new Date(now.getTime() - RATE_ALERT_DAYS * DAY_MS);

type Row = Selectable<RateAlerts> & { currencyCode: string; currencyTitle: string };

function view(row: Row, now: Date): RateAlert {
  const createdAt = new Date(row.createdAt);
  const expiresAt = rateAlertExpiresAt(createdAt);
  return {
    id: Number(row.id),
    currencyId: row.currencyId,
    currencyCode: row.currencyCode.trim(),
    currencyTitle: row.currencyTitle,
    direction: row.direction as RateAlertDirection,
    threshold: Number(row.threshold),
    paused: row.paused,
    beyond: row.beyond,
    expired: expiresAt.getTime() <= now.getTime(),
    createdAt: createdAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
    lastFiredAt: row.lastFiredAt === null ? null : new Date(row.lastFiredAt).toISOString(),
    firedCount: Number(row.firedCount),
  };
}

const withCurrency = (db: Db) =>
  db
    .selectFrom('rateAlerts')
    .innerJoin('currencies', 'currencies.id', 'rateAlerts.currencyId')
    .selectAll('rateAlerts')
    .select(['currencies.code as currencyCode', 'currencies.title as currencyTitle']);

export async function searchRateAlerts(db: Db, userId: number, now: Date = new Date()) {
  const rows = await withCurrency(db)
    .where('rateAlerts.userId', '=', userId)
    .orderBy('rateAlerts.id', 'desc')
    .execute();
  return { items: rows.map((r) => view(r, now)), max: MAX_RATE_ALERTS };
}

export interface RateAlertInput {
  alertId?: number | undefined;
  currencyId: number;
  direction: RateAlertDirection;
  threshold: number;
  paused?: boolean | undefined;
}

/**
 * Sets a new alert or changes one of `userId`'s own. `beyond` starts from the current rate: an alert set (or moved)
 * where the rate already is fires only after the rate comes back and crosses anew.
 */
export async function saveRateAlert(db: Db, userId: number, input: RateAlertInput, now: Date = new Date()) {
  return db.transaction().execute(async (trx) => {
    // One customer's saves queue on their account row, so two at once cannot both pass the limit.
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    // Someone else's alert is not found, whatever else the body says.
    const before =
      input.alertId === undefined
        ? undefined
        : await trx
            .selectFrom('rateAlerts')
            .selectAll()
            .where('id', '=', input.alertId)
            .where('userId', '=', userId)
            .forUpdate()
            .executeTakeFirst();
    if (input.alertId !== undefined && !before) throw HttpError.of(404, 'rateAlert.notFound');
    const currency = await trx
      .selectFrom('currencies')
      .select(['id', 'rate'])
      .where('id', '=', input.currencyId)
      .executeTakeFirst();
    if (!currency) throw HttpError.of(404, 'currency.notFound');
    const beyond = rateMeets(input.direction, input.threshold, Number(currency.rate));
    let id: number;
    if (before) {
      const conditionChanged =
        before.currencyId !== input.currencyId ||
        before.direction !== input.direction ||
        Number(before.threshold) !== input.threshold;
      await trx
        .updateTable('rateAlerts')
        .set({
          currencyId: input.currencyId,
          direction: input.direction,
          threshold: input.threshold,
          paused: input.paused ?? before.paused,
          // Pausing or resuming keeps what the alert knows; a new condition starts from the rate of now.
          ...(conditionChanged ? { beyond } : {}),
        })
        .where('id', '=', before.id)
        .execute();
      id = Number(before.id);
    } else {
      const live = await trx
        .selectFrom('rateAlerts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('userId', '=', userId)
        .where('createdAt', '>', expiryCutoff(now))
        .executeTakeFirstOrThrow();
      if (Number(live.n) >= MAX_RATE_ALERTS) throw HttpError.of(422, 'rateAlert.tooMany', { max: MAX_RATE_ALERTS });
      const created = await trx
        .insertInto('rateAlerts')
        .values({
          userId,
          currencyId: input.currencyId,
          direction: input.direction,
          threshold: input.threshold,
          paused: input.paused ?? false,
          beyond,
          createdAt: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      id = Number(created.id);
    }
    const row = await withCurrency(trx).where('rateAlerts.id', '=', id).executeTakeFirstOrThrow();
    return view(row, now);
  });
}

export async function removeRateAlert(db: Db, userId: number, id: number): Promise<void> {
  const removed = await db
    .deleteFrom('rateAlerts')
    .where('id', '=', id)
    .where('userId', '=', userId)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw HttpError.of(404, 'rateAlert.notFound');
}

/**
 * After a currency's rate was saved as `rate` (history row `changeId`) in `trx`: notify each live alert the rate
 * has just crossed, and bring every alert's `beyond` up to date. The caller holds the currency row's lock, so saves
 * of one currency pass through here one at a time.
 */
export async function fireRateAlerts(
  trx: Db,
  currency: { id: number; title: string },
  rate: number,
  changeId: number,
  now: Date = new Date(),
): Promise<number> {
  const alerts = await trx
    .selectFrom('rateAlerts')
    .select(['id', 'userId', 'direction', 'threshold', 'paused', 'beyond'])
    .where('currencyId', '=', currency.id)
    .where('createdAt', '>', expiryCutoff(now))
    .forUpdate()
    .execute();
  let fired = 0;
  for (const alert of alerts) {
    const direction = alert.direction as RateAlertDirection;
    const meets = rateMeets(direction, Number(alert.threshold), rate);
    if (meets === alert.beyond) continue;
    const fires = meets && !alert.paused;
    await trx
      .updateTable('rateAlerts')
      .set({
        beyond: meets,
        ...(fires ? { lastFiredAt: now, firedCount: (eb) => eb('firedCount', '+', 1) } : {}),
      })
      .where('id', '=', alert.id)
      .execute();
    if (!fires) continue;
    await notify(
      trx,
      {
        userId: Number(alert.userId),
        kind: 'rateAlert',
        params: {
          currency: currency.title,
          rateAmount: rate,
          thresholdAmount: Number(alert.threshold),
          condition: RATE_ALERT_CONDITION[direction],
        },
        eventKey: `rate:${alert.id}:${changeId}`,
      },
      now,
    );
    fired += 1;
  }
  return fired;
}
