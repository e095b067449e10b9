/**
 * Applies the SQL files in ./migrations in name order, once each, recorded in schema_migrations.
 * Files are frozen once released: fix forward with a new file. Statements are separated by a
 * semicolon at the end of a line (PGlite's extended protocol runs one statement per query).
 * An advisory lock keeps several starting processes from migrating at the same time.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { DB } from './database';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
const LOCK_KEY = 724_001;

export function splitStatements(text: string): string[] {
  return text
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}

export async function migrate(db: DB): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    await sql`create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`.execute(trx);
    const done = new Set(
      (await sql<{ name: string }>`select name from schema_migrations`.execute(trx)).rows.map((r) => r.name),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      const text = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
      for (const statement of splitStatements(text)) {
        await sql.raw(statement).execute(trx);
      }
      await sql`insert into schema_migrations (name) values (${file})`.execute(trx);
      applied.push(file);
    }
  });
  return applied;
}
