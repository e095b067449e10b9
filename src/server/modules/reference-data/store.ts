/** Repository functions for currencies and payment method groups. */
import type { components } from '../../../generated/api';
import type { DB } from '../../db/database';
import { type ListEnvelope, type PageQuery as Paging, pageOf } from '../../lib/paging';
import { whereContains } from '../../lib/sql';

export type Currency = components['schemas']['Currency'];
export type PaymentMethodGroup = components['schemas']['PaymentMethodGroup'];

const CURRENCY_COLUMNS = [
  'id',
  'title',
  'code',
  'rate',
  'rateUpdatedAt',
  'useForUafCpr',
  'useForGoogleAdsAccountCr',
] as const;

const asCurrency = <R extends { code: string; rateUpdatedAt: Date | string }>(r: R) => ({
  ...r,
  code: r.code.trim(),
  rateUpdatedAt: new Date(r.rateUpdatedAt).toISOString(),
});

export interface PageQuery extends Paging {
  search?: string | undefined;
}

export async function searchCurrencies(
  db: DB,
  query: PageQuery & { useForUafCpr?: boolean | undefined; useForGoogleAdsAccountCr?: boolean | undefined },
): Promise<ListEnvelope<Currency>> {
  let q = whereContains(db.selectFrom('currencies'), ['title', 'code'], query.search);
  if (query.useForUafCpr !== undefined) q = q.where('useForUafCpr', '=', query.useForUafCpr);
  if (query.useForGoogleAdsAccountCr !== undefined) {
    q = q.where('useForGoogleAdsAccountCr', '=', query.useForGoogleAdsAccountCr);
  }
  const { items, total } = await pageOf(q, query, (x) => x.select(CURRENCY_COLUMNS).orderBy('sortOrder').orderBy('id'));
  return { items: items.map(asCurrency), total };
}

/** One currency as the API shows it (after a save, the row that is broadcast), in one query. */
export async function findCurrency(db: DB, id: number): Promise<Currency | undefined> {
  const row = await db.selectFrom('currencies').select(CURRENCY_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && asCurrency(row);
}

export async function searchPaymentMethodGroups(db: DB, query: PageQuery): Promise<ListEnvelope<PaymentMethodGroup>> {
  const q = whereContains(db.selectFrom('paymentMethodGroups'), ['title'], query.search);
  return pageOf(q, query, (x) => x.select(['id', 'title', 'description', 'isCash']).orderBy('sortOrder').orderBy('id'));
}
