/** Public currency list with rial rates (api/public/searchCurrencies); refetched when a currency.updated event arrives. */
import { atomWithQuery } from 'jotai-tanstack-query';
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type Currency = components['schemas']['Currency'];

const currenciesQueryKey = ['public', 'currencies'] as const;

/** For useQuery (the form engine's currency select) and the atom below: one cache entry either way. */
export const currenciesQuery = {
  queryKey: currenciesQueryKey,
  queryFn: () =>
    call<{ items: Currency[]; total: number }>(api.POST('/api/public/searchCurrencies', { body: { perPage: 100 } })),
};

export const currenciesAtom = atomWithQuery(() => currenciesQuery);
