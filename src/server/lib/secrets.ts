/** Secrets generated once and kept in the database, so every process behind a proxy shares them. */
import type { DB } from '../db/database';
import { randomToken } from './crypto';

export async function getOrCreateSecret(db: DB, name: string): Promise<string> {
  await db
    .insertInto('serverSecrets')
    .values({ name, value: randomToken(48) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('serverSecrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
