/**
 * Manual order completion (SPEC sections 1, 5): requests whose online payment reached the bank but never came back
 * confirmed, so the money may have arrived outside the gateway. Staff see them here with the token that settles one
 * by hand (payOffline); their count is waiting work on the staff home. Also the customer a plain deposit goes to,
 * looked up by mobile number before staff confirm it: their name and wallet balance.
 */
import type { Kysely } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import type { Handlers } from '../../contract/handlers';
import { HttpError, ok } from '../../http/errors';
import { type ListEnvelope, pageOf } from '../../lib/paging';
import { textOrId } from '../../lib/sql';
import { canonicalMobile } from '../../../shared/mobile';
import { userBalance } from '../ledger';
import { nameOrMobile } from '../../lib/person-names';

type Db = Kysely<Database>;
type OpenPayment = components['schemas']['OpenOnlinePayment'];
type DepositCustomer = components['schemas']['DepositCustomer'];

/** Sent to the bank, never confirmed, and the request still waits for its money. */
function unconfirmedPayments(db: Db) {
  return db
    .selectFrom('onlineProformas as p')
    .innerJoin('purchases as r', 'r.id', 'p.purchaseId')
    .innerJoin('users as u', 'u.id', 'p.userId')
    .where('p.state', '=', 'pending')
    .where('r.state', '=', 'waitingForPayment');
}

export async function countUnconfirmedPayments(db: Db): Promise<number> {
  const row = await unconfirmedPayments(db)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function searchUnconfirmedPayments(
  db: Db,
  filter: { search?: string | undefined; page?: number | undefined; perPage?: number | undefined },
  deskTitle: (desk: string) => string,
): Promise<ListEnvelope<OpenPayment>> {
  let q = unconfirmedPayments(db);
  const term = filter.search?.trim();
  if (term) {
    q = q.where((eb) =>
      textOrId(eb, term, { text: ['u.firstName', 'u.lastName', 'u.mobileNo', 'u.nationalCode'], ids: ['r.id'] }),
    );
  }
  const page = await pageOf(q, filter, (x) =>
    x
      .select([
        'p.id',
        'p.callbackToken',
        'p.amount',
        'p.createdAt',
        'r.id as purchaseId',
        'r.desk',
        'u.firstName',
        'u.lastName',
        'u.mobileNo',
      ])
      .orderBy('p.createdAt')
      .orderBy('p.id'),
  );
  return {
    total: page.total,
    items: page.items.map((r) => ({
      onlineProformaId: r.id,
      token: r.callbackToken,
      amount: r.amount,
      purchaseId: r.purchaseId,
      deskTitle: deskTitle(r.desk),
      customerName: nameOrMobile(r),
      mobileNo: r.mobileNo,
      createdAt: new Date(r.createdAt).toISOString(),
    })),
  };
}

/** The customer a plain deposit would go to (payOffline without a token), with their wallet balance; 404 if none. */
export async function findDepositCustomer(db: Db, mobile: string): Promise<DepositCustomer> {
  const mobileNo = canonicalMobile(mobile);
  if (!mobileNo) throw HttpError.of(422, 'collection.customerRequired');
  const user = await db
    .selectFrom('users')
    .select(['id', 'firstName', 'lastName', 'mobileNo'])
    .where('mobileNo', '=', mobileNo)
    .where('isStaff', '=', false)
    .executeTakeFirst();
  if (!user) throw HttpError.of(404, 'collection.customerNotFound');
  const { balance } = await userBalance(db, user.id);
  return { userId: user.id, name: nameOrMobile(user), mobileNo: user.mobileNo ?? mobileNo, balance };
}

export function manualCompletionHandlers(
  db: Db,
  deskTitle: (desk: string) => string,
): Pick<Handlers, 'searchUnconfirmedPayments' | 'findDepositCustomer'> {
  return {
    searchUnconfirmedPayments: async ({ body }) => ok(await searchUnconfirmedPayments(db, body ?? {}, deskTitle)),
    findDepositCustomer: async ({ body }) => ok(await findDepositCustomer(db, body.customerMobileNo)),
  };
}
