/**
 * Requests as the lists and pages read them (the customer's and staff's): filtered and paged, with the desk's title,
 * the state, what the wallet pays and the fields titled by the form version they were validated against.
 */
import type { Kysely } from 'kysely';
import type { DB as Database } from '../../../generated/db';
import { viewOfFields } from '../../../shared/form-view';
import { payablePrice } from '../../../shared/pricing';
import { type RequestPromiseRow, requestPromiseText } from '../../../shared/deadline-promise';
import { type ListEnvelope, type PageQuery, pageOf } from '../../lib/paging';
import { nameOrMobile } from '../../lib/person-names';
import { whereContains } from '../../lib/sql';
import type { Purchase, RequestDeps } from './deps';
import { formVersionOf, type StoredForm } from './forms';

/** A request's fields as lists show them: without write-only secrets (the third-party password). */
function listedFields<T>(deps: Pick<RequestDeps, 'catalogue'>, fields: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !deps.catalogue.writeOnlyFields.has(name)));
}

/**
 * A request's fields as its pages show them, titled by the form version it was validated against (a request made
 * before versions were kept takes the desk's current form); the price inputs and staff-only fields are left out.
 */
function fieldsView(
  deps: Pick<RequestDeps, 'catalogue' | 'forms'>,
  deskIdentifier: string,
  stored: StoredForm | null,
  fields: Record<string, unknown>,
) {
  const current = deps.catalogue.deskForm(deskIdentifier);
  const form = stored ?? (current ? formVersionOf(deps, current).form : null);
  const omit = new Set([
    ...deps.catalogue.writeOnlyFields,
    ...(form?.priceInputs ?? ['currency', 'amount', 'requestedPaymentMethodGroup']),
    ...(form?.staffOnlyFields ?? []),
  ]);
  return viewOfFields(form?.schema, form?.uiSchema, fields, '', omit);
}

/** The tables a request is read with: its state, currency, customer, quote and the form version it was made with. */
export function purchasesQuery(db: Kysely<Database>) {
  return db
    .selectFrom('purchases')
    .innerJoin('purchaseStates', 'purchaseStates.identifier', 'purchases.state')
    .innerJoin('currencies', 'currencies.id', 'purchases.currencyId')
    .innerJoin('users', 'users.id', 'purchases.userId')
    .innerJoin('quotes', 'quotes.id', 'purchases.quoteId')
    .leftJoin('formVersions', 'formVersions.hash', 'purchases.formVersion');
}

/** The columns of `purchasesQuery` a request is shown from (`purchaseView`). */
export const PURCHASE_COLUMNS = [
  'purchases.id',
  'purchases.desk',
  'purchases.productCategory',
  'purchases.state',
  'purchaseStates.title as stateTitle',
  'purchaseStates.color as stateColor',
  'purchaseStates.stateIsFinal',
  'purchaseStates.stateIsFailure',
  'currencies.code as currencyCode',
  'currencies.title as currencyTitle',
  'purchases.amountMinor',
  'purchases.rate',
  'purchases.grossPrice',
  'purchases.totalCosts',
  'purchases.expectedPrice',
  'purchases.walletAmount',
  'purchases.payablePrice',
  'quotes.expiresAt as quoteExpiresAt',
  'purchases.fields',
  'formVersions.form as form',
  'purchases.createdAt',
  'purchases.deadlineAt',
  'purchases.promisePayBy',
  'purchases.promiseDoneBy',
  'purchases.promisedBy',
  'purchases.promiseCompensatedAt',
  'purchases.promiseCompensation',
  'purchases.userId',
  'users.firstName',
  'users.lastName',
  'users.mobileNo',
] as const;

const withPurchaseColumns = (q: ReturnType<typeof purchasesQuery>) => q.select(PURCHASE_COLUMNS);
/** A request's row as `purchaseView` takes it. */
export type PurchaseColumns = Awaited<ReturnType<ReturnType<typeof withPurchaseColumns>['executeTakeFirstOrThrow']>>;

export async function searchPurchases(
  deps: Pick<RequestDeps, 'db' | 'catalogue' | 'forms'>,
  filter: {
    userId?: number;
    ids?: number[];
    state?: string | undefined;
    desk?: string | undefined;
    search?: string | undefined;
  } & PageQuery,
): Promise<ListEnvelope<Purchase>> {
  let q = purchasesQuery(deps.db);
  if (filter.userId !== undefined) q = q.where('purchases.userId', '=', filter.userId);
  if (filter.ids) q = q.where('purchases.id', 'in', filter.ids);
  // One state, or several separated by commas (the staff home's «paid,inProgress»: paid and not yet fulfilled).
  if (filter.state) q = q.where('purchases.state', 'in', filter.state.split(','));
  if (filter.desk) q = q.where('purchases.desk', '=', filter.desk);
  if (filter.search) {
    const term = filter.search.trim();
    q = /^\d+$/.test(term) ? q.where('purchases.id', '=', Number(term)) : whereContains(q, ['purchases.desk'], term);
  }
  const { items: rows, total } = await pageOf(
    q,
    filter,
    (x) => withPurchaseColumns(x).orderBy('purchases.createdAt', 'desc').orderBy('purchases.id', 'desc'),
    // One request looked up by id (purchaseOf: every request page, every payment's answer) needs no count.
    filter.ids?.length,
  );
  // A request waiting for payment shows what the wallet would pay now; a paid one what was paid.
  const wallets = await walletsOf(
    deps.db,
    rows.filter((r) => r.state === 'waitingForPayment').map((r) => r.userId),
  );
  return { total, items: rows.map((r) => purchaseView(deps, r, wallets.get(r.userId) ?? 0)) };
}

/** A request as lists and pages show it, from its `PURCHASE_COLUMNS` and its customer's wallet balance. */
export function purchaseView(
  deps: Pick<RequestDeps, 'catalogue' | 'forms'>,
  r: PurchaseColumns,
  wallet: number,
): Purchase {
  return {
    id: r.id,
    desk: r.desk,
    deskTitle: deps.catalogue.deskForm(r.desk)?.desk.title ?? r.desk,
    productCategory: r.productCategory,
    state: r.state,
    stateTitle: r.stateTitle,
    stateColor: r.stateColor,
    stateIsFinal: r.stateIsFinal,
    stateIsFailure: r.stateIsFailure,
    currencyCode: r.currencyCode.trim(),
    currencyTitle: r.currencyTitle,
    amount: r.amountMinor / 100,
    rate: r.rate,
    grossPrice: r.grossPrice,
    totalCosts: r.totalCosts,
    expectedPrice: r.expectedPrice,
    ...(r.state === 'waitingForPayment'
      ? {
          walletAmount: Math.min(wallet, r.expectedPrice),
          payablePrice: payablePrice(r.expectedPrice, wallet),
        }
      : { walletAmount: r.walletAmount, payablePrice: r.payablePrice }),
    quoteExpiresAt: new Date(r.quoteExpiresAt).toISOString(),
    fields: listedFields(deps, r.fields as Purchase['fields']),
    fieldsView: fieldsView(deps, r.desk, r.form as StoredForm | null, r.fields as Record<string, unknown>),
    customerName: nameOrMobile(r),
    createdAt: new Date(r.createdAt).toISOString(),
    deadlineAt: r.deadlineAt === null ? null : new Date(r.deadlineAt).toISOString(),
    ...(r.promisePayBy !== null && r.promiseDoneBy !== null && { promise: promiseView(r) }),
  };
}

/** Wallet balances of `userIds` (missing accounts are empty wallets). */
async function walletsOf(db: Kysely<Database>, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('ledgerAccounts')
    .select(['userId', 'balance'])
    .where('kind', '=', 'wallet')
    .where('userId', 'in', [...new Set(userIds)])
    .execute();
  return new Map(rows.map((r) => [r.userId!, r.balance]));
}

const isoOrNull = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** A request's promise as the contract shows it (decision 041). */
function promiseView(r: RequestPromiseRow): NonNullable<Purchase['promise']> {
  return {
    payBy: new Date(r.promisePayBy!).toISOString(),
    doneBy: new Date(r.promiseDoneBy!).toISOString(),
    promisedBy: isoOrNull(r.promisedBy),
    compensatedAt: isoOrNull(r.promiseCompensatedAt),
    compensation: r.promiseCompensation === null ? null : Number(r.promiseCompensation),
    text: requestPromiseText(r) ?? '',
  };
}
