/**
 * One process per data directory on the embedded database: a second real `start.ts` on the same DATA_DIR is
 * refused with one line naming the directory and a non-zero exit, the first keeps serving, and the lock is
 * released when the first shuts down. With PostgreSQL processes share DATA_DIR by design and take no lock.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedCasesRan } from '../support/stages';

const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-lock-'));
  dirs.push(dir);
  return dir;
}

type Started = ChildProcess & { output: () => { stdout: string; stderr: string }; exited: Promise<number | null> };

function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '',
      DATABASE_URL: '',
      REDIS_URL: '',
      WEB_DIR: '/nonexistent',
      LOG_LEVEL: 'info',
      ADMIN_PASSWORD: 'lock-test-password',
      ...env,
    },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return Object.assign(child, { output: () => ({ stdout, stderr }), exited });
}

/** Resolves with the port once the JSON log says the server is listening. */
function listening(child: Started): Promise<number> {
  return new Promise((resolve, reject) => {
    const find = () => {
      const line = child
        .output()
        .stdout.split('\n')
        .find((l) => l.includes('"msg":"listening on'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    };
    child.stdout?.on('data', find);
    find();
    void child.exited.then(() => reject(new Error(`exited before listening: ${JSON.stringify(child.output())}`)));
  });
}

async function stop(child: Started): Promise<void> {
  child.kill('SIGTERM');
  expect(await child.exited).toBe(0);
}

const health = async (port: number) => (await fetch(`http://127.0.0.1:${port}/api/health`)).json();

describe('one process per data directory', () => {
  it.skipIf(embeddedCasesRan)(
    'refuses a second server on the same DATA_DIR and frees the directory when the first stops',
    async () => {
      const dataDir = freshDataDir();
      const first = start({ DATA_DIR: dataDir });
      const port = await listening(first);

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
      expect(await health(port)).toEqual({ result: true, msg: '', data: { database: 'pglite' } });
      await stop(first);

      // Shutting down released the lock: the next start on the directory succeeds at once.
      const third = start({ DATA_DIR: dataDir });
      expect(await health(await listening(third))).toEqual({ result: true, msg: '', data: { database: 'pglite' } });
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
      const portA = await listening(a);
      const b = start(env);
      const portB = await listening(b);
      expect(await health(portA)).toEqual({ result: true, msg: '', data: { database: 'postgres' } });
      expect(await health(portB)).toEqual({ result: true, msg: '', data: { database: 'postgres' } });
      await stop(a);
      await stop(b);
    },
    180_000,
  );
});
