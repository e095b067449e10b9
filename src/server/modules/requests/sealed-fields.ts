/**
 * A request's write-only fields (the credentials a customer hands us: the target page's password) are stored
 * sealed (lib/field-cipher, decision 021): sealed on the way in, opened only for staff's reveal, and at start every
 * stored value still in plain text (requests made before sealing) or sealed under an earlier key is (re-)sealed
 * under the current one.
 */
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../db/database';
import { FieldCipher, purchaseFieldContext, UnsealError } from '../../lib/field-cipher';

/** What migration 020 left in place of a plain hash of an idempotent body (which may hold a password). */
export const HASH_CLEARED = 'cleared-020';

/** `fields` with each write-only field present sealed for `userId`'s request (a value already sealed is kept). */
export function sealSecrets(
  cipher: FieldCipher,
  secretNames: ReadonlySet<string>,
  userId: number,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const sealed = { ...fields };
  for (const name of secretNames) {
    const value = sealed[name];
    if (value === undefined || value === null || FieldCipher.isSealed(value)) continue;
    sealed[name] = cipher.seal(String(value), purchaseFieldContext(userId, name));
  }
  return sealed;
}

/** Opens a stored write-only value; throws UnsealError (unknown key, tampered, malformed) without details. */
export function openSecret(cipher: FieldCipher, userId: number, name: string, stored: unknown): string {
  if (stored === null || stored === undefined) return '';
  if (!FieldCipher.isSealed(stored)) throw new UnsealError('malformed');
  return cipher.open(stored, purchaseFieldContext(userId, name));
}

/**
 * Seals, at start, every stored write-only value that is not sealed under the current key: plain text left from
 * before sealing, or a value sealed under a key in FIELD_ENCRYPTION_OLD_KEYS. Values under a key this process
 * does not hold are left alone and counted (a warning names how many, never which values). Idempotent, in batches,
 * safe while other processes run (each value is replaced on its own, by a value of the same meaning).
 */
export async function sealStoredSecrets(
  db: DB,
  cipher: FieldCipher,
  secretNames: ReadonlySet<string>,
  log: FastifyBaseLogger,
): Promise<{ sealed: number; resealed: number; unreadable: number }> {
  const counts = { sealed: 0, resealed: 0, unreadable: 0 };
  const names = [...secretNames];
  if (names.length === 0) return counts;
  const current = `enc:v1:${cipher.keyId}:%`;
  const needsWork = sql.join(
    names.map((name) => sql`(fields ->> ${name} is not null and fields ->> ${name} not like ${current})`),
    sql` or `,
  );
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('purchases')
      .select(['id', 'userId', 'fields'])
      .where('id', '>', after)
      .where(sql<boolean>`(${needsWork})`)
      .orderBy('id')
      .limit(500)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      after = row.id;
      const fields = row.fields as Record<string, unknown>;
      const changes: Record<string, string> = {};
      for (const name of names) {
        const value = fields[name];
        if (value === undefined || value === null || cipher.isCurrent(value)) continue;
        const context = purchaseFieldContext(row.userId, name);
        if (!FieldCipher.isSealed(value)) {
          changes[name] = cipher.seal(String(value), context);
          counts.sealed += 1;
        } else if (cipher.canOpen(value)) {
          try {
            changes[name] = cipher.seal(cipher.open(value, context), context);
            counts.resealed += 1;
          } catch {
            counts.unreadable += 1;
          }
        } else {
          counts.unreadable += 1;
        }
      }
      if (Object.keys(changes).length === 0) continue;
      await db
        .updateTable('purchases')
        .set({ fields: sql`fields || ${JSON.stringify(changes)}::jsonb` })
        .where('id', '=', row.id)
        .execute();
    }
  }
  if (counts.sealed + counts.resealed > 0) {
    log.info({ sealed: counts.sealed, resealed: counts.resealed }, 'stored request credentials sealed');
  }
  if (counts.unreadable > 0) {
    log.warn(
      { unreadable: counts.unreadable },
      'stored request credentials sealed under a key this server does not hold (see FIELD_ENCRYPTION_OLD_KEYS)',
    );
  }
  return counts;
}
