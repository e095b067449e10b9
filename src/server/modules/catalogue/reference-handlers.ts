/** Reference lists for staff screens: payment methods, third parties, bank accounts, services. */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import type { Database } from '../../db/schema';
import { ok } from '../../http/errors';
import type { Catalogue } from '../desks/catalogue';
import { type PageQuery, searchPaymentMethodGroups } from './store';
import { likePattern } from '../../lib/sql';

/** Pages a query that already has its where clauses; `select` picks the columns. */
async function page<T, TB extends keyof Database, O>(
  q: SelectQueryBuilder<Database, TB, O>,
  query: PageQuery,
  select: (q: SelectQueryBuilder<Database, TB, O>) => SelectQueryBuilder<Database, TB, T>,
) {
  const perPage = query.perPage ?? 50;
  const [items, count] = await Promise.all([
    select(q)
      .limit(perPage)
      .offset(((query.page ?? 1) - 1) * perPage)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: items as T[], total: (count as { total: number }).total };
}

export function referenceHandlers(
  db: DB,
  catalogue: Catalogue,
): Pick<
  Handlers,
  | 'searchThirdParties'
  | 'searchPaymentMethods'
  | 'searchServices'
  | 'searchInternalBankAccounts'
  | 'searchCurrencyBankAccounts'
  | 'sysSearchPaymentMethodGroups'
> {
  return {
    sysSearchPaymentMethodGroups: async ({ body }) => ok(await searchPaymentMethodGroups(db, body ?? {})),

    searchThirdParties: async ({ body }) => {
      const q = body?.search
        ? db.selectFrom('thirdParties').where('title', 'ilike', likePattern(body.search))
        : db.selectFrom('thirdParties');
      return ok(await page(q, body ?? {}, (x) => x.select(['id', 'title', 'website', 'country']).orderBy('id')));
    },

    searchPaymentMethods: async ({ body }) => {
      let q = db
        .selectFrom('paymentMethods')
        .innerJoin('paymentMethodGroups', 'paymentMethodGroups.id', 'paymentMethods.groupId');
      if (body?.search) q = q.where('paymentMethods.title', 'ilike', likePattern(body.search));
      return ok(
        await page(q, body ?? {}, (x) =>
          x
            .select([
              'paymentMethods.id',
              'paymentMethods.groupId',
              'paymentMethodGroups.title as groupTitle',
              'paymentMethods.title',
              'paymentMethods.isActive',
            ])
            .orderBy('paymentMethods.id'),
        ),
      );
    },

    searchInternalBankAccounts: async ({ body }) => {
      const q = body?.search
        ? db.selectFrom('internalBankAccounts').where('title', 'ilike', likePattern(body.search))
        : db.selectFrom('internalBankAccounts');
      return ok(
        await page(q, body ?? {}, (x) =>
          x.select(['id', 'title', 'bankName', 'accountNo', 'iban', 'isActive']).orderBy('id'),
        ),
      );
    },

    searchCurrencyBankAccounts: async ({ body }) => {
      let q = db
        .selectFrom('currencyBankAccounts')
        .innerJoin('currencies', 'currencies.id', 'currencyBankAccounts.currencyId');
      if (body?.search) q = q.where('currencyBankAccounts.title', 'ilike', likePattern(body.search));
      const result = await page(q, body ?? {}, (x) =>
        x
          .select([
            'currencyBankAccounts.id',
            'currencyBankAccounts.currencyId',
            'currencies.code as currencyCode',
            'currencyBankAccounts.title',
            'currencyBankAccounts.bankName',
            'currencyBankAccounts.accountNo',
            'currencyBankAccounts.swift',
            'currencyBankAccounts.isActive',
          ])
          .orderBy('currencyBankAccounts.id'),
      );
      return ok({ ...result, items: result.items.map((a) => ({ ...a, currencyCode: a.currencyCode.trim() })) });
    },

    searchServices: async ({ body }) => {
      const needle = body?.search?.trim() ?? '';
      const all = catalogue.desks
        .filter((d) => !needle || d.title.includes(needle) || d.identifier.toLowerCase().includes(needle.toLowerCase()))
        .map((d) => ({
          identifier: d.identifier,
          title: d.title,
          productCategory: d.productCategory,
          formType: d.formType,
          businessType: d.businessType,
          isCashService: d.isCashService,
        }));
      const perPage = body?.perPage ?? 50;
      const start = ((body?.page ?? 1) - 1) * perPage;
      return ok({ items: all.slice(start, start + perPage), total: all.length });
    },
  };
}
