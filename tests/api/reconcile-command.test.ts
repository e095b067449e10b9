/**
 * `npm run reconcile -- --date <Jalali day>` against a running server's embedded database (through its control
 * socket, since the server holds the folder) and, with TEST_DATABASE_URL, against PostgreSQL directly: exit 1 and
 * the kind named while a gateway settlement has no collection, exit 0 once that row is resolved.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { resolveRow } from '../../src/server/modules/reconciliation/runs';
import { newAuthority } from '../../src/server/modules/sandbox-bank/bank';
import { tehranDayOf } from '../../src/shared/calendar/tehran-day';
import { gregorianToJalali } from '../../src/shared/calendar';
import { type RunningServer, startServer } from '../support/server';
import { skipEmbeddedCases } from '../support/stages';
import { pgliteImage } from '../support/template-database';

const root = path.resolve(import.meta.dirname, '../..');
const testUrl = process.env.TEST_DATABASE_URL;
const cleanups: Array<() => Promise<unknown> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const day = tehranDayOf(new Date());
const jalaliDay = gregorianToJalali(`${day}T12:00:00`).replace(/\//g, '-');

function reconcile(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const inherited = { ...process.env };
  for (const v of ['DATABASE_URL', 'DATA_DIR', 'FIELD_ENCRYPTION_KEY', 'ARZPAY_ENV']) delete inherited[v];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/reconcile-command.ts', '--date', jalaliDay], {
    cwd: root,
    env: { ...inherited, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

async function commandFindsThenClears(server: RunningServer, env: Record<string, string>) {
  const db = server.app.database.db;
  await db
    .insertInto('sandboxBankPayments')
    .values({
      authority: newAuthority(),
      merchantId: '00000000-0000-0000-0000-000000000000',
      amount: 40_000,
      description: 'fault',
      callbackUrl: 'https://example.com/back',
      state: 'paid',
      cardNo: '603799******7890',
      referenceId: '9200000001',
      expiresAt: new Date(Date.now() + 60_000),
      paidAt: new Date(),
    })
    .execute();
  const found = await reconcile(env);
  expect(found.stderr).toBe('');
  expect(found.code).toBe(1);
  expect(found.stdout).toContain(`reconciliation of the Tehran day ${day}`);
  expect(found.stdout).toContain('gatewayWithoutCollection: 1');
  // The day's trial balance follows, its totals at zero.
  expect(found.stdout).toContain('trial balance');
  expect(found.stdout).toMatch(/\n\s+total\s+0\s+(\d+)\s+\1\s+0\n/);
  expect(found.stdout).toMatch(/\n\s+gatewayClearing\s+-?\d+/);
  const row = await db
    .selectFrom('reconciliationRows')
    .select('id')
    .where('kind', '=', 'gatewayWithoutCollection')
    .executeTakeFirstOrThrow();
  expect(await resolveRow(db, row.id, 'بررسی شد', 1)).toBe('resolved');
  const clear = await reconcile(env);
  expect(clear.code, clear.stderr).toBe(0);
  expect(clear.stdout).toContain('unmatched: 1 (0 not resolved)');
}

describe.skipIf(skipEmbeddedCases(import.meta.url))('npm run reconcile on the embedded database a server holds', () => {
  it('asks the running server and exits 1 while a row is unmatched, 0 once resolved', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-reconcile-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const seed = await openDatabase({ databaseUrl: undefined, dataDir, restoreImage: (await pgliteImage())! });
    await seed.close();
    const server = await startServer({ web: false, dataDir, embedded: true });
    cleanups.push(() => server.stop());
    await commandFindsThenClears(server, { DATA_DIR: dataDir });
  }, 120_000);
});

describe.skipIf(!testUrl?.startsWith('postgres'))('npm run reconcile on PostgreSQL', () => {
  it('opens the database directly and exits 1 while a row is unmatched, 0 once resolved', async () => {
    const server = await startServer({ web: false });
    cleanups.push(() => server.stop());
    await commandFindsThenClears(server, { DATABASE_URL: testUrl!, DATA_DIR: server.dataDir });
  }, 120_000);
});
