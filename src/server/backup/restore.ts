/**
 * `npm run restore -- FILE` (decision 025): a backup into an empty target only — the database DATABASE_URL names,
 * or the embedded database of DATA_DIR with no server running on it — and its files into DATA_DIR/storage. Then the
 * ledger invariants are checked and the restored totals compared with the manifest's.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { MIGRATIONS_DIR } from '../db/migrate';
import { DataDirLockedError, lockDataDir } from '../lib/data-dir-lock';
import { KEY_FILE_NAME } from '../lib/field-cipher';
import { checkInvariants } from '../modules/ledger';
import { filesUnder, FORMAT, KEY_ENTRY, MANIFEST, type Manifest, STORAGE_PREFIX } from './common';
import { type DatabaseDescription, describeDatabase, notEmptyBecause } from './describe';
import { BackupError, restorePostgres, whereIs, withClient } from './postgres';
import { queryOn } from './socket';
import { extractEntry, readEntry, readTarIndex, type TarEntry } from './tar';

export interface Restored {
  description: DatabaseDescription;
  /** Lines about the key an operator must read. */
  notes: string[];
}

function readBackup(fd: number): { manifest: Manifest; entries: Map<string, TarEntry> } {
  let entries: Map<string, TarEntry>;
  try {
    entries = new Map(readTarIndex(fd).map((e) => [e.name, e]));
  } catch (error) {
    throw new BackupError(`not an arzpay backup: ${(error as Error).message}`);
  }
  const manifestEntry = entries.get(MANIFEST);
  const manifest = manifestEntry ? (JSON.parse(readEntry(fd, manifestEntry).toString('utf8')) as Manifest) : null;
  if (manifest?.format !== FORMAT || manifest.version !== 1)
    throw new BackupError('not an arzpay backup (no manifest)');
  if (!entries.has(manifest.database.entry)) throw new BackupError('the backup has no database inside');
  return { manifest, entries };
}

/** Refuses a backup of migrations this version does not have: the server would refuse to start on it. */
function checkMigrationsKnown(manifest: Manifest): void {
  const known = new Set(
    readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.slice(0, -4)),
  );
  const unknown = manifest.database.migrations.filter((m) => !known.has(m));
  if (unknown.length > 0) {
    throw new BackupError(
      `the backup has migrations this version lacks (${unknown.join(', ')}): restore with a newer one`,
    );
  }
}

function refuseUnlessEmptyStorage(dataDir: string): void {
  if (filesUnder(path.join(dataDir, 'storage')).length > 0) {
    throw new BackupError(`restore refused: ${path.join(dataDir, 'storage')} already holds files`);
  }
}

/**
 * The embedded database restored from the image into `staging` (a fresh folder beside the target), opened; the
 * target `dataDir` must be empty; the caller holds its lock and moves the folder in once every check passed.
 */
async function restorePglite(dataDir: string, staging: string, image: Buffer): Promise<DatabaseHandle> {
  const folder = path.join(dataDir, 'db');
  if (existsSync(path.join(folder, 'PG_VERSION'))) {
    const existing = await openDatabase({ databaseUrl: undefined, dataDir });
    try {
      const why = await notEmptyBecause(queryOn(existing.db.withoutPlugins() as unknown as Kysely<unknown>));
      if (why) throw new BackupError(`restore refused: the embedded database in ${folder} is not empty (${why})`);
    } finally {
      await existing.close();
    }
  }
  refuseUnlessEmptyStorage(dataDir);
  refuseDamagedImage(image);
  try {
    return await openDatabase({
      databaseUrl: undefined,
      dataDir: staging,
      restoreImage: new Blob([new Uint8Array(image)], { type: 'application/x-gzip' }),
    });
  } catch (error) {
    // An image whose gzip is whole but whose contents PGlite cannot open: one line, not PGlite's stack (decision 031).
    throw new BackupError(`restore refused: the backup's database image is damaged (${(error as Error).message})`);
  }
}

/**
 * The embedded database's image is a gzipped tar: its gzip trailer holds a CRC-32 of the whole, so unpacking it here
 * finds a damaged image before PGlite meets it (which ends in a WebAssembly stack trace).
 */
function refuseDamagedImage(image: Buffer): void {
  try {
    gunzipSync(image);
  } catch (error) {
    throw new BackupError(`restore refused: the backup's database image is damaged (${(error as Error).message})`);
  }
}

function restoreFiles(fd: number, entries: Map<string, TarEntry>, root: string): void {
  for (const [name, entry] of entries) {
    if (!name.startsWith(STORAGE_PREFIX)) continue;
    const target = path.resolve(root, name.slice(STORAGE_PREFIX.length));
    if (!target.startsWith(root + path.sep)) throw new BackupError(`the backup names a file outside storage: ${name}`);
    mkdirSync(path.dirname(target), { recursive: true });
    extractEntry(fd, entry, target);
  }
}

/** Moves the staged database folder (embedded) and files into the target, which the checks found empty. */
function moveInto(dataDir: string, staging: string): void {
  for (const part of ['db', 'storage']) {
    const from = path.join(staging, part);
    if (!existsSync(from)) continue;
    const to = path.join(dataDir, part);
    rmSync(to, { recursive: true, force: true });
    renameSync(from, to);
  }
}

/** Drops what a refused restore wrote into the (empty before) PostgreSQL database, so it is empty again. */
async function emptyPostgres(url: string): Promise<void> {
  await withClient(url, async (q) => {
    await q('drop schema public cascade');
    await q('create schema public');
  }).catch(() => {});
}

/** Writes the backup's key as DATA_DIR's key file when there is none; says what happened. */
function restoreKey(fd: number, entries: Map<string, TarEntry>, config: AppConfig): string[] {
  const entry = entries.get(KEY_ENTRY);
  if (!entry) {
    return [
      'field-encryption key: not in the backup; give the server the key it ran with (FIELD_ENCRYPTION_KEY, or ' +
        `its key file as ${path.join(config.dataDir, KEY_FILE_NAME)}), or stored passwords stay sealed`,
    ];
  }
  const key = readEntry(fd, entry);
  const file = path.join(config.dataDir, KEY_FILE_NAME);
  if (existsSync(file)) {
    if (readFileSync(file).equals(key)) return [`field-encryption key: ${file} already holds the backup's key`];
    writeFileSync(`${file}.from-backup`, key, { mode: 0o600, flag: 'wx' });
    return [`field-encryption key: ${file} holds another key; the backup's is in ${file}.from-backup`];
  }
  writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
  const env = config.fieldKeys.current ? ' (FIELD_ENCRYPTION_KEY is set: the server opens with both and re-seals)' : '';
  return [`field-encryption key: restored to ${file}${env}`];
}

/**
 * Compares what was restored with what the manifest says was backed up. The totals and the counts stay apart: both
 * have a `collections` (the amount received, the number of rows), and spread into one object the count hid the
 * amount (decision 031, «A refused restore»).
 */
function compare(manifest: Manifest, restored: DatabaseDescription): void {
  const expected = JSON.stringify({ totals: manifest.database.totals, counts: manifest.database.counts });
  const got = JSON.stringify({ totals: restored.totals, counts: restored.counts });
  if (expected !== got) throw new BackupError(`the restored database differs from the backup: ${got} != ${expected}`);
}

export async function restoreBackup(config: AppConfig, file: string): Promise<Restored> {
  if (config.databaseUrl === 'memory://') throw new BackupError('DATABASE_URL=memory:// cannot be restored into');
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new BackupError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const { manifest, entries } = readBackup(fd);
    const kind = config.databaseUrl === undefined ? 'pglite' : 'postgres';
    if (manifest.database.kind !== kind) {
      throw new BackupError(`the backup is of the ${manifest.database.kind} database; this configuration uses ${kind}`);
    }
    checkMigrationsKnown(manifest);
    const dbEntry = entries.get(manifest.database.entry)!;
    // Everything lands in a staging folder beside the target first and is moved in only after every check passed:
    // a refused restore leaves the target as empty as it was (decision 031).
    mkdirSync(config.dataDir, { recursive: true });
    const staging = mkdtempSync(path.join(config.dataDir, '.restore-'));
    const storage = path.join(staging, 'storage');
    let moveIn = false;
    let database: DatabaseHandle;
    let restoredInto: string | null = null;
    let release: (() => Promise<void>) | null = null;
    if (config.databaseUrl === undefined) {
      try {
        release = await lockDataDir(config.dataDir, () => {
          throw new BackupError('another process took the data directory over during the restore');
        });
      } catch (error) {
        if (error instanceof DataDirLockedError) {
          throw new BackupError(`restore refused: a server is running on ${config.dataDir}; stop it first`);
        }
        throw error;
      }
    }
    try {
      if (config.databaseUrl === undefined) {
        database = await restorePglite(config.dataDir, staging, readEntry(fd, dbEntry));
      } else {
        const url = config.databaseUrl;
        const why = await withClient(url, (q) => notEmptyBecause(q));
        if (why) throw new BackupError(`restore refused: the database at ${whereIs(url)} is not empty (${why})`);
        refuseUnlessEmptyStorage(config.dataDir);
        const work = mkdtempSync(path.join(os.tmpdir(), 'arzpay-restore-'));
        try {
          extractEntry(fd, dbEntry, path.join(work, 'database.dump'));
          await restorePostgres(url, path.join(work, 'database.dump'));
          // From here a refusal empties the database again (below).
          restoredInto = url;
        } finally {
          rmSync(work, { recursive: true, force: true });
        }
        database = await openDatabase({ databaseUrl: url, dataDir: config.dataDir });
      }
      let description: DatabaseDescription;
      try {
        restoreFiles(fd, entries, storage);
        const problems = await checkInvariants(database.db);
        if (problems.length > 0)
          throw new BackupError(`ledger invariants broken after restore: ${problems.join('; ')}`);
        description = await describeDatabase(queryOn(database.db.withoutPlugins() as unknown as Kysely<unknown>));
        compare(manifest, description);
        moveIn = true;
      } finally {
        await database.close();
      }
      moveInto(config.dataDir, staging);
      return { description, notes: restoreKey(fd, entries, config) };
    } finally {
      if (!moveIn && restoredInto) await emptyPostgres(restoredInto);
      rmSync(staging, { recursive: true, force: true });
      await release?.();
    }
  } finally {
    closeSync(fd);
  }
}
