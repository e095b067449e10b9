/**
 * The production switch (issue 29, decision 023) through the real process entry: ARZPAY_ENV=production without one
 * of its required choices refuses to start with one line naming that setting, the sandbox bank is refused with one
 * line, and with every choice made (fake but well-formed credentials: nothing calls out at start) the server starts.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PRODUCTION, without } from '../support/production-env';
import { killLeft, listening, type ServerProcess, startServerProcess } from '../support/server-process';
import { skipEmbeddedCases } from '../support/stages';
import { restoreMigratedImage } from '../support/template-database';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-production-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

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
      PORT: '0',
      ADMIN_PASSWORD: 'production-admin-password',
      ...env,
    },
    // None of the settings under test comes from the environment the tests run in.
    { unset: [...Object.keys(PRODUCTION), 'KAVENEGAR_BASE_URL', 'ZARINPAL_BASE_URL', 'SANDBOX_BANK_URL'], started },
  );
}

const exited = (child: ServerProcess) => child.exited;

/** The lines a refused start printed, once it has exited with 1. */
async function refusal(env: Record<string, string>): Promise<string[]> {
  const child = start(env);
  expect(await exited(child)).toBe(1);
  expect(child.output().stdout).toBe('');
  return child.output().stderr.trim().split('\n');
}

// The refusals stop before the database opens (and before the server's modules load); the one full start opens an
// embedded database restored from the stage's migrated image (migrating from nothing is startup.test.ts's subject).
// Every case runs on its own embedded data folder, whichever stage runs the file.
describe.skipIf(skipEmbeddedCases(import.meta.url))('ARZPAY_ENV=production', { timeout: 120_000 }, () => {
  it.each([
    ['PAYMENT_GATEWAY', 'PAYMENT_GATEWAY is not set'],
    ['SMS_DRIVER', 'SMS_DRIVER is not set'],
    ['PUBLIC_URL', 'PUBLIC_URL is not set'],
    ['TRUST_PROXY', 'TRUST_PROXY is not set'],
    ['FIELD_ENCRYPTION_KEY', 'FIELD_ENCRYPTION_KEY is not set'],
    ['METRICS_TOKEN', 'METRICS_TOKEN is not set'],
  ] as const)('refuses to start without %s, with one line naming it', async (name, begins) => {
    const lines = await refusal(without(name));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^arzpay: configuration error: ${begins}: `));
  });

  it('refuses the sandbox bank with one line', async () => {
    expect(await refusal({ ...PRODUCTION, PAYMENT_GATEWAY: 'sandbox' })).toEqual([
      'arzpay: configuration error: PAYMENT_GATEWAY=sandbox is refused in production: the sandbox bank accepts any ' +
        'card and moves no money (set PAYMENT_GATEWAY=zarinpal)',
    ]);
  });

  it('refuses the log-only SMS driver with one line', async () => {
    const lines = await refusal({ ...PRODUCTION, SMS_DRIVER: 'log' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^arzpay: configuration error: SMS_DRIVER=log is refused in production: /);
  });

  // Issue 43: a list that trusts every address, however it is written, lets any client forge X-Forwarded-For (more
  // spellings in tests/unit/trusts-everyone.test.ts; each case here is a process start). A single 0.0.0.0/0 or ::/0
  // is already refused by the proxy-address parser itself.
  it.each([
    ['0.0.0.0/1,128.0.0.0/1', 'IPv4'],
    ['10.0.0.0/8, 128.0.0.0/128.0.0.0,0.0.0.0/1', 'IPv4'],
    ['::/1,8000::/1', 'IPv4'],
  ] as const)('refuses TRUST_PROXY=%s, which trusts every %s address', async (list, family) => {
    const lines = await refusal({ ...PRODUCTION, TRUST_PROXY: list });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^arzpay: configuration error: TRUST_PROXY="[^"]+" trusts every ${family} address`),
    );
  });

  it('refuses an administrator password the API would refuse, and a gateway over plain http', async () => {
    const weak = await refusal({ ...PRODUCTION, ADMIN_PASSWORD: '1' });
    expect(weak).toEqual([
      'arzpay: configuration error: ADMIN_PASSWORD must be at least 8 characters in production, as every password ' +
        '(or unset it: the first start prints a random one)',
    ]);
    expect(await refusal({ ...PRODUCTION, ADMIN_PASSWORD: 'رمز۱۲۳۴' })).toHaveLength(1);
    const http = await refusal({
      ...PRODUCTION,
      ZARINPAL_BASE_URL: 'http://payment.zarinpal.com',
      KAVENEGAR_BASE_URL: 'http://api.kavenegar.com',
    });
    expect(http).toEqual([
      'arzpay: configuration error: ZARINPAL_BASE_URL must be an https:// address in production, got "http://payment.zarinpal.com"',
      'arzpay: configuration error: KAVENEGAR_BASE_URL must be an https:// address in production, got "http://api.kavenegar.com"',
    ]);
  });

  it('with nothing else set, prints one line per missing choice', async () => {
    const lines = await refusal({ ARZPAY_ENV: 'production' });
    expect(lines.map((line) => /^arzpay: configuration error: (\w+)/.exec(line)?.[1])).toEqual([
      'PAYMENT_GATEWAY',
      'SMS_DRIVER',
      'PUBLIC_URL',
      'TRUST_PROXY',
      'FIELD_ENCRYPTION_KEY',
      'METRICS_TOKEN',
    ]);
  });

  it('starts with every choice made, serves no sandbox bank, and stops on SIGTERM', async () => {
    await restoreMigratedImage(dataDir);
    // A list of named proxies and ranges that do not cover everything starts.
    const child = start({ ...PRODUCTION, TRUST_PROXY: '127.0.0.1,10.0.0.0/8,0.0.0.0/1,fd00::/8' });
    const { port } = await listening(child);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/sandbox-bank/pay/anything`)).status).toBe(404);
    // Nothing about a key file created beside the data, and no demo warning.
    const { stdout } = child.output();
    expect(stdout).not.toContain('created a key file');
    expect(stdout).not.toContain('without ARZPAY_ENV=production');
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });
});
