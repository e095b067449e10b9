/**
 * Rate alerts and the rate history's limits, shared by the server (which enforces them) and the web (which says
 * them): how many alerts a customer keeps, how long one lives, the longest history range, and when a rate meets an
 * alert's condition. Rates and thresholds are integer rial for one unit of the currency.
 */

export type RateAlertDirection = 'below' | 'above';

/** Alerts a customer may keep at once (expired ones do not count). */
export const MAX_RATE_ALERTS = 5;
/** An alert falls silent this many days after it was set. */
export const RATE_ALERT_DAYS = 90;
/** The longest range `searchRateHistory` answers. */
export const MAX_RATE_HISTORY_DAYS = 366;

const DAY_MS = 86_400_000;

/** The rate meets the alert's condition: at or under the threshold for `below`, at or over it for `above`. */
export function rateMeets(direction: RateAlertDirection, threshold: number, rate: number): boolean {
  return direction === 'below' ? rate <= threshold : rate >= threshold;
}

export function rateAlertExpiresAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + RATE_ALERT_DAYS * DAY_MS);
}

/** The condition as a person reads it after the amount: «… ریال یا کمتر». */
export const RATE_ALERT_CONDITION: Record<RateAlertDirection, string> = {
  below: 'یا کمتر',
  above: 'یا بیشتر',
};
