/** Public currency list with rial rates; refetched when a currency.updated event arrives. */
import { atomWithQuery } from 'jotai-tanstack-query';
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type Currency = components['schemas']['Currency'];

export const currenciesQueryKey = ['public', 'currencies'] as const;

export const currenciesAtom = atomWithQuery(() => ({
  queryKey: currenciesQueryKey,
  queryFn: () =>
    call<{ items: Currency[]; total: number }>(api.POST('/api/public/searchCurrencies', { body: { perPage: 100 } })),
}));
