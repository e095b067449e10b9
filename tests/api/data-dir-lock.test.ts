/**
 * One process per data directory on the embedded database: a second real `start.ts` on the same DATA_DIR is
 * refused with one line naming the directory and a non-zero exit, the first keeps serving, and the lock is
 * released when the first shuts down. With PostgreSQL processes share DATA_DIR by design and take no lock.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killLeft, listening, type ServerProcess, startServerProcess, stopProcess } from '../support/server-process';
import { skipEmbeddedCases } from '../support/stages';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  killLeft(children);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-lock-'));
  dirs.push(dir);
  return dir;
}

function start(env: Record<string, string>): ServerProcess {
  return startServerProcess(
    {
      PORT: '0',
      HOST: '',
      DATABASE_URL: '',
      REDIS_URL: '',
      WEB_DIR: '/nonexistent',
      LOG_LEVEL: 'info',
      ADMIN_PASSWORD: 'lock-test-password',
      ...env,
    },
    { started: children },
  );
}

const portOf = async (child: ServerProcess) => (await listening(child)).port;

async function stop(child: ServerProcess): Promise<void> {
  expect(await stopProcess(child)).toBe(0);
}

const health = async (port: number) => (await fetch(`http://127.0.0.1:${port}/api/health`)).json();

describe('one process per data directory', () => {
  it.skipIf(skipEmbeddedCases(import.meta.url))(
    'refuses a second server on the same DATA_DIR and frees the directory when the first stops',
    async () => {
      const dataDir = freshDataDir();
      const first = start({ DATA_DIR: dataDir });
      const port = await portOf(first);

      const second = start({ DATA_DIR: dataDir });
      const code = await second.exited;
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      const lines = second.output().stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^arzpay: the data directory .+ is in use by another arzpay process/);
      expect(lines[0]).toContain(dataDir);
      expect(second.output().stdout).not.toContain('listening on');

      // The first is untouched and still serves.
      expect(await health(port)).toMatchObject({ result: true, msg: '', data: { database: 'pglite' } });
      await stop(first);

      // Shutting down released the lock: the next start on the directory succeeds at once.
      const third = start({ DATA_DIR: dataDir });
      expect(await health(await portOf(third))).toMatchObject({ result: true, msg: '', data: { database: 'pglite' } });
      await stop(third);
    },
    180_000,
  );

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'lets several processes share DATA_DIR on PostgreSQL',
    async () => {
      const dataDir = freshDataDir();
      const env = { DATA_DIR: dataDir, DATABASE_URL: process.env.TEST_DATABASE_URL ?? '' };
      const a = start(env);
      const portA = await portOf(a);
      const b = start(env);
      const portB = await portOf(b);
      expect(await health(portA)).toMatchObject({ result: true, msg: '', data: { database: 'postgres' } });
      expect(await health(portB)).toMatchObject({ result: true, msg: '', data: { database: 'postgres' } });
      await stop(a);
      await stop(b);
    },
    180_000,
  );
});
