/** What `npm run backup` and `npm run restore` share: the manifest, the key's whereabouts, the files, one-line exits. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type AppConfig } from '../config';
import { KEY_FILE_NAME, keyFromDataDir } from '../lib/field-cipher';
import type { DatabaseDescription } from './describe';

export const FORMAT = 'arzpay-backup';
export const MANIFEST = 'manifest.json';
export const KEY_ENTRY = 'field-encryption.key';
export const STORAGE_PREFIX = 'storage/';
export const DATABASE_ENTRY = { pglite: 'database/pglite.tar.gz', postgres: 'database/postgres.dump' } as const;

export interface Manifest {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  database: DatabaseDescription & { kind: 'pglite' | 'postgres'; entry: string };
  files: { count: number; bytes: number };
  /** Whether the field-encryption key is inside (`--with-key`). */
  fieldKey: boolean;
}

/** Prints `arzpay: <message>` on stderr and exits 1: an operator reads one line, never a stack. */
export function fail(message: string): never {
  console.error(`arzpay: ${message}`);
  process.exit(1);
}

export function configOrFail(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`configuration error: ${error.message}`);
    throw error;
  }
}

/**
 * Where the field-encryption key is (never the key): the environment, or the key file under DATA_DIR, or nowhere
 * yet. `key` is the current key, for `--with-key`.
 */
export function keyWhereabouts(config: AppConfig): { where: string | null; key: Buffer | null } {
  if (config.fieldKeys.current)
    return { where: 'FIELD_ENCRYPTION_KEY (the environment)', key: config.fieldKeys.current };
  const file = path.join(config.dataDir, KEY_FILE_NAME);
  if (!existsSync(file)) return { where: null, key: null };
  return { where: file, key: keyFromDataDir(config.dataDir).key };
}

export interface StoredFile {
  relative: string;
  full: string;
  size: number;
  mtime: number;
}

/** The regular files under `root`, with paths relative to it ('/'-separated). */
export function filesUnder(root: string): StoredFile[] {
  if (!existsSync(root)) return [];
  const files: StoredFile[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    try {
      const stat = statSync(full);
      files.push({
        relative: path.relative(root, full).split(path.sep).join('/'),
        full,
        size: stat.size,
        mtime: stat.mtimeMs,
      });
    } catch {
      // removed meanwhile (the orphan clean-up): nothing to keep
    }
  }
  return files.sort((a, b) => a.relative.localeCompare(b.relative));
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `arzpay-2026-11-28T031502Z.backup`: when the backup was taken, in UTC, sortable by name. */
export function backupName(at: Date): string {
  const iso = at.toISOString();
  return `arzpay-${iso.slice(0, 10)}T${iso.slice(11, 19).replace(/:/g, '')}Z.backup`;
}

export function describeLine(d: DatabaseDescription): string {
  const counts = Object.entries(d.counts)
    .map(([table, n]) => `${table} ${n}`)
    .join(', ');
  return `${d.migrations.length} migrations; ${counts}`;
}
