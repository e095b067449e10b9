/**
 * The real-time channel with the real laravel-echo client: public events, private channels refused
 * without the right token, and (on PostgreSQL + Redis) delivery across two server processes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEcho, nextEvent, socketOf, waitConnected } from '../support/echo';
import {
  ADMIN_MOBILE,
  ADMIN_PASSWORD,
  bearer,
  loginAdmin,
  loginByCode,
  post,
  type RunningServer,
  startServer,
} from '../support/server';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ web: false });
});
afterAll(async () => server?.stop());

describe('real-time channel (one process)', () => {
  it('delivers currency.updated on the public channel after staff change a rate', async () => {
    const admin = await loginAdmin(server);
    const echo = connectEcho(server.url);
    try {
      await waitConnected(echo);
      const channel = echo.channel('public-general-channel');
      const received = nextEvent<{ code: string; rate: number }>(channel, '.currency.updated');
      await new Promise((r) => setTimeout(r, 100));
      const usd = (
        (await post(server, '/api/public/searchCurrencies', { search: 'USD' })).body.data as {
          items: Array<{ id: number; title: string; useForUafCpr: boolean; useForGoogleAdsAccountCr: boolean }>;
        }
      ).items[0]!;
      const saved = await post(
        server,
        '/api/sys/saveCurrency',
        {
          id: usd.id,
          title: usd.title,
          code: 'USD',
          rate: 1_111_000,
          useForUafCpr: usd.useForUafCpr,
          useForGoogleAdsAccountCr: usd.useForGoogleAdsAccountCr,
        },
        bearer(admin),
      );
      expect(saved.status).toBe(200);
      expect(await received).toMatchObject({ code: 'USD', rate: 1_111_000 });
    } finally {
      echo.disconnect();
    }
  });

  it("refuses another user's private channel and a guest's, and delivers to the owner", async () => {
    const alice = await loginByCode(server, '09160000001');
    const bob = await loginByCode(server, '09160000002');
    const aliceUid = (
      (await post(server, '/api/me/fetchUserData', undefined, bearer(alice))).body.data as { uid: string }
    ).uid;

    for (const token of [bob, undefined]) {
      const intruder = connectEcho(server.url, token);
      try {
        await waitConnected(intruder);
        const refused = new Promise<[string, number]>((resolve) =>
          socketOf(intruder).once('subscription_error', (channel: string, status: number) =>
            resolve([channel, status]),
          ),
        );
        intruder.private(`user.${aliceUid}`);
        const [channel, status] = await refused;
        expect(channel).toBe(`private-user.${aliceUid}`);
        expect(status).toBe(token ? 403 : 401);
      } finally {
        intruder.disconnect();
      }
    }

    const owner = connectEcho(server.url, alice);
    const staffEcho = connectEcho(server.url, await loginAdmin(server));
    try {
      await Promise.all([waitConnected(owner), waitConnected(staffEcho)]);
      const staffTask = nextEvent<{ type: string; color: string }>(staffEcho.private('staff'), '.task.created');
      const profileChanged = nextEvent<{ userId: number }>(
        owner.channel('public-general-channel'),
        '.userProfile.changed',
      );
      await new Promise((r) => setTimeout(r, 100));
      const { uploadForm, jpegWithExif } = await import('../support/images');
      const upload = await fetch(`${server.url}/api/me/uploadFile`, {
        method: 'POST',
        headers: bearer(alice),
        body: uploadForm(await jpegWithExif(), 'c.jpg'),
      });
      const card = ((await upload.json()) as { path: string }).path;
      await post(
        server,
        '/api/me/updateUserData',
        {
          nationalCode: '0499370899',
          firstName: 'آلیس',
          lastName: 'امینی',
          dateOfBirth: '1990-01-01',
          nationalCardImageAddress: card,
        },
        bearer(alice),
      );
      expect(await staffTask).toMatchObject({ type: 'approveProfileAsL1Task' });
      const changed = await profileChanged;
      expect(Object.keys(changed)).toEqual(['userId']);
    } finally {
      owner.disconnect();
      staffEcho.disconnect();
    }
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

function startProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const root = path.resolve(import.meta.dirname, '../..');
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', WEB_DIR: '/nonexistent', ...env },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no listen line: ${out}`)), 60_000);
    child.stdout?.on('data', (d) => {
      out += d;
      const match = /"port":(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${match[1]}` });
      }
    });
    child.stderr?.on('data', (d) => {
      out += d;
    });
  });
}

// Two processes need a database and a Redis they can share; `npm test` provides both when DATABASE_URL
// and REDIS_URL are set (CI sets them), in the PostgreSQL run of this suite.
describe.runIf(databaseUrl && redisUrl)('real-time channel across two processes (PostgreSQL + Redis)', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGTERM');
  });

  it('delivers an event caused through process A to a client of process B within a second', async () => {
    const env = {
      DATABASE_URL: databaseUrl!,
      REDIS_URL: redisUrl!,
      REDIS_KEY_PREFIX: `scale-${Date.now()}:`,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'arzpay-scale-')),
      ADMIN_USERNAME: ADMIN_MOBILE,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
    };
    const a = await startProcess(env);
    children.push(a.child);
    const b = await startProcess(env);
    children.push(b.child);

    const login = await fetch(`${a.url}/api/me/loginByPassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN_MOBILE, password: ADMIN_PASSWORD }),
    });
    const admin = ((await login.json()) as { data: { userToken: string } }).data.userToken;
    const echo = connectEcho(b.url);
    try {
      await waitConnected(echo);
      const received = nextEvent<{ rate: number }>(
        echo.channel('public-general-channel'),
        '.currency.updated',
        1000 + 500,
      );
      await new Promise((r) => setTimeout(r, 200));
      const list = await fetch(`${a.url}/api/public/searchCurrencies`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"search":"EUR"}',
      });
      const eur = ((await list.json()) as { data: { items: Array<Record<string, unknown>> } }).data.items[0]!;
      const started = Date.now();
      await fetch(`${a.url}/api/sys/saveCurrency`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body: JSON.stringify({
          id: eur.id,
          title: eur.title,
          code: 'EUR',
          rate: 1_234_000,
          useForUafCpr: eur.useForUafCpr,
          useForGoogleAdsAccountCr: eur.useForGoogleAdsAccountCr,
        }),
      });
      expect(await received).toMatchObject({ rate: 1_234_000 });
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      echo.disconnect();
    }
  });
});
