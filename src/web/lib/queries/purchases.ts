/**
 * One of the customer's requests with its state history and online payments (api/me/fetchPurchase), and how
 * many requests they have in each state (api/me/searchPurchases totals). purchase.changed refreshes both.
 */
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type Purchase = components['schemas']['Purchase'];
export type PurchaseDetail = components['schemas']['PurchaseDetail'];
export type PurchaseState = components['schemas']['PurchaseState'];

export const purchaseDetailQuery = (purchase: number) => ({
  queryKey: ['purchase', 'detail', purchase],
  queryFn: () => call<PurchaseDetail>(api.POST('/api/me/fetchPurchase', { body: { purchase } })),
});

export interface StateCount {
  state: PurchaseState;
  count: number;
}

/** The request states in their order, each with how many of the customer's requests are in it. */
export const purchaseCountsQuery = {
  queryKey: ['purchase', 'counts'],
  queryFn: async (): Promise<{ total: number; states: StateCount[] }> => {
    const states = await call<{ items: PurchaseState[] }>(api.POST('/api/sys/searchPurchaseStates'));
    const totals = await Promise.all(
      [undefined, ...states.items].map((s) =>
        call<{ total: number }>(
          api.POST('/api/me/searchPurchases', { body: { perPage: 1, ...(s ? { state: s.identifier } : {}) } }),
        ),
      ),
    );
    return {
      total: totals[0]?.total ?? 0,
      states: states.items.map((state, i) => ({ state, count: totals[i + 1]?.total ?? 0 })),
    };
  },
};

/** The request states with their Persian titles and colours, in their order. */
export const purchaseStatesQuery = {
  queryKey: ['purchase', 'states'],
  queryFn: () => call<{ items: PurchaseState[] }>(api.POST('/api/sys/searchPurchaseStates')),
  staleTime: Infinity,
};
