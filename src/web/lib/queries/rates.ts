/**
 * A currency's rate history for the home page's chart (api/public/searchRateHistory) and the signed-in customer's
 * rate alerts (api/me/searchRateAlerts). A saved rate (currency.updated) refreshes the history; an alert firing
 * (notification.created) refreshes the alerts (lib/realtime.ts).
 */
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type RateHistory = components['schemas']['RateHistory'];
export type RateAlert = components['schemas']['RateAlert'];

/** The chart's ranges, in days. */
export const RATE_RANGES = [30, 90, 365] as const;
export type RateRange = (typeof RATE_RANGES)[number];

const DAY_MS = 86_400_000;

export const rateHistoryQuery = (code: string, days: RateRange) => ({
  queryKey: ['public', 'rateHistory', code, days],
  queryFn: async () => {
    const to = new Date();
    const from = new Date(to.getTime() - days * DAY_MS);
    const history = await call<RateHistory>(
      api.POST('/api/public/searchRateHistory', {
        body: { currency: code, from: from.toISOString(), to: to.toISOString() },
      }),
    );
    return { ...history, from: from.toISOString(), to: to.toISOString() };
  },
});

export const RATE_ALERTS_KEY = ['rateAlerts'];

export const rateAlertsQuery = {
  queryKey: RATE_ALERTS_KEY,
  queryFn: () => call<{ items: RateAlert[]; max: number }>(api.POST('/api/me/searchRateAlerts')),
};
