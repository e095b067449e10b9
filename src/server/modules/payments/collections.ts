/**
 * The staff's read side of money received: every collection (receipt) with filters, and one customer's wallet
 * (balance, reservation, transactions and the online payments still open) for staff or for that customer.
 */
import type { Kysely } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import type { Principal } from '../../contract/handlers';
import { HttpError } from '../../http/errors';
import { msg } from '../../http/messages';
import { type ListEnvelope, pageOf } from '../../lib/paging';
import { whereWithinDays, textOrId } from '../../lib/sql';
import { searchTransactions, userBalance } from '../ledger';
import { nameOrMobile } from '../../lib/person-names';
import { SANDBOX_GATEWAY } from './choose-gateway';

type Db = Kysely<Database>;
export type StaffCollection = components['schemas']['StaffCollection'];
export type CollectionSearch = components['schemas']['CollectionSearch'];
export type CustomerWallet = components['schemas']['CustomerWallet'];

/** The staff action that opens any customer's wallet. */
export const VIEW_CUSTOMERS = 'viewCustomers';

export async function searchCollections(
  db: Db,
  filter: CollectionSearch,
  gateway: { name: string; title: string },
): Promise<ListEnvelope<StaffCollection>> {
  let q = db
    .selectFrom('collections as c')
    .innerJoin('users as u', 'u.id', 'c.userId')
    .leftJoin('internalBankAccounts as b', 'b.id', 'c.internalBankAccountId')
    .leftJoin('users as r', 'r.id', 'c.recordedBy');
  if (filter.source) q = q.where('c.source', '=', filter.source);
  if (filter.userId !== undefined) q = q.where('c.userId', '=', filter.userId);
  q = whereWithinDays(q, 'c.createdAt', filter.from, filter.to);
  const term = filter.search?.trim();
  if (term) {
    q = q.where((eb) =>
      textOrId(eb, term, {
        text: [
          'u.firstName',
          'u.lastName',
          'u.mobileNo',
          'u.nationalCode',
          'c.trackingCode',
          'c.referenceId',
          'c.traceCode',
        ],
        ids: ['c.purchaseId', 'c.id'],
      }),
    );
  }
  const page = await pageOf(q, filter, (x) =>
    x
      .select([
        'c.id',
        'c.userId',
        'c.source',
        'c.amount',
        'c.purchaseId',
        'c.onlineProformaId',
        'c.gateway',
        'c.referenceId',
        'c.cardNo',
        'c.trackingCode',
        'c.sourceAccountNo',
        'c.refundedToCard',
        'c.traceCode',
        'c.createdAt',
        'u.firstName',
        'u.lastName',
        'u.mobileNo',
        'b.title as destinationTitle',
        'b.accountNo as destinationAccountNo',
        'r.firstName as recorderFirstName',
        'r.lastName as recorderLastName',
        'r.mobileNo as recorderMobileNo',
      ])
      .orderBy('c.createdAt', 'desc')
      .orderBy('c.id', 'desc'),
  );
  return {
    total: page.total,
    items: page.items.map((r) => {
      // Taken through the sandbox bank: no rial moved, whatever the ledger says (decision 023).
      const testMoney = r.source === 'online' && r.gateway === SANDBOX_GATEWAY;
      return {
        id: r.id,
        userId: r.userId,
        customerName: nameOrMobile(r),
        mobileNo: r.mobileNo,
        source: r.source as StaffCollection['source'],
        sourceTitle: testMoney ? msg('testInstance.collectionSource') : r.source === 'online' ? 'آنلاین' : 'دستی',
        amount: r.amount,
        purchaseId: r.purchaseId,
        onlineProformaId: r.onlineProformaId,
        channelTitle:
          r.source === 'online'
            ? r.gateway === gateway.name
              ? gateway.title
              : (r.gateway ?? '')
            : [r.destinationTitle, r.destinationAccountNo].filter(Boolean).join(' — ') || msg('payment.offline'),
        referenceId: r.referenceId,
        cardNo: r.cardNo,
        trackingCode: r.trackingCode,
        sourceAccountNo: r.sourceAccountNo,
        recordedByName:
          r.recorderFirstName === null && r.recorderLastName === null && r.recorderMobileNo === null
            ? null
            : nameOrMobile({
                firstName: r.recorderFirstName,
                lastName: r.recorderLastName,
                mobileNo: r.recorderMobileNo,
              }),
        refundedToCard: r.refundedToCard,
        testMoney,
        traceCode: r.traceCode,
        createdAt: new Date(r.createdAt).toISOString(),
      };
    }),
  };
}

/**
 * One customer's money: the customer themself, or staff holding viewCustomers. Anyone else is told it does not
 * exist (404), so an id says nothing about who is a customer. Staff also see the online payments still open, with
 * the token that settles one by hand (payOffline).
 */
/** The customer whose money `principal` may see (themself, or any customer for viewCustomers); 404 otherwise. */
async function visibleCustomer(db: Db, principal: Principal, userId: number) {
  const staff = principal.isStaff && principal.actions.has(VIEW_CUSTOMERS);
  if (!staff && principal.userId !== userId) throw HttpError.of(404, 'wallet.notFound');
  const user = await db
    .selectFrom('users')
    .select(['id', 'firstName', 'lastName', 'mobileNo', 'nationalCode', 'isStaff'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user || (user.isStaff && principal.userId !== user.id)) throw HttpError.of(404, 'wallet.notFound');
  return { user, staff };
}

/** One customer's transactions, newest first, for the same people as fetchCustomerWallet. */
export async function searchCustomerTransactions(
  db: Db,
  principal: Principal,
  input: { userId: number; page?: number | undefined; perPage?: number | undefined },
) {
  const { user } = await visibleCustomer(db, principal, input.userId);
  return searchTransactions(db, user.id, { page: input.page, perPage: input.perPage });
}

export async function fetchCustomerWallet(
  db: Db,
  principal: Principal,
  input: { userId: number; page?: number | undefined; perPage?: number | undefined },
): Promise<CustomerWallet> {
  const { user, staff } = await visibleCustomer(db, principal, input.userId);
  const [balances, transactions] = await Promise.all([
    userBalance(db, user.id),
    searchTransactions(db, user.id, { page: input.page, perPage: input.perPage }),
  ]);
  const open = staff
    ? await db
        .selectFrom('onlineProformas')
        .select(['id', 'callbackToken', 'amount', 'state', 'purchaseId', 'createdAt'])
        .where('userId', '=', user.id)
        .where('state', 'not in', ['settled', 'cardMismatch'])
        .orderBy('id', 'desc')
        .limit(50)
        .execute()
    : [];
  return {
    customer: { id: user.id, name: nameOrMobile(user), mobileNo: user.mobileNo, nationalCode: user.nationalCode },
    ...balances,
    transactions,
    openPayments: open.map((p) => ({
      onlineProformaId: p.id,
      token: p.callbackToken,
      amount: p.amount,
      state: p.state as CustomerWallet['openPayments'][number]['state'],
      purchaseId: p.purchaseId,
      createdAt: new Date(p.createdAt).toISOString(),
    })),
  };
}
