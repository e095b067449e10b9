/**
 * Migrations through Kysely's Migrator (src/server/db/migrate.ts), on the suite's database (PGlite, or
 * PostgreSQL when TEST_DATABASE_URL is set): files run whole, so `$$` function and trigger bodies work; a run
 * is one transaction; released files are frozen (checksums); a database the old runner migrated upgrades
 * without running anything again; several processes starting at once migrate once; the generated types
 * (src/generated/db.ts) are what this database gives.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseTypes, DB_TYPES_FILE } from '../../codegen/db-types';
import { checksumOf, migrate, MigrationError, MIGRATIONS_DIR } from '../../src/server/db/migrate';
import { emptyDatabase, type TestDatabase } from '../support/database';

const root = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(root, 'tests/fixtures/migrations');

let database: TestDatabase | null = null;
const tmpDirs: string[] = [];
afterEach(async () => {
  await database?.drop();
  database = null;
  for (const dir of tmpDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function fresh(label: string) {
  database = await emptyDatabase(label);
  return database;
}

/** A copy of a fixture folder that a test may change. */
function copyOf(fixture: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-migrations-'));
  tmpDirs.push(dir);
  cpSync(path.join(fixtures, fixture), dir, { recursive: true });
  return dir;
}

describe('SQL files run whole', () => {
  it('applies a plpgsql trigger and an SQL function whose $$ bodies hold semicolons at line ends', async () => {
    const handle = await (await fresh('mig_dollar')).open();
    const folder = path.join(fixtures, 'dollar-bodies');
    expect(await migrate(handle, { folder })).toEqual(['001_ledger', '002_balance']);
    const { db } = handle;
    expect((await sql<{ b: number }>`select balance() as b`.execute(db)).rows).toEqual([{ b: 750 }]);
    await expect(sql`update entries set amount = 0`.execute(db)).rejects.toThrow('ledger entries are append-only');
    await expect(sql`delete from entries`.execute(db)).rejects.toThrow('ledger entries are append-only');
    // Run again: nothing is pending.
    expect(await migrate(handle, { folder })).toEqual([]);
    const recorded = await sql<{ name: string; sha256: string }>`
      select name, sha256 from migration_checksums order by name`.execute(db);
    expect(recorded.rows).toEqual(
      ['001_ledger', '002_balance'].map((name) => ({
        name,
        sha256: checksumOf(readFileSync(path.join(folder, `${name}.sql`), 'utf8')),
      })),
    );
  });

  it('runs the pending files in one transaction: one failing file leaves nothing of the run behind', async () => {
    const handle = await (await fresh('mig_failing')).open();
    const error = await migrate(handle, { folder: path.join(fixtures, 'failing') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/^migration 002_breaks\.sql failed: division by zero/);
    const left = await sql<{ a: string | null; b: string | null; applied: number }>`
      select to_regclass('kept_only_if_all_pass')::text as a, to_regclass('half_done')::text as b,
        (select count(*)::int from kysely_migration) as applied`.execute(handle.db);
    expect(left.rows).toEqual([{ a: null, b: null, applied: 0 }]);
  });
});

describe('released migrations are frozen', () => {
  it('refuses to run when an applied file changed, and runs again once it is restored', async () => {
    const handle = await (await fresh('mig_frozen')).open();
    const folder = copyOf('dollar-bodies');
    await migrate(handle, { folder });
    const file = path.join(folder, '001_ledger.sql');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('append-only', 'append only'));
    writeFileSync(path.join(folder, '003_more.sql'), 'create table more (id int);\n');
    const error = await migrate(handle, { folder }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toBe(
      'migration 001_ledger.sql changed after it was applied; released migrations are frozen: ' +
        'restore the file and make the change in a new migration',
    );
    // Refused before anything ran: 003 is still pending.
    expect((await sql<{ t: string | null }>`select to_regclass('more')::text as t`.execute(handle.db)).rows).toEqual([
      { t: null },
    ]);
    // The same text with Windows line ends is the same file.
    writeFileSync(file, original.replaceAll('\n', '\r\n'));
    expect(await migrate(handle, { folder })).toEqual(['003_more']);
  });

  it('refuses a database with an applied migration whose file is gone', async () => {
    const handle = await (await fresh('mig_missing')).open();
    const folder = copyOf('dollar-bodies');
    await migrate(handle, { folder });
    rmSync(path.join(folder, '002_balance.sql'));
    await expect(migrate(handle, { folder })).rejects.toThrow(
      new MigrationError('migration 002_balance.sql was applied to this database but is missing'),
    );
  });
});

describe('a database the old runner migrated', () => {
  it('upgrades without running anything again, keeping its data, and then applies new files', async () => {
    const handle = await (await fresh('mig_old')).open();
    const { db } = handle;
    // What the old runner left: every current file applied, each recorded by its file name in schema_migrations.
    await sql`create table schema_migrations (name text primary key, applied_at timestamptz not null default now())`.execute(
      db,
    );
    const files = readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith('.sql'))
      .sort();
    for (const file of files) {
      await handle.runScript(db, readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8'));
      await sql`insert into schema_migrations (name) values (${file})`.execute(db);
    }
    await db.insertInto('users').values({ uid: 'kept', mobileNo: '09121234567' }).execute();

    expect(await migrate(handle)).toEqual([]);
    const names = files.map((f) => f.replace(/\.sql$/, ''));
    const adopted = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(adopted.rows.map((r) => r.name)).toEqual(names);
    const checksums = await sql<{ name: string }>`select name from migration_checksums order by name`.execute(db);
    expect(checksums.rows.map((r) => r.name)).toEqual(names);
    expect(await db.selectFrom('users').select('uid').execute()).toEqual([{ uid: 'kept' }]);
    // The old bookkeeping stays as it was.
    const old = await sql<{ n: number }>`select count(*)::int as n from schema_migrations`.execute(db);
    expect(old.rows).toEqual([{ n: files.length }]);

    // A new file after the adopted ones runs, with a function body.
    const folder = mkdtempSync(path.join(os.tmpdir(), 'arzpay-migrations-'));
    tmpDirs.push(folder);
    cpSync(MIGRATIONS_DIR, folder, { recursive: true });
    writeFileSync(
      path.join(folder, '999_later.sql'),
      "create function later() returns text language plpgsql as $$\nbegin\n  return 'later';\nend;\n$$;\n",
    );
    expect(await migrate(handle, { folder })).toEqual(['999_later']);
    expect((await sql<{ l: string }>`select later() as l`.execute(db)).rows).toEqual([{ l: 'later' }]);
  });
});

describe('migration 023: tracking codes in one canonical form', () => {
  it('keeps deposits whose codes collide in that form, marks each later one with the first, and refuses the code after', async () => {
    const handle = await (await fresh('mig_tracking')).open();
    const { db } = handle;
    // The database as it was before 023, holding one deposit recorded twice in other spellings and one that is not.
    const before = mkdtempSync(path.join(os.tmpdir(), 'arzpay-migrations-'));
    tmpDirs.push(before);
    for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql') && f < '023')) {
      cpSync(path.join(MIGRATIONS_DIR, file), path.join(before, file));
    }
    await migrate(handle, { folder: before });
    const user = await db
      .insertInto('users')
      .values({ uid: 'depositor', mobileNo: '09121234567' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const bank = await sql<{ id: number }>`insert into internal_bank_accounts (title, bank_name, account_no)
      values ('ملت', 'ملت', '123') returning id`.execute(db);
    const ids: number[] = [];
    for (const code of ['TRK-77 01', 'trk۷۷۰۱', 'TRK-77-02', 'ＴＲＫ７７０１']) {
      const row = await sql<{ id: number }>`insert into collections
        (user_id, source, amount, trace_code, tracking_code, source_account_no, internal_bank_account_id, recorded_by)
        values (${user.id}, 'offline', 1000, '1', ${code}, '1', ${bank.rows[0]!.id}, ${user.id}) returning id`.execute(
        db,
      );
      ids.push(Number(row.rows[0]!.id));
    }

    expect(await migrate(handle)).toContain('023_tracking_code_canonical');
    const rows = await sql<{ id: number; canonical: string; duplicateOf: number | null }>`
      select id, tracking_code_canonical as canonical, tracking_code_duplicate_of as "duplicateOf"
      from collections order by id`.execute(db);
    expect(
      rows.rows.map((r) => [Number(r.id), r.canonical, r.duplicateOf === null ? null : Number(r.duplicateOf)]),
    ).toEqual([
      [ids[0], 'trk7701', null],
      [ids[1], 'trk7701', ids[0]],
      [ids[2], 'trk7702', null],
      [ids[3], 'trk7701', ids[0]],
    ]);
    // From now on the code is taken in any spelling: the index holds the first of each.
    await expect(
      sql`insert into collections
        (user_id, source, amount, trace_code, tracking_code, tracking_code_canonical, source_account_no,
         internal_bank_account_id, recorded_by)
        values (${user.id}, 'offline', 1000, '1', 'trk-7702', 'trk7702', '1', ${bank.rows[0]!.id}, ${user.id})`.execute(
        db,
      ),
    ).rejects.toMatchObject({ code: '23505' });
  });
});

describe('several processes starting at once', () => {
  it('migrate once: one applies every file, the others find nothing pending', async () => {
    const target = await fresh('mig_parallel');
    // On PostgreSQL each handle is a pool of its own, like a process; PGlite has one session.
    const handles = await Promise.all([target.open(), target.open(), target.open()]);
    const folder = path.join(fixtures, 'dollar-bodies');
    const runs = await Promise.all(handles.map((h) => migrate(h, { folder })));
    expect(runs.flat().sort()).toEqual(['001_ledger', '002_balance']);
    expect(runs.filter((r) => r.length > 0)).toHaveLength(1);
  });
});

describe('generated database types', () => {
  it(`${DB_TYPES_FILE} is what this freshly migrated database gives`, async () => {
    const handle = await (await fresh('mig_types')).open();
    await migrate(handle);
    expect(await databaseTypes(handle.db.withoutPlugins())).toBe(readFileSync(path.join(root, DB_TYPES_FILE), 'utf8'));
  });
});
