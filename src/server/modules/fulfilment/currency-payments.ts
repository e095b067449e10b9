/**
 * The staff's read side of fulfilment: every currency payment recorded when a request was done (currency_payments),
 * newest first, with the request's customer, for the /management/currencyPayments page.
 */
import type { Kysely } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import { type ListEnvelope, pageOf } from '../../lib/paging';
import { textOrId, whereWithinDays } from '../../lib/sql';
import { nameOrMobile } from '../../lib/person-names';

type Db = Kysely<Database>;
export type StaffCurrencyPayment = components['schemas']['StaffCurrencyPayment'];
export type CurrencyPaymentSearch = components['schemas']['CurrencyPaymentSearch'];
type CurrencyPaymentDto = components['schemas']['CurrencyPayment'];

/**
 * Search: the customer's name, mobile number and national code, the payment's reference and the currency code
 * (escaped, case-insensitive); a number also finds the request or the payment by id. A date range (UTC days, both
 * included).
 */
/**
 * Currency payments joined with what each view of them names: the request and its customer, the currency, the
 * third party, the payment method and the staff member who recorded it.
 */
function currencyPaymentsQuery(db: Db) {
  return db
    .selectFrom('currencyPayments as c')
    .innerJoin('purchases as p', 'p.id', 'c.purchaseId')
    .innerJoin('users as u', 'u.id', 'p.userId')
    .innerJoin('currencies as cur', 'cur.id', 'c.currencyId')
    .innerJoin('users as s', 's.id', 'c.staffUserId')
    .leftJoin('thirdParties as t', 't.id', 'c.thirdPartyId')
    .leftJoin('paymentMethods as m', 'm.id', 'c.paymentMethodId');
}

const COLUMNS = [
  'c.id',
  'c.purchaseId',
  'p.userId',
  'u.firstName',
  'u.lastName',
  'u.mobileNo',
  'cur.code as currencyCode',
  'c.amountMinor',
  't.title as thirdPartyTitle',
  'm.title as paymentMethodTitle',
  'c.reference',
  'c.receiptPath',
  'c.realPrice',
  's.firstName as staffFirstName',
  's.lastName as staffLastName',
  's.mobileNo as staffMobileNo',
  'c.createdAt',
] as const;

/** What toCurrencyPayment reads of a row of COLUMNS. */
interface CurrencyPaymentRow {
  id: number;
  purchaseId: number;
  currencyCode: string;
  amountMinor: number;
  thirdPartyTitle: string | null;
  paymentMethodTitle: string | null;
  reference: string;
  receiptPath: string | null;
  realPrice: number;
  staffFirstName: string | null;
  staffLastName: string | null;
  staffMobileNo: string | null;
  createdAt: Date | string;
}

/** One currency payment as staff see it: what was paid abroad, how, its reference and receipt, and who recorded it. */
function toCurrencyPayment(r: CurrencyPaymentRow): CurrencyPaymentDto {
  return {
    id: r.id,
    purchaseId: r.purchaseId,
    currencyCode: r.currencyCode.trim(),
    foreignAmount: r.amountMinor / 100,
    thirdPartyTitle: r.thirdPartyTitle,
    paymentMethodTitle: r.paymentMethodTitle,
    reference: r.reference,
    receiptFile: r.receiptPath,
    realPrice: r.realPrice,
    staffName: nameOrMobile({ firstName: r.staffFirstName, lastName: r.staffLastName, mobileNo: r.staffMobileNo }),
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

export async function searchCurrencyPayments(
  db: Db,
  filter: CurrencyPaymentSearch,
): Promise<ListEnvelope<StaffCurrencyPayment>> {
  let q = currencyPaymentsQuery(db);
  q = whereWithinDays(q, 'c.createdAt', filter.from, filter.to);
  const term = filter.search?.trim();
  if (term) {
    q = q.where((eb) =>
      textOrId(eb, term, {
        text: ['u.firstName', 'u.lastName', 'u.mobileNo', 'u.nationalCode', 'c.reference', 'cur.code'],
        ids: ['c.purchaseId', 'c.id'],
      }),
    );
  }
  const page = await pageOf(q, filter, (x) => x.select(COLUMNS).orderBy('c.createdAt', 'desc').orderBy('c.id', 'desc'));
  return {
    total: page.total,
    items: page.items.map((r) => ({
      ...toCurrencyPayment(r),
      userId: r.userId,
      customerName: nameOrMobile(r),
      mobileNo: r.mobileNo,
    })),
  };
}

/** The currency payment recorded for one request (its task's view), or null while it has none. */
export async function currencyPaymentOf(db: Db, purchaseId: number): Promise<CurrencyPaymentDto | null> {
  const row = await currencyPaymentsQuery(db).select(COLUMNS).where('c.purchaseId', '=', purchaseId).executeTakeFirst();
  return row ? toCurrencyPayment(row) : null;
}

/** The receipt's verification code is added by payments, which owns receipt codes. */
export type CustomerCurrencyPayment = Omit<
  components['schemas']['CustomerCurrencyPayment'],
  'verificationCode' | 'verificationUrl'
>;

/**
 * The currency payment made for one request, as its customer sees it: what was paid abroad, its reference, the real
 * price and what came back to the wallet (the expected price less the real price), and the receipt image through
 * `receiptUrl` (a signed address; the image is the staff member's upload, shown only with the request). Null
 * while the request has none.
 */
/** The row `toCustomerCurrencyPayment` reads, as a query (or a subquery of the request page's one query). */
export function customerCurrencyPaymentQuery(db: Db, purchaseId: number) {
  return db
    .selectFrom('currencyPayments as c')
    .innerJoin('purchases as p', 'p.id', 'c.purchaseId')
    .innerJoin('currencies as cur', 'cur.id', 'c.currencyId')
    .select([
      'cur.code as currencyCode',
      'cur.title as currencyTitle',
      'c.amountMinor',
      'c.reference',
      'c.realPrice',
      'p.expectedPrice',
      'c.receiptPath',
      'c.receiptSha256',
      'c.createdAt',
    ])
    .where('c.purchaseId', '=', purchaseId);
}

export function toCustomerCurrencyPayment(
  row: {
    currencyCode: string;
    currencyTitle: string;
    amountMinor: number;
    reference: string;
    realPrice: number;
    expectedPrice: number;
    receiptPath: string | null;
    receiptSha256: string | null;
    createdAt: Date | string;
  },
  receiptUrl: (path: string) => string,
): CustomerCurrencyPayment {
  return {
    currencyCode: row.currencyCode.trim(),
    currencyTitle: row.currencyTitle,
    foreignAmount: row.amountMinor / 100,
    reference: row.reference,
    realPrice: row.realPrice,
    returnedAmount: Math.max(0, row.expectedPrice - row.realPrice),
    receiptUrl: row.receiptPath === null ? null : receiptUrl(row.receiptPath),
    receiptSha256: row.receiptSha256,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
