/**
 * Customers' Google Ads accounts: the customer's own list (with recent charges), the staff list, and staff edits
 * (title, status, ownership, notes), audit-logged.
 */
import { sql } from 'kysely';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { type ListEnvelope, type PageQuery, pageOf } from '../../lib/paging';
import { textOrId } from '../../lib/sql';
import { nameOrMobile } from '../../lib/person-names';
import {
  CHARGES_SHOWN,
  type Db,
  type GoogleAdsAccountDto,
  type GoogleAdsAccountSearch,
  type StaffGoogleAdsAccountDto,
} from './common';

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
      textOrId(eb, term, {
        text: ['a.googleCustomerId', 'a.title', 'u.firstName', 'u.lastName', 'u.mobileNo', 'u.nationalCode'],
        ids: ['a.id'],
      }),
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
