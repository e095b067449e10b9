/**
 * `npm run backup -- FILE|DIR [--with-key]` (decision 025): the database and the uploaded files in one tar, with a
 * manifest of what is inside. PostgreSQL is dumped with pg_dump; the embedded database by the server that runs on
 * DATA_DIR (through its backup socket) or, when none runs, by this command holding the data-directory lock. The
 * field-encryption key stays out unless `--with-key` is given; the command says where it is.
 */
import { closeSync, existsSync, mkdtempSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AppConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { DataDirLockedError, lockDataDir } from '../lib/data-dir-lock';
import {
  backupName,
  DATABASE_ENTRY,
  describeLine,
  fail,
  filesUnder,
  FORMAT,
  KEY_ENTRY,
  keyWhereabouts,
  MANIFEST,
  type Manifest,
  megabytes,
  STORAGE_PREFIX,
} from './common';
import { type DatabaseDescription, totalsLine } from './describe';
import { BackupError, dumpPostgres } from './postgres';
import { dumpEmbedded, requestBackup } from './socket';
import { TarWriter } from './tar';

/** The embedded database's image: from the running server, or opened here under the lock when none runs. */
async function dumpPglite(config: AppConfig): Promise<{ description: DatabaseDescription; image: Buffer }> {
  let release: () => Promise<void>;
  try {
    release = await lockDataDir(config.dataDir, () => fail('another process took the data directory over'));
  } catch (error) {
    if (error instanceof DataDirLockedError) return requestBackup(config.dataDir);
    throw error;
  }
  try {
    if (!existsSync(path.join(config.dataDir, 'db', 'PG_VERSION'))) {
      throw new BackupError(`there is no embedded database in ${path.join(config.dataDir, 'db')}`);
    }
    const database = await openDatabase({ databaseUrl: undefined, dataDir: config.dataDir });
    try {
      return await dumpRunning(database);
    } finally {
      await database.close();
    }
  } finally {
    await release();
  }
}

async function dumpRunning(database: DatabaseHandle) {
  const { description, image } = await dumpEmbedded(database);
  return { description, image: Buffer.from(await image.arrayBuffer()) };
}

/** Writes the backup to `target` (a new file, or a new timestamped file in a directory) and returns its manifest. */
export async function takeBackup(
  config: AppConfig,
  target: string,
  withKey: boolean,
  /** The server's own open database (the nightly backup): the embedded one is dumped in this process. */
  running?: DatabaseHandle,
): Promise<{ file: string; manifest: Manifest }> {
  if (config.databaseUrl === 'memory://') throw new BackupError('DATABASE_URL=memory:// keeps nothing to back up');
  const createdAt = new Date();
  const file = existsSync(target) && statSync(target).isDirectory() ? path.join(target, backupName(createdAt)) : target;
  if (existsSync(file)) throw new BackupError(`${file} already exists: name a new file or a directory`);
  const work = mkdtempSync(path.join(os.tmpdir(), 'arzpay-backup-'));
  const partial = `${file}.partial`;
  let fd: number | null = null;
  try {
    const kind = config.databaseUrl === undefined ? 'pglite' : 'postgres';
    const dump = path.join(work, 'database');
    let description: DatabaseDescription;
    if (config.databaseUrl === undefined) {
      const taken = running ? await dumpRunning(running) : await dumpPglite(config);
      await writeFile(dump, taken.image, { mode: 0o600 });
      description = taken.description;
    } else {
      description = await dumpPostgres(config.databaseUrl, dump);
    }
    // Files after the database: every file the dump names was written before it (uploads are written, then named).
    const files = filesUnder(path.join(config.dataDir, 'storage'));
    const key = withKey ? keyWhereabouts(config).key : null;
    if (withKey && !key) throw new BackupError('--with-key: there is no field-encryption key yet');
    const manifest: Manifest = {
      format: FORMAT,
      version: 1,
      createdAt: createdAt.toISOString(),
      database: { kind, entry: DATABASE_ENTRY[kind], ...description },
      files: { count: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0) },
      fieldKey: key !== null,
    };
    fd = openSync(partial, 'wx', 0o600);
    const tar = new TarWriter(fd);
    tar.addBuffer(MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    tar.addFile(DATABASE_ENTRY[kind], dump, statSync(dump).size, createdAt.getTime());
    for (const f of files) tar.addFile(STORAGE_PREFIX + f.relative, f.full, f.size, f.mtime);
    if (key) tar.addBuffer(KEY_ENTRY, Buffer.from(`${key.toString('hex')}\n`));
    tar.finish();
    closeSync(fd);
    fd = null;
    renameSync(partial, file);
    return { file, manifest };
  } catch (error) {
    if (fd !== null) closeSync(fd);
    rmSync(partial, { force: true });
    throw error;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** What the command prints after a backup: the file, what is inside, where the key is. */
export function report(config: AppConfig, file: string, manifest: Manifest): string[] {
  const { where } = keyWhereabouts(config);
  const lines = [
    `backup written: ${file} (${megabytes(statSync(file).size)})`,
    `database: ${manifest.database.kind}, ${describeLine(manifest.database)}`,
    `totals: ${totalsLine(manifest.database.totals)}`,
    `files: ${manifest.files.count} (${megabytes(manifest.files.bytes)})`,
  ];
  if (manifest.fieldKey) {
    lines.push(
      `field-encryption key: INSIDE this backup (--with-key), from ${where}: keep the file as safe as the key`,
    );
  } else if (where) {
    lines.push(`field-encryption key: not in the backup; it is in ${where}: keep a copy of it apart from the backups`);
  } else {
    lines.push('field-encryption key: none exists yet (the server creates one at its first start)');
  }
  return lines;
}
