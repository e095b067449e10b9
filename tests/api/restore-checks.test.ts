/**
 * Issue 43 D: what `npm run restore` refuses on the embedded database, as an operator runs it. A backup whose
 * database image is corrupted ends in one line, not a stack trace; a manifest whose collections' total amount was
 * edited (their number unchanged) is refused, as an edited count is.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST, type Manifest } from '../../src/server/backup/common';
import { readEntry, readTarIndex, TarWriter } from '../../src/server/backup/tar';
import { openDatabase } from '../../src/server/db/database';
import { skipEmbeddedCases } from '../support/stages';
import { pgliteImage } from '../support/template-database';

const root = path.resolve(import.meta.dirname, '../..');
const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
});
const tempDir = (label: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), `arzpay-${label}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

function command(name: 'backup' | 'restore', args: string[], dataDir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  for (const v of ['DATABASE_URL', 'FIELD_ENCRYPTION_KEY', 'ARZPAY_ENV']) delete env[v];
  const child = spawn(process.execPath, ['--import', 'tsx', `src/server/backup/${name}-command.ts`, ...args], {
    cwd: root,
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

/** A copy of the backup `from` with its manifest and database entry changed by `edit`. */
function edited(from: string, edit: (manifest: Manifest, database: Buffer) => Buffer): string {
  const source = openSync(from, 'r');
  const target = path.join(path.dirname(from), `edited-${Math.random().toString(36).slice(2)}.backup`);
  const out = openSync(target, 'wx');
  try {
    const entries = readTarIndex(source);
    const manifest = JSON.parse(
      readEntry(
        source,
        entries.find((e) => e.name === MANIFEST)!,
      ).toString(),
    ) as Manifest;
    const tar = new TarWriter(out);
    const database = edit(
      manifest,
      readEntry(
        source,
        entries.find((e) => e.name === manifest.database.entry)!,
      ),
    );
    tar.addBuffer(MANIFEST, Buffer.from(JSON.stringify(manifest)));
    tar.addBuffer(manifest.database.entry, database);
    for (const e of entries) {
      if (e.name !== MANIFEST && e.name !== manifest.database.entry) tar.addBuffer(e.name, readEntry(source, e));
    }
    tar.finish();
  } finally {
    closeSync(source);
    closeSync(out);
  }
  return target;
}

describe.skipIf(skipEmbeddedCases(import.meta.url))('restore checks of the embedded database', () => {
  let backup: string;
  beforeAll(async () => {
    const dataDir = tempDir('restore-checks-source');
    const seed = await openDatabase({ databaseUrl: undefined, dataDir, restoreImage: (await pgliteImage())! });
    await seed.close();
    const taken = await command('backup', [path.join(tempDir('restore-checks-backups'), 'x.backup')], dataDir);
    expect(taken.code, taken.stderr).toBe(0);
    backup = /backup written: (\S+)/.exec(taken.stdout)![1]!;
  }, 120_000);

  it('ends a corrupted database image in one line', async () => {
    const corrupted = edited(backup, (_, database) => {
      // The gzip header stays; what follows is noise.
      const bytes = Buffer.from(database);
      for (let i = 64; i < bytes.length; i += 7) bytes[i] = (bytes[i]! * 31 + 17) & 0xff;
      return bytes;
    });
    const restored = await command('restore', [corrupted], tempDir('restore-checks-corrupt'));
    expect(restored.code).toBe(1);
    expect(restored.stdout).toBe('');
    expect(restored.stderr.trim().split('\n'), restored.stderr).toHaveLength(1);
    expect(restored.stderr).toMatch(/^arzpay: restore refused: the backup's database image is damaged/);
  }, 120_000);

  it("refuses a manifest whose collections' total differs, their number the same", async () => {
    const tampered = edited(backup, (manifest, database) => {
      manifest.database.totals.collections += 1_000_000;
      return database;
    });
    const restored = await command('restore', [tampered], tempDir('restore-checks-total'));
    expect(restored.code).toBe(1);
    expect(restored.stderr.trim().split('\n'), restored.stderr).toHaveLength(1);
    expect(restored.stderr).toMatch(/^arzpay: the restored database differs from the backup/);
    expect(restored.stderr).toContain('collections');
  }, 120_000);
});
