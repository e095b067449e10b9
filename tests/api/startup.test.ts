/** The real process entry: configuration errors stop it with one line; SIGTERM shuts it down cleanly. */
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { migrate } from '../../src/server/db/migrate';
import { killLeft, listening, type ServerProcess, startServerProcess, stopProcess } from '../support/server-process';
import { skipEmbeddedCases } from '../support/stages';
import { restoreMigratedImage } from '../support/template-database';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-start-'));
const extraDirs: string[] = [];
afterAll(() => {
  for (const dir of [dataDir, ...extraDirs]) rmSync(dir, { recursive: true, force: true });
});

/** An empty data directory: the start migrates it from nothing and creates its own administrator. */
function freshDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-start-'));
  extraDirs.push(dir);
  return dir;
}

let migrated: string | null = null;

/**
 * A data directory with every migration applied and nothing else (no administrator yet): a copy of one migrated
 * once here, for the cases whose subject is not the migrations (a start on an empty folder migrates it, a few
 * seconds of PGlite each; "starts on the embedded database" still starts from nothing). The one here is the stage's
 * migrated image restored (tests/support/template-database.ts), or, outside a stage, migrated here.
 */
async function migratedDataDir(): Promise<string> {
  if (!migrated) {
    migrated = freshDataDir();
    if (!(await restoreMigratedImage(migrated))) {
      const handle = await openDatabase({ databaseUrl: undefined, dataDir: migrated });
      try {
        await migrate(handle);
      } finally {
        await handle.close();
      }
    }
  }
  const dir = freshDataDir();
  cpSync(migrated, dir, { recursive: true });
  return dir;
}

const started: ChildProcess[] = [];
afterAll(() => killLeft(started));

function start(env: Record<string, string>): ServerProcess {
  return startServerProcess(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      WEB_DIR: '/nonexistent',
      HOST: '',
      ADMIN_PASSWORD: '',
      ...env,
    },
    { started },
  );
}

const exited = (child: ServerProcess) => child.exited;

async function stop(child: ServerProcess): Promise<void> {
  expect(await stopProcess(child)).toBe(0);
}

// Each test starts real processes on an embedded database, one of them migrating it from nothing: tens of seconds
// on a busy two-core machine (two minutes at a load of 20), so the budget, which only stops a hang, is wider than the
// API suite's 30 s per test.
// Every case starts its own process on its own embedded data folder (DATABASE_URL ''), whichever stage runs the file.
describe.skipIf(skipEmbeddedCases(import.meta.url))('process start-up', { timeout: 300_000 }, () => {
  it('refuses PORT=abc with one clear line', async () => {
    const child = start({ PORT: 'abc' });
    expect(await exited(child)).toBe(1);
    const lines = child.output().stderr.trim().split('\n');
    expect(lines).toEqual(['arzpay: configuration error: PORT must be a number from 0 to 65535, got "abc"']);
  });

  it('refuses an unreachable DATABASE_URL with one clear line', async () => {
    const child = start({ PORT: '0', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(await exited(child)).toBe(1);
    const lines = child.output().stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^arzpay: cannot connect to PostgreSQL at 127\.0\.0\.1:1\/none: /);
  });

  it('refuses to start when a released migration changed after it was applied, with one clear line', async () => {
    // A data directory migrated before 001's text changed: its recorded checksum is of another text.
    const dir = await migratedDataDir();
    const handle = await openDatabase({ databaseUrl: undefined, dataDir: dir });
    await sql`update migration_checksums set sha256 = 'of another text' where name = '001_catalogue'`.execute(
      handle.db,
    );
    await handle.close();
    const child = start({ PORT: '0', DATA_DIR: dir });
    expect(await exited(child)).toBe(1);
    expect(child.output().stderr.trim().split('\n')).toEqual([
      'arzpay: migration 001_catalogue.sql changed after it was applied; released migrations are frozen: ' +
        'restore the file and make the change in a new migration',
    ]);
  });

  it('starts on the embedded database, serves the API, and exits 0 on SIGTERM', async () => {
    const child = start({ PORT: '0', LOG_LEVEL: 'info' });
    const { port } = await listening(child);
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await res.json()).toMatchObject({ result: true, msg: '', data: { database: 'pglite' } });
    // Logs are structured JSON lines (pino).
    const firstLine = child.output().stdout.trim().split('\n')[0] ?? '';
    expect(JSON.parse(firstLine)).toHaveProperty('level');
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(child.output().stdout).toContain('shutting down');
  });

  it('listens on 127.0.0.1 unless HOST says otherwise', async () => {
    const child = start({ PORT: '0', DATA_DIR: await migratedDataDir() });
    const { port, host } = await listening(child);
    expect(host).toBe('127.0.0.1');
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    // From another interface of this machine (when it has one) nothing answers.
    const outside = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    if (outside) await expect(fetch(`http://${outside.address}:${port}/api/health`)).rejects.toThrow();
    await stop(child);

    const open = start({ PORT: '0', HOST: '0.0.0.0', DATA_DIR: await migratedDataDir() });
    expect((await listening(open)).host).toBe('0.0.0.0');
    await stop(open);
  });

  it('prints the generated administrator password as a plain boxed line once, on the start that creates it', async () => {
    const dir = await migratedDataDir();
    const first = start({ PORT: '0', DATA_DIR: dir, ADMIN_USERNAME: '09127654321' });
    const { port } = await listening(first);
    const { stdout, stderr } = first.output();
    const shown = [...stderr.matchAll(/^│ +password: (\S+) +│$/gm)];
    expect(shown).toHaveLength(1);
    expect(stderr).toMatch(/^│ +username: 09127654321 +│$/m);
    const password = shown[0]?.[1] ?? '';
    // Not inside the JSON log, and it really is the administrator's password.
    expect(stdout).not.toContain(password);
    const login = await fetch(`http://127.0.0.1:${port}/api/me/loginByPassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ username: '09127654321', password }),
    });
    expect(login.status).toBe(200);
    await stop(first);

    const second = start({ PORT: '0', DATA_DIR: dir, ADMIN_USERNAME: '09127654321' });
    await listening(second);
    await stop(second);
    expect(second.output().stderr).not.toContain('password:');
    expect(second.output().stderr).not.toContain(password);
  });
});
