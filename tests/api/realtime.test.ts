/**
 * The real-time channel with the real laravel-echo client (and a bare socket.io client for floods): public events,
 * private channels refused without the right token, one identity per connection, a budget of subscribe events,
 * the staff channel only for staff whose actions its events concern, each event only to whom it concerns, and
 * (on PostgreSQL + Redis) delivery across two server processes.
 *
 * "Did not receive" is checked without waiting a fixed time: after the action, a currency change goes to the public
 * channel that every socket here also joined, and the server sends a socket's events in order, so once that
 * event has arrived anything sent before it would have arrived too.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_LIMITS } from '../../src/server/realtime/connection';
import { killLeft, listening, startServerProcess } from '../support/server-process';
import { connectEcho, nextEvent, socketOf, subscription, waitConnected } from '../support/echo';
import { jpegWithExif, uploadForm } from '../support/images';
import {
  ADMIN_MOBILE,
  ADMIN_PASSWORD,
  bearer,
  loginAdmin,
  loginByCode,
  post,
  type RunningServer,
  startServer,
  staffWithActions,
} from '../support/server';

const PUBLIC = 'public-general-channel';
const STAFF = 'private-staff';

let server: RunningServer;
let admin: string;
beforeAll(async () => {
  server = await startServer({ web: false });
  admin = await loginAdmin(server);
});
afterAll(async () => server?.stop());

/** A valid national code built from nine digits (the tenth is the check digit). */
function nationalCode(nine: string): string {
  const sum = [...nine].reduce((acc, d, i) => acc + Number(d) * (10 - i), 0);
  const r = sum % 11;
  return `${nine}${r < 2 ? r : 11 - r}`;
}

async function me(baseUrl: string, token: string): Promise<{ id: number; uid: string }> {
  const res = await fetch(`${baseUrl}/api/me/fetchUserData`, { method: 'POST', headers: bearer(token) });
  return ((await res.json()) as { data: { id: number; uid: string } }).data;
}

/** Fills the caller's profile with a card image; this sends userProfile.changed (and task.created when new). */
async function submitProfile(baseUrl: string, token: string, code: string): Promise<void> {
  const upload = await fetch(`${baseUrl}/api/me/uploadFile`, {
    method: 'POST',
    headers: bearer(token),
    body: uploadForm(await jpegWithExif(), 'card.jpg'),
  });
  const card = ((await upload.json()) as { path: string }).path;
  const saved = await fetch(`${baseUrl}/api/me/updateUserData`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(token) },
    body: JSON.stringify({
      nationalCode: code,
      firstName: 'آلیس',
      lastName: 'امینی',
      dateOfBirth: '1990-01-01',
      nationalCardImageAddress: card,
    }),
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
}

/** Changes a currency's rate: currency.updated on the public channel (also the ordering barrier). */
async function changeRate(baseUrl: string, adminToken: string, code: string, rate: number): Promise<void> {
  const list = await fetch(`${baseUrl}/api/public/searchCurrencies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ search: code }),
  });
  const currency = ((await list.json()) as { data: { items: Array<Record<string, unknown>> } }).data.items[0]!;
  const saved = await fetch(`${baseUrl}/api/sys/saveCurrency`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(adminToken) },
    body: JSON.stringify({
      id: currency.id,
      title: currency.title,
      code,
      rate,
      useForUafCpr: currency.useForUafCpr,
      useForGoogleAdsAccountCr: currency.useForGoogleAdsAccountCr,
    }),
  });
  expect(saved.status).toBe(200);
}

/** A bare socket.io client speaking the wire protocol, for sending what no Echo client would. */
async function rawSocket(): Promise<Socket> {
  const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Resolves with the reason once the socket is disconnected. */
const disconnected = (socket: Socket) =>
  new Promise<string>((resolve) => socket.once('disconnect', (reason: string) => resolve(reason)));

const madeUpToken = () => `Bearer ${randomBytes(30).toString('base64url')}`;

describe('real-time channel (one process)', () => {
  it('delivers currency.updated on the public channel after staff change a rate', async () => {
    const echo = connectEcho(server.url);
    try {
      await waitConnected(echo);
      const joined = subscription(echo, PUBLIC);
      const received = nextEvent<{ code: string; rate: number }>(echo.channel(PUBLIC), '.currency.updated');
      expect(await joined).toBe('joined');
      await changeRate(server.url, admin, 'USD', 1_111_000);
      // The saved row as the API lists it, no more (CurrencyUpdatedPayload allows no other field).
      expect(await received).toEqual({
        id: expect.any(Number),
        title: expect.any(String),
        code: 'USD',
        rate: 1_111_000,
        rateUpdatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        useForUafCpr: expect.any(Boolean),
        useForGoogleAdsAccountCr: expect.any(Boolean),
      });
    } finally {
      echo.disconnect();
    }
  });

  it("refuses another user's private channel and a guest's, and delivers to the owner", async () => {
    const alice = await loginByCode(server, '09160000001');
    const bob = await loginByCode(server, '09160000002');
    const aliceUid = (await me(server.url, alice)).uid;

    for (const token of [bob, undefined]) {
      const intruder = connectEcho(server.url, token);
      try {
        await waitConnected(intruder);
        const refused = subscription(intruder, `private-user.${aliceUid}`);
        intruder.private(`user.${aliceUid}`);
        expect(await refused).toBe(token ? 403 : 401);
      } finally {
        intruder.disconnect();
      }
    }

    const owner = connectEcho(server.url, alice);
    const staffEcho = connectEcho(server.url, admin);
    try {
      await Promise.all([waitConnected(owner), waitConnected(staffEcho)]);
      const joined = [subscription(staffEcho, STAFF), subscription(owner, `private-user.${aliceUid}`)];
      const staffTask = nextEvent<{ type: string; color: string }>(staffEcho.private('staff'), '.task.created');
      const profileChanged = nextEvent<{ userId: number }>(owner.private(`user.${aliceUid}`), '.userProfile.changed');
      expect(await Promise.all(joined)).toEqual(['joined', 'joined']);
      await submitProfile(server.url, alice, '0499370899');
      expect(await staffTask).toMatchObject({ type: 'approveProfileAsL1Task' });
      const changed = await profileChanged;
      expect(Object.keys(changed)).toEqual(['userId']);
    } finally {
      owner.disconnect();
      staffEcho.disconnect();
    }
  });

  it('drops a socket whose subscriptions with made-up tokens keep failing', async () => {
    const socket = await rawSocket();
    const statuses: number[] = [];
    socket.on('subscription_error', (_channel: string, status: number) => statuses.push(status));
    const dropped = disconnected(socket);
    // Fewer events than the budget, so what ends the connection is the failures, not the budget.
    for (let i = 0; i < LIVE_LIMITS.eventsPerWindow - 2; i++) {
      socket.emit('subscribe', {
        channel: 'private-user.someone',
        auth: { headers: { Authorization: madeUpToken() } },
      });
    }
    expect(await dropped).toBe('io server disconnect');
    expect(statuses).toEqual(Array(LIVE_LIMITS.maxFailures).fill(401));
  });

  it('refuses subscribe events beyond the budget and drops the socket', async () => {
    const socket = await rawSocket();
    let joinedCount = 0;
    const allJoined = new Promise<void>((resolve) =>
      socket.on('subscription_succeeded', () => {
        joinedCount += 1;
        if (joinedCount === LIVE_LIMITS.eventsPerWindow) resolve();
      }),
    );
    for (let i = 0; i < LIVE_LIMITS.eventsPerWindow; i++) socket.emit('subscribe', { channel: PUBLIC });
    await allJoined;

    const refused = new Promise<number>((resolve) =>
      socket.once('subscription_error', (_channel: string, status: number) => resolve(status)),
    );
    const dropped = disconnected(socket);
    socket.emit('subscribe', { channel: PUBLIC });
    expect(await refused).toBe(429);
    expect(await dropped).toBe('io server disconnect');
    expect(joinedCount).toBe(LIVE_LIMITS.eventsPerWindow);
  });

  it('refuses channel names that do not exist', async () => {
    const echo = connectEcho(server.url, admin);
    try {
      await waitConnected(echo);
      for (const name of ['presence-chat', 'private-anything', 'public-other', 'private-user.', 'x'.repeat(300)]) {
        const answer = subscription(echo, name.slice(0, 200));
        socketOf(echo).emit('subscribe', { channel: name, auth: { headers: bearer(admin) } });
        expect(await answer).toBe(404);
      }
    } finally {
      echo.disconnect();
    }
  });

  it('binds a socket to the first identity it proves: its own channels open, another token is refused', async () => {
    const adminUid = (await me(server.url, admin)).uid;
    const carol = await loginByCode(server, '09160000003');
    const carolUid = (await me(server.url, carol)).uid;
    const echo = connectEcho(server.url, admin);
    try {
      await waitConnected(echo);
      const own = subscription(echo, `private-user.${adminUid}`);
      echo.private(`user.${adminUid}`);
      expect(await own).toBe('joined');
      const staff = subscription(echo, STAFF);
      echo.private('staff');
      expect(await staff).toBe('joined');
      // A valid token of someone else on the same connection is refused.
      const other = subscription(echo, `private-user.${carolUid}`);
      socketOf(echo).emit('subscribe', { channel: `private-user.${carolUid}`, auth: { headers: bearer(carol) } });
      expect(await other).toBe(401);
    } finally {
      echo.disconnect();
    }
  });

  it('drops the sockets of a session when it logs out', async () => {
    const dave = await loginByCode(server, '09160000004');
    const daveUid = (await me(server.url, dave)).uid;
    const echo = connectEcho(server.url, dave);
    try {
      await waitConnected(echo);
      const joined = subscription(echo, `private-user.${daveUid}`);
      echo.private(`user.${daveUid}`);
      expect(await joined).toBe('joined');
      const dropped = new Promise<string>((resolve) => socketOf(echo).once('disconnect', resolve));
      expect((await post(server, '/api/me/logout', undefined, bearer(dave))).status).toBe(200);
      expect(await dropped).toBe('io server disconnect');
    } finally {
      echo.disconnect();
    }
  });

  it('opens the staff channel only to staff whose actions its events concern, and sends each event to them', async () => {
    const noActions = (await staffWithActions(server, [], '09170000001')).token;
    const currenciesOnly = (await staffWithActions(server, ['manageCurrencies'], '09170000002')).token;
    const reviewer = (await staffWithActions(server, ['approveProfileL1'], '09170000003')).token;
    const accessManager = (await staffWithActions(server, ['manageAccess'], '09170000004')).token;
    const customer = await loginByCode(server, '09160000005');
    const customerId = (await me(server.url, customer)).id;

    for (const token of [noActions, currenciesOnly]) {
      const echo = connectEcho(server.url, token);
      try {
        await waitConnected(echo);
        const refused = subscription(echo, STAFF);
        echo.private('staff');
        expect(await refused).toBe(403);
      } finally {
        echo.disconnect();
      }
    }

    const sockets = {
      reviewer: connectEcho(server.url, reviewer),
      accessManager: connectEcho(server.url, accessManager),
    };
    const seen: Record<keyof typeof sockets, string[]> = { reviewer: [], accessManager: [] };
    try {
      const barriers = await Promise.all(
        (Object.keys(sockets) as Array<keyof typeof sockets>).map(async (name) => {
          const echo = sockets[name];
          await waitConnected(echo);
          const joined = [subscription(echo, STAFF), subscription(echo, PUBLIC)];
          const staff = echo.private('staff');
          for (const event of ['task.created', 'task.claimed', 'userProfile.changed']) {
            staff.listen(`.${event}`, (data: unknown) => seen[name].push(`${event} ${JSON.stringify(data)}`));
          }
          const barrier = nextEvent(echo.channel(PUBLIC), '.currency.updated');
          expect(await Promise.all(joined)).toEqual(['joined', 'joined']);
          return { barrier };
        }),
      );
      await submitProfile(server.url, customer, nationalCode('123456789'));
      await changeRate(server.url, admin, 'USD', 1_222_000);
      await Promise.all(barriers.map((b) => b.barrier));

      expect(seen.reviewer).toHaveLength(1);
      expect(seen.reviewer[0]).toMatch(/^task\.created .*"type":"approveProfileAsL1Task"/);
      expect(seen.accessManager).toEqual([`userProfile.changed {"userId":${customerId}}`]);
    } finally {
      for (const echo of Object.values(sockets)) echo.disconnect();
    }
  });

  it('sends userProfile.changed to the user concerned only, never on the public channel', async () => {
    const alice = await loginByCode(server, '09160000006');
    const bob = await loginByCode(server, '09160000007');
    const aliceMe = await me(server.url, alice);
    const bobUid = (await me(server.url, bob)).uid;
    const aliceEcho = connectEcho(server.url, alice);
    const bobEcho = connectEcho(server.url, bob);
    const bobSaw: unknown[] = [];
    try {
      await Promise.all([waitConnected(aliceEcho), waitConnected(bobEcho)]);
      const joined = [
        subscription(aliceEcho, `private-user.${aliceMe.uid}`),
        subscription(bobEcho, PUBLIC),
        subscription(bobEcho, `private-user.${bobUid}`),
      ];
      const aliceChanged = nextEvent<{ userId: number }>(
        aliceEcho.private(`user.${aliceMe.uid}`),
        '.userProfile.changed',
      );
      bobEcho.channel(PUBLIC).listen('.userProfile.changed', (d: unknown) => bobSaw.push(d));
      bobEcho.private(`user.${bobUid}`).listen('.userProfile.changed', (d: unknown) => bobSaw.push(d));
      const barrier = nextEvent(bobEcho.channel(PUBLIC), '.currency.updated');
      expect(await Promise.all(joined)).toEqual(['joined', 'joined', 'joined']);

      await submitProfile(server.url, alice, nationalCode('234567891'));
      expect(await aliceChanged).toEqual({ userId: aliceMe.id });
      await changeRate(server.url, admin, 'USD', 1_333_000);
      await barrier;
      expect(bobSaw).toEqual([]);
    } finally {
      aliceEcho.disconnect();
      bobEcho.disconnect();
    }
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

/** A server process of its own (src/server/start.ts), on a port the system picks; its URL once it listens. */
async function startProcess(env: Record<string, string>, started: ChildProcess[]): Promise<{ url: string }> {
  const child = startServerProcess({ PORT: '0', HOST: '127.0.0.1', WEB_DIR: '/nonexistent', ...env }, { started });
  const { port } = await listening(child);
  return { url: `http://127.0.0.1:${port}` };
}

async function loginThrough(baseUrl: string, username: string, password: string): Promise<string> {
  const login = await fetch(`${baseUrl}/api/me/loginByPassword`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  expect(login.status).toBe(200);
  return ((await login.json()) as { data: { userToken: string } }).data.userToken;
}

/** A customer with a password, made by staff (the code log-in would need the other process's SMS log). */
async function customerThrough(baseUrl: string, adminToken: string, mobileNo: string, password: string) {
  const saved = await fetch(`${baseUrl}/api/users/saveUser`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(adminToken) },
    body: JSON.stringify({ mobileNo, isStaff: false, password }),
  });
  expect(saved.status).toBe(200);
  return ((await saved.json()) as { data: { id: number } }).data.id;
}

// Two processes need a database and a Redis they can share; `npm test` provides both when DATABASE_URL
// and REDIS_URL are set (CI sets them), in the PostgreSQL run of this suite.
// A process imports the whole server through tsx before it listens: seconds on a quiet machine, tens of seconds on
// a busy one, so these tests have the limit the other process-starting files have.
describe.runIf(databaseUrl && redisUrl)(
  'real-time channel across two processes (PostgreSQL + Redis)',
  { timeout: 120_000 },
  () => {
    const children: ChildProcess[] = [];
    afterAll(() => killLeft(children));

    it('delivers public, private and staff events caused through process A to a client of process B', async () => {
      const env = {
        DATABASE_URL: databaseUrl!,
        REDIS_URL: redisUrl!,
        REDIS_KEY_PREFIX: `scale-${Date.now()}:`,
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'arzpay-scale-')),
        ADMIN_USERNAME: ADMIN_MOBILE,
        ADMIN_PASSWORD,
        LOG_LEVEL: 'info',
      };
      const [a, b] = await Promise.all([startProcess(env, children), startProcess(env, children)]);

      const adminA = await loginThrough(a.url, ADMIN_MOBILE, ADMIN_PASSWORD);
      const adminMe = await me(a.url, adminA);
      const echo = connectEcho(b.url, adminA);
      try {
        await waitConnected(echo);
        const joined = [
          subscription(echo, PUBLIC),
          subscription(echo, STAFF),
          subscription(echo, `private-user.${adminMe.uid}`),
        ];
        const rate = nextEvent<{ rate: number }>(echo.channel(PUBLIC), '.currency.updated');
        const toStaff = nextEvent<{ userId: number }>(echo.private('staff'), '.userProfile.changed');
        const task = nextEvent<{ type: string }>(echo.private('staff'), '.task.created');
        echo.private(`user.${adminMe.uid}`);
        expect(await Promise.all(joined)).toEqual(['joined', 'joined', 'joined']);

        await changeRate(a.url, adminA, 'EUR', 1_234_000);
        expect(await rate).toMatchObject({ rate: 1_234_000 });
        // Staff events go to internal audience rooms; the Redis adapter carries those across processes too.
        const customerId = await customerThrough(a.url, adminA, '09160000009', 'customer-password-1');
        const customer = await loginThrough(a.url, '09160000009', 'customer-password-1');
        await submitProfile(a.url, customer, nationalCode('345678912'));
        expect(await toStaff).toEqual({ userId: customerId });
        expect(await task).toMatchObject({ type: 'approveProfileAsL1Task' });

        // Logging out through A drops the session's socket on B.
        const dropped = new Promise<string>((resolve) => socketOf(echo).once('disconnect', resolve));
        await fetch(`${a.url}/api/me/logout`, { method: 'POST', headers: bearer(adminA) });
        expect(await dropped).toBe('io server disconnect');
      } finally {
        echo.disconnect();
      }
    });

    it('keeps deployments with different key prefixes apart on one Redis', async () => {
      const shared = { DATABASE_URL: databaseUrl!, REDIS_URL: redisUrl!, ADMIN_USERNAME: ADMIN_MOBILE, ADMIN_PASSWORD };
      const a = await startProcess(
        {
          ...shared,
          REDIS_KEY_PREFIX: `apart-a-${Date.now()}:`,
          DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'arzpay-apart-')),
        },
        children,
      );
      // Another deployment: its own database and prefix, the same Redis.
      const other = await startServer({
        web: false,
        env: { DATABASE_URL: 'memory://', REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: `apart-b-${Date.now()}:` },
      });
      const adminA = await loginThrough(a.url, ADMIN_MOBILE, ADMIN_PASSWORD);
      const own = connectEcho(a.url);
      const stranger = connectEcho(other.url);
      try {
        await Promise.all([waitConnected(own), waitConnected(stranger)]);
        const joined = [subscription(own, PUBLIC), subscription(stranger, PUBLIC)];
        const heard: unknown[] = [];
        stranger.channel(PUBLIC).listen('.currency.updated', (data: unknown) => heard.push(data));
        const delivered = nextEvent<{ rate: number }>(own.channel(PUBLIC), '.currency.updated');
        expect(await Promise.all(joined)).toEqual(['joined', 'joined']);
        await changeRate(a.url, adminA, 'EUR', 1_345_000);
        expect(await delivered).toMatchObject({ rate: 1_345_000 });
        // The adapter relays within milliseconds; a second is far beyond any relay the other deployment could get.
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(heard).toEqual([]);
      } finally {
        own.disconnect();
        stranger.disconnect();
        await other.stop();
      }
    });
  },
);
