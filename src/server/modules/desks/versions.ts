/**
 * Published catalogue versions (table catalogue_versions, migration 019; written here only). Each publish or
 * return is a new row; the newest row of a desk or form type is what every server process serves, and a row
 * without a document means "the reviewed file under schemas/".
 */
import { sql } from 'kysely';
import type { DB } from '../../db/database';
import { nameOrMobile } from '../../lib/person-names';

export type CatalogueKind = 'desk' | 'form' | 'plan' | 'calendar';

export interface PublishedVersion {
  id: number;
  kind: CatalogueKind;
  identifier: string;
  version: number;
  /** Null: back to the file under schemas/. */
  document: Record<string, unknown> | null;
  authorUserId: number | null;
  authorName: string | null;
  revertedTo: number | null;
  createdAt: string;
}

const parse = (document: unknown): Record<string, unknown> | null =>
  document === null || document === undefined
    ? null
    : typeof document === 'string'
      ? (JSON.parse(document) as Record<string, unknown>)
      : (document as Record<string, unknown>);

function baseQuery(db: DB) {
  return db
    .selectFrom('catalogueVersions as v')
    .leftJoin('users as u', 'u.id', 'v.authorUserId')
    .select([
      'v.id',
      'v.kind',
      'v.identifier',
      'v.version',
      'v.document',
      'v.authorUserId',
      'v.revertedTo',
      'v.createdAt',
      'u.firstName',
      'u.lastName',
      'u.mobileNo',
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

const toVersion = (r: Row): PublishedVersion => ({
  id: r.id,
  kind: r.kind as CatalogueKind,
  identifier: r.identifier,
  version: r.version,
  document: parse(r.document),
  authorUserId: r.authorUserId === null ? null : Number(r.authorUserId),
  authorName: r.authorUserId === null ? null : nameOrMobile(r),
  revertedTo: r.revertedTo,
  createdAt: new Date(r.createdAt).toISOString(),
});

/** The newest version of every desk and form type that was ever published. */
export async function latestVersions(db: DB): Promise<PublishedVersion[]> {
  const rows = await baseQuery(db)
    .where(({ eb, selectFrom }) =>
      eb(
        'v.version',
        '=',
        selectFrom('catalogueVersions as w')
          .select(({ fn }) => fn.max('w.version').as('m'))
          .whereRef('w.kind', '=', 'v.kind')
          .whereRef('w.identifier', '=', 'v.identifier'),
      ),
    )
    .orderBy('v.id')
    .execute();
  return rows.map(toVersion);
}

/** Every version of one desk or form type, newest first. */
export async function versionsOf(db: DB, kind: CatalogueKind, identifier: string): Promise<PublishedVersion[]> {
  const rows = await baseQuery(db)
    .where('v.kind', '=', kind)
    .where('v.identifier', '=', identifier)
    .orderBy('v.version', 'desc')
    .execute();
  return rows.map(toVersion);
}

export async function versionById(db: DB, id: number): Promise<PublishedVersion | undefined> {
  const row = await baseQuery(db).where('v.id', '=', id).executeTakeFirst();
  return row ? toVersion(row) : undefined;
}

/** The id of the newest row, so a process can tell cheaply whether anything was published since it looked. */
export async function newestVersionId(db: DB): Promise<number> {
  const row = await db
    .selectFrom('catalogueVersions')
    .select(({ fn }) => fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id ?? 0;
}

/**
 * Adds the next version of a desk or form type inside `trx` (publishes are serialized by one advisory lock, so two
 * at once get consecutive numbers). `check` runs under the lock, after the version number is known.
 */
export async function insertVersion(
  trx: DB,
  entry: {
    kind: CatalogueKind;
    identifier: string;
    document: Record<string, unknown> | null;
    authorUserId: number;
    revertedTo?: number | null;
  },
): Promise<{ id: number; version: number }> {
  await sql`select pg_advisory_xact_lock(724019)`.execute(trx);
  const last = await trx
    .selectFrom('catalogueVersions')
    .select(({ fn }) => fn.max('version').as('version'))
    .where('kind', '=', entry.kind)
    .where('identifier', '=', entry.identifier)
    .executeTakeFirst();
  const version = (last?.version ?? 0) + 1;
  const row = await trx
    .insertInto('catalogueVersions')
    .values({
      kind: entry.kind,
      identifier: entry.identifier,
      version,
      document: entry.document === null ? null : JSON.stringify(entry.document),
      authorUserId: entry.authorUserId,
      revertedTo: entry.revertedTo ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, version };
}
