/** Reference lists for staff screens: payment methods, third parties, bank accounts, services. */
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { ok } from '../../http/errors';
import { pageOf, pageOfArray } from '../../lib/paging';
import { textContains, whereContains } from '../../lib/sql';
import type { Catalogue } from '../desks';
import { searchPaymentMethodGroups } from './store';

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
      const q = whereContains(db.selectFrom('thirdParties'), ['title'], body?.search);
      return ok(await pageOf(q, body ?? {}, (x) => x.select(['id', 'title', 'website', 'country']).orderBy('id')));
    },

    searchPaymentMethods: async ({ body }) => {
      const q = whereContains(
        db
          .selectFrom('paymentMethods')
          .innerJoin('paymentMethodGroups', 'paymentMethodGroups.id', 'paymentMethods.groupId'),
        ['paymentMethods.title'],
        body?.search,
      );
      return ok(
        await pageOf(q, body ?? {}, (x) =>
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
      const q = whereContains(db.selectFrom('internalBankAccounts'), ['title'], body?.search);
      return ok(
        await pageOf(q, body ?? {}, (x) =>
          x.select(['id', 'title', 'bankName', 'accountNo', 'iban', 'isActive']).orderBy('id'),
        ),
      );
    },

    searchCurrencyBankAccounts: async ({ body }) => {
      const q = whereContains(
        db
          .selectFrom('currencyBankAccounts')
          .innerJoin('currencies', 'currencies.id', 'currencyBankAccounts.currencyId'),
        ['currencyBankAccounts.title'],
        body?.search,
      );
      const result = await pageOf(q, body ?? {}, (x) =>
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
        .filter((d) => !needle || textContains([d.title, d.identifier], needle))
        .map((d) => ({
          identifier: d.identifier,
          title: d.title,
          productCategory: d.productCategory,
          formType: d.formType,
          businessType: d.businessType,
          isCashService: d.isCashService,
        }));
      return ok(pageOfArray(all, body ?? {}));
    },
  };
}
