/**
 * The SMS outbox holds across a crash and across processes (issue 31). The real server in a child process is killed
 * with SIGKILL while the provider holds a notification's SMS unanswered (claimed, in flight); started again on the
 * same data, it sends it once the claim's lease has run out, and never again. With PostgreSQL and Redis, two
 * servers on one database each drain the same outbox at once and every SMS goes out exactly once.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { LOCK_NAME, STALE_SECONDS } from '../../src/server/lib/data-dir-lock';
import { notify, type WrittenNotification } from '../../src/server/modules/notifications/notify';
import { withFreshDatabase } from '../support/postgres-admin';
import { killLeft, listening, startServerProcess, stopProcess } from '../support/server-process';
import { ADMIN_MOBILE, ADMIN_PASSWORD, bearer, type RunningServer, startServer } from '../support/server';
import { skipEmbeddedCases } from '../support/stages';

const started: ChildProcess[] = [];
afterAll(() => killLeft(started));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A Kavenegar stand-in whose sms/send either holds every call unanswered or accepts it. */
async function fakeProvider() {
  const sends: URL[] = [];
  const held: ServerResponse[] = [];
  const state = { hold: true };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (url.pathname.endsWith('/sms/send.json')) {
      sends.push(url);
      if (state.hold) {
        held.push(res);
        return;
      }
      res.end(JSON.stringify({ return: { status: 200, message: 'تایید شد' }, entries: [{ messageid: 555 }] }));
      return;
    }
    res.end(JSON.stringify({ return: { status: 200, message: 'تایید شد' }, entries: [{ messageid: 1 }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sends,
    state,
    close: () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
}

/** How long a wait for something the server does may take: long enough for a busy machine, it only stops a hang. */
const EVENT_MS = 90_000;

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  for (const start = Date.now(); !check(); await sleep(100)) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
  }
}

async function killMidSend(databaseUrl: string | undefined): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-notify-'));
  const provider = await fakeProvider();
  try {
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      REDIS_URL: '',
      HOST: '127.0.0.1',
      PORT: '0',
      WEB_DIR: '/nonexistent',
      LOG_LEVEL: 'info',
      ADMIN_USERNAME: ADMIN_MOBILE,
      ADMIN_PASSWORD,
      SMS_DRIVER: 'kavenegar',
      KAVENEGAR_API_KEY: 'key',
      KAVENEGAR_TEMPLATE: 'login',
      KAVENEGAR_BASE_URL: provider.url,
      NOTIFICATION_SMS_LEASE_SECONDS: '3',
      NOTIFICATION_SMS_INTERVAL_MS: '500',
    };
    const first = startServerProcess(env, { started });
    const { port } = await listening(first);
    const call = async (urlPath: string, body: unknown, token?: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${urlPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { data: unknown; msg: string } };
    };
    const login = await call('/api/me/loginByPassword', { username: ADMIN_MOBILE, password: ADMIN_PASSWORD });
    const token = (login.body.data as { userToken: string }).userToken;
    const changed = await call(
      '/api/me/changePassword',
      { password: 'another-password-1', currentPassword: ADMIN_PASSWORD },
      token,
    );
    expect(changed.status, changed.body.msg).toBe(200);
    // The worker claimed the SMS and the provider holds the call: the process dies mid-send.
    await until(() => provider.sends.length === 1, EVENT_MS, 'the first send');
    first.kill('SIGKILL');
    await first.exited;

    provider.state.hold = false;
    // The killed process left its data-folder lock: age it as a long-dead holder's (tests/api/crash-safety.test.ts).
    const lock = path.join(dataDir, LOCK_NAME);
    if (existsSync(lock)) {
      const stale = new Date(Date.now() - (STALE_SECONDS + 1) * 1000);
      utimesSync(lock, stale, stale);
    }
    const second = startServerProcess(env, { started });
    await listening(second);
    // Sent again once the dead claim's lease ran out, then never again.
    await until(() => provider.sends.length === 2, EVENT_MS, 'the send after the restart');
    await sleep(4_000);
    expect(provider.sends).toHaveLength(2);
    expect(provider.sends[1]!.searchParams.get('receptor')).toBe(ADMIN_MOBILE);
    expect(await stopProcess(second)).toBe(0);

    const handle = await openDatabase({ databaseUrl: databaseUrl || undefined, dataDir });
    try {
      const rows = await handle.db.selectFrom('notificationSms').selectAll().execute();
      expect(rows).toEqual([expect.objectContaining({ state: 'sent', attempts: 2, driverAnswer: '555' })]);
    } finally {
      await handle.close();
    }
  } finally {
    provider.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('a SIGKILL while an SMS is being sent', () => {
  it.skipIf(skipEmbeddedCases(import.meta.url))(
    'on the embedded database: sent once after the restart',
    () => killMidSend(undefined),
    180_000,
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    'on PostgreSQL: sent once after the restart',
    () => withFreshDatabase(process.env.TEST_DATABASE_URL!, 'notify_kill', (url) => killMidSend(url)),
    180_000,
  );
});

describe.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)('two servers on one database', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
  });

  it('send each SMS of the shared outbox exactly once', async () => {
    const env = { NOTIFICATION_SMS_INTERVAL_MS: '3600000' };
    servers.push(await startServer({ web: false, env }));
    servers.push(await startServer({ web: false, env, resetDatabase: false }));
    const [one, two] = servers as [RunningServer, RunningServer];
    const noon = new Date('2030-03-10T09:00:00Z');
    for (const s of servers) s.app.notificationSms.now = () => noon;
    const admin = await one.app.database.db
      .selectFrom('users')
      .select('id')
      .where('mobileNo', '=', ADMIN_MOBILE)
      .executeTakeFirstOrThrow();
    const written: WrittenNotification[] = await one.app.database.db.transaction().execute(async (trx) => {
      const all: WrittenNotification[] = [];
      for (let i = 0; i < 60; i++) {
        const n = await notify(
          trx,
          { userId: admin.id, kind: 'purchaseTaken', params: { title: `درخواست ${i}` }, eventKey: `two:${i}` },
          noon,
        );
        all.push(n!);
      }
      return all;
    });
    await Promise.all([one.app.notificationSms.drain(), two.app.notificationSms.drain()]);
    await Promise.all([one.app.notificationSms.drain(), two.app.notificationSms.drain()]);
    const sent = [...one.logs, ...two.logs].filter((l) => l.msg === 'sms' && l.mobileNo === ADMIN_MOBILE);
    for (const n of written) expect(sent.filter((l) => l.text === n.text)).toHaveLength(1);
    expect(sent).toHaveLength(written.length);
    const states = await one.app.database.db.selectFrom('notificationSms').select(['state', 'attempts']).execute();
    expect(states.every((r) => r.state === 'sent' && r.attempts === 1)).toBe(true);
  }, 240_000);
});
