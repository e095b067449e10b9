/**
 * A signed-in customer's half-filled form at a desk, kept on the server as they type (decision 044): one draft per
 * customer and desk, replaced at each save, given back on any device, removed when the request is made (submission.ts)
 * or by the customer, and gone once older than the `deskDraftLifetimeDays` system parameter. A write-only field (a
 * password, wherever the form declares it) and a staff-only field are never stored: the customer types them again.
 */
import { sql } from 'kysely';
import { itemsOf, propertyOf, type SchemaNode } from '../../../shared/form-schema';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import type { DeskForm } from '../desks';
import type { RequestDeps } from './deps';
import { deskFormOrThrow } from './forms';

/** The largest draft kept, as JSON bytes: a form typed by hand is far below it. */
export const MAX_DRAFT_BYTES = 32 * 1024;

export interface DeskDraftSummary {
  desk: string;
  savedAt: string;
}

type Value = unknown;

/** `value` without what its schema marks write-only, at any depth (list rows and groups included). */
function withoutSecrets(value: Value, schema: SchemaNode | undefined): Value {
  if (Array.isArray(value)) {
    const items = schema && itemsOf(schema);
    return value.map((row) => withoutSecrets(row, items));
  }
  if (value && typeof value === 'object') {
    const kept: Record<string, unknown> = {};
    for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
      const field = schema && propertyOf(schema, name);
      if (field?.writeOnly === true) continue;
      kept[name] = withoutSecrets(inner, field);
    }
    return kept;
  }
  return value;
}

/**
 * What of a draft may be stored: no write-only, password-widget or staff-only field, no value the desk fixes, nothing
 * empty.
 */
export function draftData(
  deskForm: DeskForm,
  secretNames: ReadonlySet<string>,
  data: Record<string, unknown>,
): Record<string, unknown> {
  // A field drawn as a password is a secret too, even where the schema forgot `writeOnly`.
  const ui = (deskForm.uiSchema ?? {}) as Record<string, { 'ui:widget'?: unknown } | undefined>;
  const passwords = Object.keys(ui).filter((name) =>
    /^password(widget)?$/i.test(String(ui[name]?.['ui:widget'] ?? '')),
  );
  const hidden = new Set([...secretNames, ...(deskForm.form.staffOnlyFields ?? []), ...passwords, 'quoteId']);
  const top = Object.fromEntries(
    Object.entries(data).filter(
      ([name, value]) => !hidden.has(name) && !(name in deskForm.staticValues) && value !== null && value !== '',
    ),
  );
  return withoutSecrets(top, deskForm.schema as SchemaNode) as Record<string, unknown>;
}

const lifetimeDays = async (deps: RequestDeps) => (await deps.sources.parameters()).deskDraftLifetimeDays;

/** Drops the customer's drafts older than the lifetime, so what is expired is gone, not only hidden. */
async function dropExpired(db: DB, userId: number, days: number): Promise<void> {
  await db
    .deleteFrom('deskDrafts')
    .where('userId', '=', userId)
    .where('savedAt', '<', sql<Date>`now() - make_interval(days => ${Math.trunc(days)}::int)`)
    .execute();
}

export async function saveDeskDraft(
  deps: RequestDeps,
  userId: number,
  desk: string,
  data: Record<string, unknown>,
): Promise<DeskDraftSummary> {
  const deskForm = deskFormOrThrow(deps, desk);
  const kept = draftData(deskForm, deps.catalogue.writeOnlyFields, data);
  const json = JSON.stringify(kept);
  if (Buffer.byteLength(json) > MAX_DRAFT_BYTES) throw HttpError.of(413, 'http.payloadTooLarge');
  const row = await deps.db
    .insertInto('deskDrafts')
    .values({ userId, desk: deskForm.desk.identifier, data: json })
    .onConflict((oc) => oc.columns(['userId', 'desk']).doUpdateSet({ data: json, savedAt: sql<Date>`now()` }))
    .returning(['desk', 'savedAt'])
    .executeTakeFirstOrThrow();
  return { desk: row.desk, savedAt: new Date(row.savedAt).toISOString() };
}

export async function fetchDeskDraft(deps: RequestDeps, userId: number, desk: string) {
  const deskForm = deskFormOrThrow(deps, desk);
  await dropExpired(deps.db, userId, await lifetimeDays(deps));
  const row = await deps.db
    .selectFrom('deskDrafts')
    .select(['desk', 'savedAt', 'data'])
    .where('userId', '=', userId)
    .where('desk', '=', deskForm.desk.identifier)
    .executeTakeFirst();
  if (!row) return null;
  return {
    desk: row.desk,
    savedAt: new Date(row.savedAt).toISOString(),
    // Read through the desk's form as it is now: a field it has since made write-only is not given back.
    data: draftData(deskForm, deps.catalogue.writeOnlyFields, row.data as Record<string, unknown>),
  };
}

export async function removeDeskDraft(db: DB, userId: number, desk: string): Promise<void> {
  const removed = await db
    .deleteFrom('deskDrafts')
    .where('userId', '=', userId)
    .where('desk', '=', desk)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw HttpError.of(404, 'http.referenceNotFound');
}

/** Inside the submission's transaction: the request made, its draft is gone. */
export async function dropDraftOnSubmit(trx: DB, userId: number, desk: string): Promise<void> {
  await trx.deleteFrom('deskDrafts').where('userId', '=', userId).where('desk', '=', desk).execute();
}

export async function searchDeskDrafts(deps: RequestDeps, userId: number): Promise<DeskDraftSummary[]> {
  await dropExpired(deps.db, userId, await lifetimeDays(deps));
  const rows = await deps.db
    .selectFrom('deskDrafts')
    .select(['desk', 'savedAt'])
    .where('userId', '=', userId)
    .orderBy('savedAt', 'desc')
    .limit(500)
    .execute();
  return rows.map((r) => ({ desk: r.desk, savedAt: new Date(r.savedAt).toISOString() }));
}
