/**
 * Google Ads (issue 11): the only writer of `google_mcc_accounts`, `google_ads_account_requests`,
 * `google_ads_accounts` and `google_ads_charges`.
 *
 * A customer asks for an account (createAccountRequest: the googleAds terms approved, a Google Ads currency, valid
 * e-mail lists), which opens a makeGoogleAdsAccountTask. Staff make the account under one of our manager (MCC)
 * panels through the account operations (operations.ts; today by hand in Google's console) and record it, linked to
 * the customer; or reject the request with a reason the customer sees. Only the account's own customer may charge
 * it, and not while it is suspended (chargeableAccount, called by the desk's pricing); the charge staff record when
 * a paid recharge is fulfilled is kept here (recordCharge, called by fulfilment inside its transaction).
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { type ListEnvelope, type PageQuery, pageOf } from '../../lib/paging';
import { containsText } from '../../lib/sql';
import { nameOrMobile } from '../../lib/person-names';
import { claimTask, decideTask, openGoogleAdsAccountRequestTask } from '../tasks/service';
import { canonicalCustomerId, type GoogleAdsOperations } from './operations';

type Db = Kysely<Database>;
export type GoogleAdsAccountRequestDto = components['schemas']['GoogleAdsAccountRequest'];
export type GoogleAdsAccountDto = components['schemas']['GoogleAdsAccount'];
export type StaffGoogleAdsAccountDto = components['schemas']['StaffGoogleAdsAccount'];
export type GoogleMccAccountDto = components['schemas']['GoogleMccAccount'];
type GoogleMccAccountSearch = components['schemas']['GoogleMccAccountSearch'];
type GoogleAdsAccountSearch = components['schemas']['GoogleAdsAccountSearch'];

export const MAKE_ACCOUNT_TASK = 'makeGoogleAdsAccountTask';
/** How many of an account's charges the customer's list carries (newest first). */
const CHARGES_SHOWN = 20;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

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

async function requestOf(db: Db, id: number): Promise<GoogleAdsAccountRequestDto> {
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

// ---------------------------------------------------------------------------------------------------------------
// Manager (MCC) panels

function mccSelect(db: Db) {
  return db
    .selectFrom('googleMccAccounts as m')
    .innerJoin('currencies as c', 'c.id', 'm.currencyId')
    .select((eb) => [
      'm.id',
      'm.title',
      'm.googleCustomerId',
      'm.currencyId',
      'c.code as currencyCode',
      'm.status',
      'm.notes',
      'm.createdAt',
      'm.updatedAt',
      eb
        .selectFrom('googleAdsAccounts as a')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('a.googleMccAccountId', '=', 'm.id')
        .as('accountCount'),
    ]);
}

type MccRow = Awaited<ReturnType<ReturnType<typeof mccSelect>['executeTakeFirstOrThrow']>>;

const toMccDto = (r: MccRow): GoogleMccAccountDto => ({
  id: r.id,
  title: r.title,
  googleCustomerId: r.googleCustomerId,
  currencyId: r.currencyId,
  currencyCode: r.currencyCode.trim(),
  status: r.status as GoogleMccAccountDto['status'],
  notes: r.notes,
  accountCount: Number(r.accountCount ?? 0),
  createdAt: new Date(r.createdAt).toISOString(),
  updatedAt: new Date(r.updatedAt).toISOString(),
});

export async function searchMccAccounts(
  db: DB,
  filter: GoogleMccAccountSearch,
): Promise<ListEnvelope<GoogleMccAccountDto>> {
  let q = db.selectFrom('googleMccAccounts as m');
  if (filter.status) q = q.where('m.status', '=', filter.status);
  const term = filter.search?.trim();
  if (term) {
    q = q.where((eb) =>
      eb.or([
        containsText(eb, ['m.title', 'm.googleCustomerId', 'm.notes'], term),
        ...(/^\d{1,9}$/.test(term) ? [eb('m.id', '=', Number(term))] : []),
      ]),
    );
  }
  const ids = await pageOf(q, filter, (x) => x.select('m.id').orderBy('m.title').orderBy('m.id'));
  if (ids.items.length === 0) return { items: [], total: ids.total };
  const rows = await mccSelect(db)
    .where(
      'm.id',
      'in',
      ids.items.map((r) => r.id),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { items: ids.items.map((r) => toMccDto(byId.get(r.id)!)), total: ids.total };
}

export interface SaveMccInput {
  id?: number | undefined;
  title: string;
  googleCustomerId: string;
  currency: number;
  status?: 'active' | 'inactive' | undefined;
  notes?: string | undefined;
}

export async function saveMccAccount(db: DB, principal: Principal, input: SaveMccInput): Promise<GoogleMccAccountDto> {
  const googleCustomerId = canonicalCustomerId(input.googleCustomerId);
  if (!googleCustomerId) throw HttpError.of(422, 'googleAds.customerId.invalid');
  const id = await db.transaction().execute(async (trx) => {
    const currency = await trx
      .selectFrom('currencies')
      .select('id')
      .where('id', '=', input.currency)
      .executeTakeFirst();
    if (!currency) throw HttpError.of(422, 'fulfilment.unknownCurrency');
    const taken = await trx
      .selectFrom('googleMccAccounts')
      .select('id')
      .where('googleCustomerId', '=', googleCustomerId)
      .executeTakeFirst();
    if (taken && taken.id !== input.id) throw HttpError.of(409, 'googleAds.customerId.taken');
    const values = {
      title: input.title.trim(),
      googleCustomerId,
      currencyId: input.currency,
      status: input.status ?? 'active',
      notes: input.notes?.trim() || null,
    };
    if (input.id === undefined) {
      const created = await trx
        .insertInto('googleMccAccounts')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow();
      await audit(trx, {
        actorUserId: principal.userId,
        action: 'saveGoogleMccAccount',
        entity: 'googleMccAccount',
        entityId: created.id,
        after: values,
      });
      return created.id;
    }
    const before = await trx
      .selectFrom('googleMccAccounts')
      .selectAll()
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw HttpError.of(404, 'googleAds.mcc.notFound');
    await trx
      .updateTable('googleMccAccounts')
      .set({ ...values, updatedAt: new Date() })
      .where('id', '=', input.id)
      .execute();
    await audit(trx, {
      actorUserId: principal.userId,
      action: 'saveGoogleMccAccount',
      entity: 'googleMccAccount',
      entityId: input.id,
      before: {
        title: before.title,
        googleCustomerId: before.googleCustomerId,
        currencyId: before.currencyId,
        status: before.status,
        notes: before.notes,
      },
      after: values,
    });
    return input.id;
  });
  return toMccDto(await mccSelect(db).where('m.id', '=', id).executeTakeFirstOrThrow());
}

// ---------------------------------------------------------------------------------------------------------------
// Accounts

function accountSelect(db: Db) {
  return db
    .selectFrom('googleAdsAccounts as a')
    .innerJoin('googleMccAccounts as m', 'm.id', 'a.googleMccAccountId')
    .innerJoin('users as u', 'u.id', 'a.userId')
    .innerJoin('currencies as c', 'c.id', 'a.currencyId')
    .select((eb) => [
      'a.id',
      'a.googleCustomerId',
      'a.title',
      'a.googleMccAccountId',
      'm.title as mccTitle',
      'm.googleCustomerId as mccGoogleCustomerId',
      'a.userId',
      'u.firstName',
      'u.lastName',
      'u.mobileNo',
      'a.currencyId',
      'c.code as currencyCode',
      'c.title as currencyTitle',
      'a.status',
      'a.ownershipApproved',
      'a.requestId',
      'a.notes',
      'a.createdAt',
      eb
        .selectFrom('googleAdsCharges as g')
        .select(sql<string>`coalesce(sum(g.amount_minor), 0)::text`.as('s'))
        .whereRef('g.googleAdsAccountId', '=', 'a.id')
        .as('chargedMinor'),
      eb
        .selectFrom('googleAdsCharges as g')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('g.googleAdsAccountId', '=', 'a.id')
        .as('chargeCount'),
    ]);
}

type AccountRow = Awaited<ReturnType<ReturnType<typeof accountSelect>['executeTakeFirstOrThrow']>>;

const toStaffAccountDto = (r: AccountRow): StaffGoogleAdsAccountDto => ({
  id: r.id,
  googleCustomerId: r.googleCustomerId,
  title: r.title,
  googleMccAccountId: r.googleMccAccountId,
  mccTitle: r.mccTitle,
  mccGoogleCustomerId: r.mccGoogleCustomerId,
  userId: r.userId,
  customerName: nameOrMobile(r),
  mobileNo: r.mobileNo,
  currencyId: r.currencyId,
  currencyCode: r.currencyCode.trim(),
  status: r.status as StaffGoogleAdsAccountDto['status'],
  ownershipApproved: r.ownershipApproved === 1 ? 1 : 0,
  requestId: r.requestId,
  notes: r.notes,
  chargedAmount: Number(r.chargedMinor ?? 0) / 100,
  createdAt: new Date(r.createdAt).toISOString(),
});

export async function staffAccountOf(db: DB, id: number): Promise<StaffGoogleAdsAccountDto> {
  const row = await accountSelect(db).where('a.id', '=', id).executeTakeFirst();
  if (!row) throw HttpError.of(404, 'googleAds.account.notFound');
  return toStaffAccountDto(row);
}

/** The signed-in customer's accounts with their latest charges. */
export async function searchMyAccounts(
  db: DB,
  userId: number,
  query: PageQuery & { status?: 'active' | 'suspended' | undefined },
): Promise<ListEnvelope<GoogleAdsAccountDto>> {
  let q = db.selectFrom('googleAdsAccounts as a').where('a.userId', '=', userId);
  if (query.status) q = q.where('a.status', '=', query.status);
  const ids = await pageOf(q, query, (x) => x.select('a.id').orderBy('a.id', 'desc'));
  if (ids.items.length === 0) return { items: [], total: ids.total };
  const idList = ids.items.map((r) => r.id);
  const [rows, charges] = await Promise.all([
    accountSelect(db).where('a.id', 'in', idList).execute(),
    db
      .selectFrom('googleAdsCharges')
      .select(['id', 'purchaseId', 'googleAdsAccountId', 'amountMinor', 'chargeReference', 'createdAt'])
      .where('googleAdsAccountId', 'in', idList)
      .orderBy('id', 'desc')
      .execute(),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    total: ids.total,
    items: idList.map((id) => {
      const r = byId.get(id)!;
      return {
        id: r.id,
        googleCustomerId: r.googleCustomerId,
        title: r.title,
        currencyId: r.currencyId,
        currencyCode: r.currencyCode.trim(),
        currencyTitle: r.currencyTitle,
        status: r.status as GoogleAdsAccountDto['status'],
        ownershipApproved: r.ownershipApproved === 1 ? 1 : 0,
        chargedAmount: Number(r.chargedMinor ?? 0) / 100,
        chargeCount: Number(r.chargeCount ?? 0),
        charges: charges
          .filter((c) => c.googleAdsAccountId === id)
          .slice(0, CHARGES_SHOWN)
          .map((c) => ({
            id: c.id,
            purchaseId: c.purchaseId,
            amount: c.amountMinor / 100,
            chargeReference: c.chargeReference,
            createdAt: new Date(c.createdAt).toISOString(),
          })),
        createdAt: new Date(r.createdAt).toISOString(),
      };
    }),
  };
}

export async function searchStaffAccounts(
  db: DB,
  filter: GoogleAdsAccountSearch,
): Promise<ListEnvelope<StaffGoogleAdsAccountDto>> {
  let q = db.selectFrom('googleAdsAccounts as a').innerJoin('users as u', 'u.id', 'a.userId');
  if (filter.status) q = q.where('a.status', '=', filter.status);
  if (filter.googleMccAccount) q = q.where('a.googleMccAccountId', '=', filter.googleMccAccount);
  if (filter.userId) q = q.where('a.userId', '=', filter.userId);
  const term = filter.search?.trim();
  if (term) {
    q = q.where((eb) =>
      eb.or([
        containsText(
          eb,
          ['a.googleCustomerId', 'a.title', 'u.firstName', 'u.lastName', 'u.mobileNo', 'u.nationalCode'],
          term,
        ),
        ...(/^\d{1,15}$/.test(term) ? [eb('a.id', '=', Number(term))] : []),
      ]),
    );
  }
  const ids = await pageOf(q, filter, (x) => x.select('a.id').orderBy('a.id', 'desc'));
  if (ids.items.length === 0) return { items: [], total: ids.total };
  const rows = await accountSelect(db)
    .where(
      'a.id',
      'in',
      ids.items.map((r) => r.id),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { items: ids.items.map((r) => toStaffAccountDto(byId.get(r.id)!)), total: ids.total };
}

export interface SaveAccountInput {
  id: number;
  title?: string | undefined;
  status?: 'active' | 'suspended' | undefined;
  ownershipApproved?: 0 | 1 | undefined;
  notes?: string | undefined;
}

/** Staff edit an account's title, status, ownership and notes; returns it with its customer's uid (to tell them). */
export async function saveAccount(
  db: DB,
  principal: Principal,
  input: SaveAccountInput,
): Promise<{ account: StaffGoogleAdsAccountDto; userId: number }> {
  const userId = await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('googleAdsAccounts')
      .select(['id', 'userId', 'title', 'status', 'ownershipApproved', 'notes'])
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw HttpError.of(404, 'googleAds.account.notFound');
    const set = {
      ...(input.title !== undefined ? { title: input.title.trim() } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.ownershipApproved !== undefined ? { ownershipApproved: input.ownershipApproved } : {}),
      ...(input.notes !== undefined ? { notes: input.notes.trim() || null } : {}),
    };
    await trx
      .updateTable('googleAdsAccounts')
      .set({ ...set, updatedAt: new Date() })
      .where('id', '=', input.id)
      .execute();
    await audit(trx, {
      actorUserId: principal.userId,
      action: 'saveGoogleAdsAccount',
      entity: 'googleAdsAccount',
      entityId: input.id,
      before: {
        title: before.title,
        status: before.status,
        ownershipApproved: before.ownershipApproved,
        notes: before.notes,
      },
      after: set,
    });
    return before.userId;
  });
  return { account: await staffAccountOf(db, input.id), userId };
}

/**
 * The account a customer's recharge names, if it may be charged: 404 when there is no such account, 403 when it is
 * another customer's, 422 when it is suspended. Called by the desk's pricing at every quote and submission.
 */
export async function chargeableAccount(
  db: Db,
  userId: number,
  accountId: number,
): Promise<{ id: number; currencyId: number; googleCustomerId: string }> {
  const account = await db
    .selectFrom('googleAdsAccounts')
    .select(['id', 'userId', 'currencyId', 'status', 'googleCustomerId'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!account) throw HttpError.of(404, 'googleAds.account.notFound');
  if (account.userId !== userId) throw HttpError.of(403, 'googleAds.account.notYours');
  if (account.status !== 'active') throw HttpError.of(422, 'googleAds.account.suspended');
  return { id: account.id, currencyId: account.currencyId, googleCustomerId: account.googleCustomerId };
}

/**
 * Charges the account a paid recharge names through the account operations and records the charge, inside the
 * fulfilment's transaction (which holds the request's lock). Refuses a suspended account (422) or one that is no
 * longer the request's customer's (403).
 */
export async function recordCharge(
  trx: Db,
  operations: GoogleAdsOperations,
  input: {
    purchaseId: number;
    userId: number;
    accountId: number;
    amountMinor: number;
    chargeReference: string;
    staffUserId: number;
  },
): Promise<{ chargeId: number; accountId: number; chargeReference: string }> {
  const account = await trx
    .selectFrom('googleAdsAccounts as a')
    .innerJoin('currencies as c', 'c.id', 'a.currencyId')
    .select(['a.id', 'a.userId', 'a.status', 'a.googleCustomerId', 'a.currencyId', 'c.code'])
    .where('a.id', '=', input.accountId)
    .forUpdate('a')
    .executeTakeFirst();
  if (!account) throw HttpError.of(404, 'googleAds.account.notFound');
  if (account.userId !== input.userId) throw HttpError.of(403, 'googleAds.account.notYours');
  if (account.status !== 'active') throw HttpError.of(422, 'googleAds.account.suspended');
  const { chargeReference } = await operations.chargeAccount({
    account: { id: account.id, googleCustomerId: account.googleCustomerId },
    currencyCode: account.code.trim(),
    amountMinor: input.amountMinor,
    recorded: { chargeReference: input.chargeReference },
  });
  const charge = await trx
    .insertInto('googleAdsCharges')
    .values({
      purchaseId: input.purchaseId,
      googleAdsAccountId: account.id,
      currencyId: account.currencyId,
      amountMinor: input.amountMinor,
      chargeReference,
      staffUserId: input.staffUserId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { chargeId: charge.id, accountId: account.id, chargeReference };
}

// ---------------------------------------------------------------------------------------------------------------
// The make-account task

/** Opens (claims) a makeGoogleAdsAccountTask with the request, audited when the claim is new. */
export async function claimMakeAccountTask(db: DB, principal: Principal, taskId: number) {
  const task = await db.transaction().execute(async (trx) => {
    const claimed = await claimTask(trx, taskId, [MAKE_ACCOUNT_TASK], principal.userId);
    if (claimed.claimedNow) {
      await audit(trx, {
        actorUserId: principal.userId,
        action: 'claimTask',
        entity: 'task',
        entityId: taskId,
        before: claimed.before,
        after: { state: 'claimed', claimedBy: principal.userId },
      });
    }
    return claimed.task;
  });
  if (task.googleAdsAccountRequestId === null) throw HttpError.of(404, 'task.notFound');
  const request = await requestOf(db, task.googleAdsAccountRequestId);
  const mccAccounts = await searchMccAccounts(db, { status: 'active', perPage: 500 });
  return { task, request, mccAccounts: mccAccounts.items };
}

/** Locks the request a claimed make-account task decides and records the decision on the task (once). */
async function decideRequestTask(
  trx: Db,
  principal: Principal,
  taskId: number,
  decision: { state: 'done' | 'rejected'; reason?: string },
) {
  const task = await decideTask(trx, taskId, MAKE_ACCOUNT_TASK, principal.userId, decision);
  if (task.googleAdsAccountRequestId === null) throw HttpError.of(404, 'task.notFound');
  const request = await trx
    .selectFrom('googleAdsAccountRequests')
    .selectAll()
    .where('id', '=', task.googleAdsAccountRequestId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (request.state !== 'requested') throw HttpError.of(409, 'task.alreadyDecided');
  return request;
}

export interface MakeAccountInput {
  taskId: number;
  googleMccAccount: number;
  googleCustomerId: string;
  title?: string | undefined;
  notes?: string | undefined;
}

/**
 * Decides a claimed make-account task by making the account under an active panel through the account operations
 * and recording it, linked to the request's customer (once: the task and the request are decided together).
 */
export async function makeAccount(
  db: DB,
  operations: GoogleAdsOperations,
  principal: Principal,
  input: MakeAccountInput,
): Promise<{ account: StaffGoogleAdsAccountDto; userId: number; requestId: number }> {
  const { accountId, userId, requestId } = await db.transaction().execute(async (trx) => {
    const request = await decideRequestTask(trx, principal, input.taskId, { state: 'done' });
    const mcc = await trx
      .selectFrom('googleMccAccounts')
      .select(['id', 'googleCustomerId', 'status'])
      .where('id', '=', input.googleMccAccount)
      .executeTakeFirst();
    if (!mcc) throw HttpError.of(422, 'googleAds.mcc.notFound');
    if (mcc.status !== 'active') throw HttpError.of(422, 'googleAds.mcc.inactive');
    const currency = await trx
      .selectFrom('currencies')
      .select('code')
      .where('id', '=', request.accountCurrencyId)
      .executeTakeFirstOrThrow();
    const title = input.title?.trim() || request.customerBusinessTitle;
    const { googleCustomerId } = await operations.createAccount({
      mcc: { id: mcc.id, googleCustomerId: mcc.googleCustomerId },
      currencyCode: currency.code.trim(),
      title,
      standardUsers: emailsOf(request.requestedCustomerStandardUsers),
      readonlyUsers: emailsOf(request.requestedCustomerReadonlyUsers),
      recorded: { googleCustomerId: input.googleCustomerId },
    });
    const taken = await trx
      .selectFrom('googleAdsAccounts')
      .select('id')
      .where('googleCustomerId', '=', googleCustomerId)
      .executeTakeFirst();
    if (taken) throw HttpError.of(409, 'googleAds.customerId.taken');
    const account = await trx
      .insertInto('googleAdsAccounts')
      .values({
        googleCustomerId,
        googleMccAccountId: mcc.id,
        userId: request.userId,
        currencyId: request.accountCurrencyId,
        title,
        requestId: request.id,
        notes: input.notes?.trim() || null,
        createdBy: principal.userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('googleAdsAccountRequests')
      .set({ state: 'created', decidedBy: principal.userId, decidedAt: new Date() })
      .where('id', '=', request.id)
      .execute();
    await audit(trx, {
      actorUserId: principal.userId,
      action: 'makeGoogleAdsAccount',
      entity: 'googleAdsAccountRequest',
      entityId: request.id,
      before: { state: request.state },
      after: {
        state: 'created',
        googleAdsAccountId: account.id,
        googleCustomerId,
        googleMccAccountId: mcc.id,
        operations: operations.kind,
      },
    });
    return { accountId: account.id, userId: request.userId, requestId: request.id };
  });
  return { account: await staffAccountOf(db, accountId), userId, requestId };
}

/** Decides a claimed make-account task by rejecting the request with the reason its customer sees. */
export async function rejectAccountRequest(
  db: DB,
  principal: Principal,
  input: { taskId: number; reason: string },
): Promise<GoogleAdsAccountRequestDto> {
  const reason = input.reason.trim();
  const id = await db.transaction().execute(async (trx) => {
    const request = await decideRequestTask(trx, principal, input.taskId, { state: 'rejected', reason });
    await trx
      .updateTable('googleAdsAccountRequests')
      .set({ state: 'rejected', decisionReason: reason, decidedBy: principal.userId, decidedAt: new Date() })
      .where('id', '=', request.id)
      .execute();
    await audit(trx, {
      actorUserId: principal.userId,
      action: 'rejectGoogleAdsAccountRequest',
      entity: 'googleAdsAccountRequest',
      entityId: request.id,
      before: { state: request.state },
      after: { state: 'rejected', reason },
    });
    return request.id;
  });
  return requestOf(db, id);
}
