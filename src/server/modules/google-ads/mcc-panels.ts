/** Our manager (MCC) panels in Google Ads, under which staff make customers' accounts: searched and saved by staff. */
import { sql } from 'kysely';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { type ListEnvelope, pageOf } from '../../lib/paging';
import { containsText } from '../../lib/sql';
import { canonicalCustomerId } from './operations';
import { type Db, type GoogleMccAccountDto, type GoogleMccAccountSearch } from './common';

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
