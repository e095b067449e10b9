/** Repository functions for currencies, payment method groups and system parameters. */
import { sql } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB } from '../../db/database';
import { likePattern } from '../../lib/sql';

export type Currency = components['schemas']['Currency'];
export type PaymentMethodGroup = components['schemas']['PaymentMethodGroup'];

export interface PageQuery {
  search?: string | undefined;
  page?: number | undefined;
  perPage?: number | undefined;
}

export async function searchCurrencies(
  db: DB,
  query: PageQuery & { useForUafCpr?: boolean | undefined; useForGoogleAdsAccountCr?: boolean | undefined },
): Promise<{ items: Currency[]; total: number }> {
  let q = db.selectFrom('currencies');
  if (query.search) {
    const pattern = likePattern(query.search);
    q = q.where((eb) => eb.or([eb('title', 'ilike', pattern), eb('code', 'ilike', pattern)]));
  }
  if (query.useForUafCpr !== undefined) q = q.where('useForUafCpr', '=', query.useForUafCpr);
  if (query.useForGoogleAdsAccountCr !== undefined) {
    q = q.where('useForGoogleAdsAccountCr', '=', query.useForGoogleAdsAccountCr);
  }
  const perPage = query.perPage ?? 50;
  const page = query.page ?? 1;
  const [rows, count] = await Promise.all([
    q
      .select(['id', 'title', 'code', 'rate', 'rateUpdatedAt', 'useForUafCpr', 'useForGoogleAdsAccountCr'])
      .orderBy('sortOrder')
      .orderBy('id')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((r) => ({ ...r, code: r.code.trim(), rateUpdatedAt: new Date(r.rateUpdatedAt).toISOString() })),
    total: count.total,
  };
}

export async function searchPaymentMethodGroups(
  db: DB,
  query: PageQuery,
): Promise<{ items: PaymentMethodGroup[]; total: number }> {
  let q = db.selectFrom('paymentMethodGroups');
  if (query.search) q = q.where('title', 'ilike', likePattern(query.search));
  const perPage = query.perPage ?? 50;
  const page = query.page ?? 1;
  const [items, count] = await Promise.all([
    q
      .select(['id', 'title', 'description', 'isCash'])
      .orderBy('sortOrder')
      .orderBy('id')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: count.total };
}

export async function fetchSystemParameters(db: DB, onlyPublic: boolean): Promise<Record<string, unknown>> {
  let q = db.selectFrom('systemParameters').select(['key', 'value']);
  if (onlyPublic) q = q.where('isPublic', '=', true);
  const rows = await q.orderBy('key').execute();
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}
