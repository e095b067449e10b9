/**
 * Database migrations through Kysely's Migrator. Each `NNN_name.sql` file in the migrations folder is one
 * migration named after the file (without `.sql`), run whole as one text of several statements, so a function
 * or trigger body (`$$ … $$`) works (DatabaseHandle.runScript). Pending migrations run in name order in one
 * transaction: one that fails leaves the database as it was.
 *
 * - Several starting processes: our advisory lock is held on one connection for the whole run (adopting the
 *   old bookkeeping, the checksum check and the Migrator, which takes Kysely's own lock inside it). On PGlite
 *   the locks are uncontended: one process owns its data directory (lib/data-dir-lock.ts).
 * - Frozen once released: each applied file's SHA-256 is kept in `migration_checksums`, and a start whose
 *   applied file's text changed is refused (MigrationError). Fix forward with a new file.
 * - The old runner's `schema_migrations` (names with `.sql`) seeds `kysely_migration` once, so a database it
 *   migrated upgrades without running anything again. Its table is left as it was.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Migration, Migrator, sql } from 'kysely';
import type { DatabaseHandle, DB } from './database';

export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
const LOCK_KEY = 724_001;
/** Kysely's default bookkeeping tables; `kysely_migration` is created here too, with Kysely's own columns. */
const MIGRATION_TABLE = 'kysely_migration';

/** A migration that cannot run: a released file changed or went missing, or its SQL failed. */
export class MigrationError extends Error {}

interface MigrationFile {
  name: string;
  text: string;
  sha256: string;
}

/** The text's SHA-256, with line endings made LF so a checkout with CRLF counts as the same file. */
export const checksumOf = (text: string) => createHash('sha256').update(text.replace(/\r\n/g, '\n')).digest('hex');

async function readMigrations(folder: string): Promise<MigrationFile[]> {
  const files = (await readdir(folder)).filter((f) => f.endsWith('.sql')).sort();
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(path.join(folder, file), 'utf8');
      return { name: file.slice(0, -'.sql'.length), text, sha256: checksumOf(text) };
    }),
  );
}

const tableExists = async (db: DB, name: string) =>
  (await sql<{ found: boolean }>`select to_regclass(${name}) is not null as found`.execute(db)).rows[0]!.found;

/** Copies the old runner's rows into Kysely's table when Kysely has none yet. */
async function adoptOldRunner(trx: DB): Promise<void> {
  await sql`create table if not exists kysely_migration (
    name varchar(255) not null primary key,
    timestamp varchar(255) not null
  )`.execute(trx);
  if (!(await tableExists(trx, 'schema_migrations'))) return;
  const adopted = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(trx);
  if (adopted.rows[0]!.n > 0) return;
  const old = await sql<{ name: string; appliedAt: Date }>`
    select name, applied_at as "appliedAt" from schema_migrations order by applied_at, name`.execute(trx);
  for (const row of old.rows) {
    const name = row.name.replace(/\.sql$/, '');
    const timestamp = new Date(row.appliedAt).toISOString();
    await sql`insert into kysely_migration (name, timestamp) values (${name}, ${timestamp})`.execute(trx);
  }
}

/** Refuses applied migrations whose file changed; records the checksum of applied ones that have none yet. */
async function checkFrozen(trx: DB, files: MigrationFile[]): Promise<void> {
  await sql`create table if not exists migration_checksums (
    name text primary key,
    sha256 text not null
  )`.execute(trx);
  const applied = (await sql<{ name: string }>`select name from kysely_migration`.execute(trx)).rows;
  const recorded = new Map(
    (await sql<{ name: string; sha256: string }>`select name, sha256 from migration_checksums`.execute(trx)).rows.map(
      (r) => [r.name, r.sha256],
    ),
  );
  const byName = new Map(files.map((f) => [f.name, f]));
  for (const { name } of applied) {
    const file = byName.get(name);
    if (!file) throw new MigrationError(`migration ${name}.sql was applied to this database but is missing`);
    const sha256 = recorded.get(name);
    if (sha256 === undefined) {
      await sql`insert into migration_checksums (name, sha256) values (${name}, ${file.sha256})`.execute(trx);
    } else if (sha256 !== file.sha256) {
      throw new MigrationError(
        `migration ${name}.sql changed after it was applied; released migrations are frozen: ` +
          'restore the file and make the change in a new migration',
      );
    }
  }
}

/**
 * Applies the pending migrations of `folder` (default: ./migrations) and returns their names, in order.
 * Throws MigrationError when a migration fails or a released one changed.
 */
export async function migrate(
  database: Pick<DatabaseHandle, 'db' | 'runScript'>,
  options: { folder?: string } = {},
): Promise<string[]> {
  const files = await readMigrations(options.folder ?? MIGRATIONS_DIR);
  const migrations: Record<string, Migration> = Object.fromEntries(
    files.map((file) => [
      file.name,
      {
        up: async (trx: DB) => {
          await database.runScript(trx, file.text);
          await sql`insert into migration_checksums (name, sha256) values (${file.name}, ${file.sha256})`.execute(trx);
        },
      },
    ]),
  );
  // Kysely's tables and ours have snake_case columns of their own: no CamelCasePlugin here.
  return database.db
    .withoutPlugins()
    .connection()
    .execute(async (conn) => {
      await sql`select pg_advisory_lock(${LOCK_KEY})`.execute(conn);
      try {
        await conn.transaction().execute(async (trx) => {
          await adoptOldRunner(trx);
          await checkFrozen(trx, files);
        });
        const migrator = new Migrator({
          db: conn,
          migrationTableName: MIGRATION_TABLE,
          provider: { getMigrations: async () => migrations },
          // Numbers are handed out to branches built in parallel; one that lands after a higher-numbered file
          // must still apply on a database already migrated past it (files are independent and frozen once run).
          allowUnorderedMigrations: true,
        });
        const { error, results = [] } = await migrator.migrateToLatest();
        if (error !== undefined) {
          const failed = results.find((r) => r.status === 'Error')?.migrationName;
          const reason = error instanceof Error ? error.message : String(error);
          throw new MigrationError(failed ? `migration ${failed}.sql failed: ${reason}` : reason, { cause: error });
        }
        return results.map((r) => r.migrationName);
      } finally {
        await sql`select pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
      }
    });
}
