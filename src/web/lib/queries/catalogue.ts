/** The desk catalogue as the server loaded it: adding a desk file shows up here without a rebuild. */
import { atomWithQuery } from 'jotai-tanstack-query';
import type { ProductCategories } from '../../../generated/schemas/categories';
import type { Desk } from '../../../generated/schemas/desk';
import type { FormType } from '../../../generated/schemas/form';
import { api, call } from '../api-client';

export type Category = ProductCategories['categories'][number];
export type { Desk, FormType };

export interface CatalogueData {
  categories: Category[];
  desks: Desk[];
  forms: FormType[];
}

export const catalogueAtom = atomWithQuery(() => ({
  queryKey: ['catalogue'],
  queryFn: async () => (await call<unknown>(api.POST('/api/public/fetchCatalogue'))) as CatalogueData,
  staleTime: 5 * 60_000,
}));

/** The categories shown in the service menu (googleAds is not). */
export const menuCategories = (data: CatalogueData | undefined) => data?.categories.filter((c) => c.menu) ?? [];

export const desksOf = (data: CatalogueData | undefined, category: string) =>
  data?.desks.filter((d) => d.productCategory === category) ?? [];
