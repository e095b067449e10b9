/**
 * Customers ask for Google Ads accounts (decision 018): createAccountRequest checks the googleAds terms, a Google Ads
 * currency and the e-mail lists, and opens a makeGoogleAdsAccountTask; staff search the requests.
 */
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { type ListEnvelope, type PageQuery, pageOf } from '../../lib/paging';
import { nameOrMobile } from '../../lib/person-names';
import { openGoogleAdsAccountRequestTask } from '../tasks';
import { type Db, type GoogleAdsAccountRequestDto, iso } from './common';

/** Splits a checked comma-separated list (the Persian comma too) into trimmed addresses. */
export const emailsOf = (list: string | undefined) =>
  (list ?? '')
    .split(/[,،]/)
    .map((e) => e.trim())
    .filter(Boolean);

// ---------------------------------------------------------------------------------------------------------------
// Requests for new accounts

function requestSelect(db: Db) {
  return db
    .selectFrom('googleAdsAccountRequests as r')
    .innerJoin('users as u', 'u.id', 'r.userId')
    .innerJoin('currencies as c', 'c.id', 'r.accountCurrencyId')
    .leftJoin('googleAdsAccounts as a', 'a.requestId', 'r.id')
    .select([
      'r.id',
      'r.userId',
      'u.firstName',
      'u.lastName',
      'u.mobileNo',
      'r.accountCurrencyId',
      'c.code as currencyCode',
      'r.customerWebsite',
      'r.customerBusinessTitle',
      'r.requestedCustomerStandardUsers',
      'r.requestedCustomerReadonlyUsers',
      'r.state',
      'r.decisionReason',
      'a.id as googleAdsAccountId',
      'r.createdAt',
      'r.decidedAt',
    ]);
}

type RequestRow = Awaited<ReturnType<ReturnType<typeof requestSelect>['executeTakeFirstOrThrow']>>;

const toRequestDto = (r: RequestRow): GoogleAdsAccountRequestDto => ({
  id: r.id,
  userId: r.userId,
  customerName: nameOrMobile(r),
  accountCurrencyId: r.accountCurrencyId,
  accountCurrencyCode: r.currencyCode.trim(),
  customerWebsite: r.customerWebsite,
  customerBusinessTitle: r.customerBusinessTitle,
  requestedCustomerStandardUsers: r.requestedCustomerStandardUsers,
  requestedCustomerReadonlyUsers: r.requestedCustomerReadonlyUsers,
  state: r.state as GoogleAdsAccountRequestDto['state'],
  decisionReason: r.decisionReason,
  googleAdsAccountId: r.googleAdsAccountId,
  createdAt: new Date(r.createdAt).toISOString(),
  decidedAt: iso(r.decidedAt),
});

export async function requestOf(db: Db, id: number): Promise<GoogleAdsAccountRequestDto> {
  return toRequestDto(await requestSelect(db).where('r.id', '=', id).executeTakeFirstOrThrow());
}

export interface CreateAccountRequestInput {
  accountCurrency: number;
  customerWebsite: string;
  customerBusinessTitle: string;
  requestedCustomerStandardUsers: string;
  requestedCustomerReadonlyUsers?: string | undefined;
}

/**
 * Records a customer's request for a new account and opens its makeGoogleAdsAccountTask. Refused (422) without the
 * googleAds terms approved or in a currency not used for Google Ads; one request waits at a time (409).
 */
export async function createAccountRequest(
  db: DB,
  userId: number,
  input: CreateAccountRequestInput,
): Promise<{ request: GoogleAdsAccountRequestDto; taskId: number | null }> {
  const policy = await db
    .selectFrom('userPolicyApprovals')
    .select('userId')
    .where('userId', '=', userId)
    .where('productCategory', '=', 'googleAds')
    .executeTakeFirst();
  if (!policy) throw HttpError.of(422, 'googleAds.policyRequired');
  const currency = await db
    .selectFrom('currencies')
    .select(['id', 'useForGoogleAdsAccountCr'])
    .where('id', '=', input.accountCurrency)
    .executeTakeFirst();
  if (!currency?.useForGoogleAdsAccountCr) throw HttpError.of(422, 'googleAds.accountCurrencyNotAllowed');
  const standard = emailsOf(input.requestedCustomerStandardUsers).join(', ');
  const readonly = emailsOf(input.requestedCustomerReadonlyUsers).join(', ');
  const { id, taskId } = await db.transaction().execute(async (trx) => {
    // The user row serializes one customer's requests, so two at once cannot both pass the check below.
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    const waiting = await trx
      .selectFrom('googleAdsAccountRequests')
      .select('id')
      .where('userId', '=', userId)
      .where('state', '=', 'requested')
      .executeTakeFirst();
    if (waiting) throw HttpError.of(409, 'googleAds.requestAlreadyWaiting');
    const created = await trx
      .insertInto('googleAdsAccountRequests')
      .values({
        userId,
        accountCurrencyId: currency.id,
        customerWebsite: input.customerWebsite.trim(),
        customerBusinessTitle: input.customerBusinessTitle.trim(),
        requestedCustomerStandardUsers: standard,
        requestedCustomerReadonlyUsers: readonly,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const taskId = await openGoogleAdsAccountRequestTask(trx, userId, created.id, {
      accountCurrency: currency.id,
      customerBusinessTitle: input.customerBusinessTitle.trim(),
    });
    return { id: created.id, taskId };
  });
  return { request: await requestOf(db, id), taskId };
}

export async function searchAccountRequests(
  db: DB,
  userId: number,
  query: PageQuery,
): Promise<ListEnvelope<GoogleAdsAccountRequestDto>> {
  const q = db.selectFrom('googleAdsAccountRequests as r').where('r.userId', '=', userId);
  const ids = await pageOf(q, query, (x) => x.select('r.id').orderBy('r.id', 'desc'));
  if (ids.items.length === 0) return { items: [], total: ids.total };
  const rows = await requestSelect(db)
    .where(
      'r.id',
      'in',
      ids.items.map((r) => r.id),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { items: ids.items.map((r) => toRequestDto(byId.get(r.id)!)), total: ids.total };
}
