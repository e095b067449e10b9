/**
 * Staff money pages: recording a deposit by hand (payOffline), the collections list, one customer's wallet and
 * any request's detail.
 */
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { fetchCustomerWallet, searchCollections, searchCustomerTransactions } from './collections';
import type { PaymentDeps } from './context';
import { payOffline } from './offline-deposit';
import { fetchStaffPurchase } from './purchase-views';

export function collectionHandlers(
  db: DB,
  payments: PaymentDeps,
  gateway: { name: string; title: string },
): Pick<
  Handlers,
  'payOffline' | 'searchCollections' | 'fetchCustomerWallet' | 'searchCustomerTransactions' | 'fetchStaffPurchase'
> {
  return {
    payOffline: async ({ body, principal }) =>
      ok(await payOffline(payments, principal!, body), msg('collection.recorded')),
    searchCollections: async ({ body }) => ok(await searchCollections(db, body ?? {}, gateway)),
    fetchCustomerWallet: async ({ body, principal }) => ok(await fetchCustomerWallet(db, principal!, body)),
    searchCustomerTransactions: async ({ body, principal }) =>
      ok(await searchCustomerTransactions(db, principal!, body)),
    fetchStaffPurchase: async ({ body }) => ok(await fetchStaffPurchase(payments, body.purchase)),
  };
}
