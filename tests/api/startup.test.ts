/** The real process entry: configuration errors stop it with one line; SIGTERM shuts it down cleanly. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string>): ChildProcess & { output: () => { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/start.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', WEB_DIR: '/nonexistent', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  return Object.assign(child, { output: () => ({ stdout, stderr }) });
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

describe('process start-up', () => {
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

  it('starts on the embedded database, serves the API, and exits 0 on SIGTERM', async () => {
    const child = start({ PORT: '0', LOG_LEVEL: 'info' });
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listen line: ${JSON.stringify(child.output())}`)), 60_000);
      child.stdout?.on('data', () => {
        const match = /"port":(\d+)/.exec(child.output().stdout);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
    });
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await res.json()).toEqual({ result: true, msg: '', data: { database: 'pglite' } });
    // Logs are structured JSON lines (pino).
    const firstLine = child.output().stdout.trim().split('\n')[0] ?? '';
    expect(JSON.parse(firstLine)).toHaveProperty('level');
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(child.output().stdout).toContain('shutting down');
  });
});
