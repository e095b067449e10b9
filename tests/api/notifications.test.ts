/**
 * Notifications (issue 31): a person's own list, marking read, preferences per kind and channel, the live event,
 * and the SMS outbox the worker sends — once each, held at night until 08:00 Tehran (the worker's clock is set),
 * retried with backoff through a refusing provider and then given up on where staff see it. Notifications come from
 * a real step (changing one's password notifies `passwordChanged`) or from `notify()` on the server's own database,
 * as the steps of other modules call it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify, type NotificationInput } from '../../src/server/modules/notifications/notify';
import { connectEcho, nextEvent, subscription, waitConnected } from '../support/echo';
import { bearer, loginByCode, post, type RunningServer, staffWithActions, startServer } from '../support/server';
import { isLoginCodeSms } from '../support/sms-code';

let server: RunningServer;
let events = 0;

beforeAll(async () => {
  // The timer is off: passes run when a commit wakes the worker, and when a test drains it.
  server = await startServer({ web: false, env: { NOTIFICATION_SMS_INTERVAL_MS: '3600000' } });
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

const db = (s: RunningServer = server) => s.app.database.db;
const write = (input: Omit<NotificationInput, 'eventKey'>, now?: Date, s = server) =>
  db(s)
    .transaction()
    .execute((trx) => notify(trx, { ...input, eventKey: `test:${events++}` }, now));
const smsLines = (mobileNo: string, s = server) =>
  s.logs.filter((l) => l.msg === 'sms' && l.mobileNo === mobileNo && !isLoginCodeSms(l.text));
const userIdOf = async (token: string) =>
  ((await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as { id: number; uid: string }).id;
const search = async (token: string, body: object = {}) =>
  (await post(server, '/api/me/searchNotifications', body, bearer(token))).body.data as {
    items: Array<{ id: number; kind: string; text: string; purchaseId: number | null; read: boolean }>;
    total: number;
    unreadCount: number;
  };

describe('a person’s notifications', () => {
  it('changing one’s password notifies once in the app, live, and by one SMS with the driver’s answer', async () => {
    const mobileNo = '09171000001';
    const token = await loginByCode(server, mobileNo);
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as { uid: string };
    const echo = connectEcho(server.url, token);
    try {
      await waitConnected(echo);
      const joined = subscription(echo, `private-user.${me.uid}`);
      const channel = echo.private(`user.${me.uid}`);
      expect(await joined).toBe('joined');
      const live = nextEvent<{ kind: string; text: string }>(channel, '.notification.created');
      await post(server, '/api/public/sendMobileValidationCode', { mobileNo });
      const validationCode = server.lastSmsCode(mobileNo)!;
      const changed = await post(
        server,
        '/api/me/changePassword',
        { password: 'a-new-password-1', validationCode },
        bearer(token),
      );
      expect(changed.status).toBe(200);
      expect(await live).toMatchObject({ kind: 'passwordChanged', text: expect.stringContaining('رمز عبور') });
    } finally {
      echo.disconnect();
    }
    const list = await search(token);
    expect(list.unreadCount).toBe(1);
    expect(list.items).toEqual([expect.objectContaining({ kind: 'passwordChanged', read: false, purchaseId: null })]);
    await server.app.notificationSms.drain();
    await server.app.notificationSms.drain();
    const lines = smsLines(mobileNo);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toBe(list.items[0]!.text);
    const row = await db()
      .selectFrom('notificationSms')
      .selectAll()
      .where('notificationId', '=', list.items[0]!.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'sent', attempts: 1, driverAnswer: lines[0]!.messageId });
  });

  it('tells a person whose password staff set', async () => {
    const token = await loginByCode(server, '09171000007');
    const userId = await userIdOf(token);
    const staff = await staffWithActions(server, ['manageAccess']);
    const set = await post(
      server,
      '/api/users/changePassword',
      { id: userId, password: 'set-by-staff-1' },
      bearer(staff.token),
    );
    expect(set.status, set.body.msg).toBe(200);
    const rows = await db().selectFrom('notifications').select('kind').where('userId', '=', userId).execute();
    expect(rows).toEqual([{ kind: 'passwordChanged' }]);
  });

  it('lists only one’s own, newest first, paged, and marks only one’s own read', async () => {
    const alice = await loginByCode(server, '09171000002');
    const bob = await loginByCode(server, '09171000003');
    const aliceId = await userIdOf(alice);
    const bobId = await userIdOf(bob);
    for (const amount of [1_200_000, 2_500_000, 3_000_000]) {
      await write({ userId: aliceId, kind: 'withdrawalDone', params: { amount } });
    }
    await write({ userId: bobId, kind: 'profileApproved' });
    const all = await search(alice);
    expect(all.total).toBe(3);
    expect(all.items.map((n) => n.text)).toEqual([
      'برداشت ۳٬۰۰۰٬۰۰۰ ریال از کیف پول به حساب شما واریز شد.',
      'برداشت ۲٬۵۰۰٬۰۰۰ ریال از کیف پول به حساب شما واریز شد.',
      'برداشت ۱٬۲۰۰٬۰۰۰ ریال از کیف پول به حساب شما واریز شد.',
    ]);
    const page2 = await search(alice, { page: 2, perPage: 2 });
    expect(page2.items.map((n) => n.id)).toEqual([all.items[2]!.id]);
    expect((await search(bob)).items.map((n) => n.kind)).toEqual(['profileApproved']);

    // Bob names Alice's notifications: nothing of hers changes, by ids or by "all".
    const attack = await post(
      server,
      '/api/me/markNotificationsRead',
      { ids: all.items.map((n) => n.id) },
      bearer(bob),
    );
    expect(attack.status).toBe(200);
    expect(attack.body.data).toEqual({ unreadCount: 1 });
    await post(server, '/api/me/markNotificationsRead', { all: true }, bearer(bob));
    expect((await search(alice)).unreadCount).toBe(3);
    expect((await search(bob)).unreadCount).toBe(0);

    const one = await post(server, '/api/me/markNotificationsRead', { ids: [all.items[1]!.id] }, bearer(alice));
    expect(one.body.data).toEqual({ unreadCount: 2 });
    expect((await search(alice)).items.map((n) => n.read)).toEqual([false, true, false]);
    const rest = await post(server, '/api/me/markNotificationsRead', { all: true }, bearer(alice));
    expect(rest.body.data).toEqual({ unreadCount: 0 });
    const nothing = await post(server, '/api/me/markNotificationsRead', {}, bearer(alice));
    expect(nothing.status).toBe(400);
    expect(nothing.body.msg).toBe('اعلان‌هایی را که می‌خواهید خوانده‌شده شوند مشخص کنید.');
    expect((await post(server, '/api/me/searchNotifications', {})).status).toBe(401);
  });

  it('obeys preferences per kind and channel and never lets a security notice be turned off', async () => {
    const mobileNo = '09171000004';
    const token = await loginByCode(server, mobileNo);
    const userId = await userIdOf(token);
    const fetched = await post(server, '/api/me/fetchNotificationPreferences', undefined, bearer(token));
    const items = (
      fetched.body.data as { items: Array<{ kind: string; inApp: boolean; sms: boolean; locked: boolean }> }
    ).items;
    expect(items.find((p) => p.kind === 'passwordChanged')).toEqual({
      kind: 'passwordChanged',
      inApp: true,
      sms: true,
      locked: true,
    });
    expect(items.every((p) => p.inApp && p.sms)).toBe(true);
    // A customer does not choose for staff kinds.
    expect(items.some((p) => p.kind === 'staffDeadlineAtRisk')).toBe(false);

    const save = (body: object) => post(server, '/api/me/saveNotificationPreferences', body, bearer(token));
    const locked = await save({ items: [{ kind: 'passwordChanged', inApp: true, sms: false }] });
    expect(locked.status).toBe(422);
    expect(locked.body.msg).toBe('اعلان‌های امنیتی را نمی‌توان خاموش کرد.');
    for (const kind of ['noSuchKind', 'staffDeadlineAtRisk', 'constructor']) {
      const unknown = await save({ items: [{ kind, inApp: false, sms: false }] });
      expect(unknown.status).toBe(422);
      expect(unknown.body.msg).toBe('نوع اعلان معتبر نیست.');
    }
    // The same kind twice in one save is a Persian 422, not the database's "cannot affect row a second time".
    const repeated = await save({
      items: [
        { kind: 'purchasePaid', inApp: true, sms: false },
        { kind: 'purchasePaid', inApp: false, sms: true },
      ],
    });
    expect(repeated.status).toBe(422);
    expect(repeated.body.msg).toBe('هر نوع اعلان را فقط یک بار در فهرست بیاورید.');
    const saved = await save({
      items: [
        { kind: 'purchasePaid', inApp: true, sms: false },
        { kind: 'purchaseTaken', inApp: false, sms: true },
        { kind: 'profileApproved', inApp: false, sms: false },
      ],
    });
    expect(saved.status).toBe(200);
    const after = (saved.body.data as { items: Array<{ kind: string; inApp: boolean; sms: boolean }> }).items;
    expect(after.find((p) => p.kind === 'purchasePaid')).toMatchObject({ inApp: true, sms: false });

    // Midday in Tehran, outside quiet hours, on the worker's clock too.
    const noon = new Date('2030-03-10T09:00:00Z');
    const worker = server.app.notificationSms;
    worker.now = () => noon;
    const paid = await write({ userId, kind: 'purchasePaid', params: { title: 'تافل', amount: 5_000_000 } }, noon);
    const taken = await write({ userId, kind: 'purchaseTaken', params: { title: 'تافل' } }, noon);
    expect(await write({ userId, kind: 'profileApproved' }, noon)).toBeNull();
    await worker.drain();
    worker.now = () => new Date();
    expect((await search(token)).items.map((n) => n.kind)).toEqual(['purchasePaid']);
    expect(smsLines(mobileNo).map((l) => l.text)).toEqual([taken!.text]);
    const queued = await db().selectFrom('notificationSms').select('notificationId').execute();
    expect(queued.some((r) => Number(r.notificationId) === paid!.id)).toBe(false);
    // The same event never notifies twice.
    const again = await db()
      .transaction()
      .execute((trx) => notify(trx, { userId, kind: 'purchaseTaken', eventKey: 'once', params: { title: 'x' } }));
    const twice = await db()
      .transaction()
      .execute((trx) => notify(trx, { userId, kind: 'purchaseTaken', eventKey: 'once', params: { title: 'x' } }));
    expect(again).not.toBeNull();
    expect(twice).toBeNull();
  });

  it('holds an SMS written at night until 08:00 Tehran, and sends a security notice at once', async () => {
    const mobileNo = '09171000005';
    const userId = await userIdOf(await loginByCode(server, mobileNo));
    const worker = server.app.notificationSms;
    await worker.drain();
    // 23:00 Tehran is 19:30 UTC; the next 08:00 Tehran is 04:30 UTC.
    const night = new Date('2030-03-10T19:30:00Z');
    try {
      worker.now = () => night;
      const paid = await write({ userId, kind: 'purchasePaid', params: { title: 'آیلتس', amount: 7_000_000 } }, night);
      const security = await write({ userId, kind: 'passwordChanged' }, night);
      await worker.drain();
      expect(smsLines(mobileNo).map((l) => l.text)).toEqual([security!.text]);
      worker.now = () => new Date('2030-03-11T04:29:59Z');
      await worker.drain();
      expect(smsLines(mobileNo)).toHaveLength(1);
      worker.now = () => new Date('2030-03-11T04:30:00Z');
      await worker.drain();
      await worker.drain();
      expect(smsLines(mobileNo).map((l) => l.text)).toEqual([security!.text, paid!.text]);
      expect(paid!.text).toBe('درخواست «آیلتس» پرداخت شد؛ مبلغ ۷٬۰۰۰٬۰۰۰ ریال.');
    } finally {
      worker.now = () => new Date();
    }
  });
});

describe('a provider that refuses', () => {
  let fake: Server;
  let provider: RunningServer;
  let refuse = true;
  const sends: URL[] = [];

  beforeAll(async () => {
    fake = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (url.pathname.endsWith('/sms/send.json')) {
        sends.push(url);
        if (refuse) {
          res.end(JSON.stringify({ return: { status: 418, message: 'اعتبار کافی نیست' }, entries: null }));
          return;
        }
        res.end(JSON.stringify({ return: { status: 200, message: 'تایید شد' }, entries: [{ messageid: 90017 }] }));
        return;
      }
      res.end(JSON.stringify({ return: { status: 200, message: 'تایید شد' }, entries: [{ messageid: 1 }] }));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    provider = await startServer({
      web: false,
      resetDatabase: false,
      env: {
        // Its own embedded database beside a PostgreSQL stage: the first describe's server keeps the shared one.
        DATABASE_URL: 'memory://',
        SMS_DRIVER: 'kavenegar',
        KAVENEGAR_API_KEY: 'key',
        KAVENEGAR_TEMPLATE: 'login',
        KAVENEGAR_BASE_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
        NOTIFICATION_SMS_INTERVAL_MS: '3600000',
        NOTIFICATION_SMS_MAX_ATTEMPTS: '3',
        NOTIFICATION_SMS_BACKOFF_SECONDS: '60',
      },
    });
  }, 180_000);
  afterAll(async () => {
    await provider?.stop();
    fake?.close();
  });

  it('retries with a doubling backoff, gives up after the last try, and staff see it', async () => {
    const worker = provider.app.notificationSms;
    const t0 = new Date('2030-05-01T08:00:00Z');
    const at = (seconds: number) => () => new Date(t0.getTime() + seconds * 1000);
    const admin = await staffWithActions(provider, []);
    worker.now = at(0);
    const written = await write({ userId: admin.userId, kind: 'passwordChanged' }, t0, provider);
    await worker.drain();
    expect(sends).toHaveLength(1);
    expect(sends[0]!.pathname).toBe('/v1/key/sms/send.json');
    expect(sends[0]!.searchParams.get('message')).toBe(written!.text);
    const sms = () =>
      db(provider)
        .selectFrom('notificationSms')
        .selectAll()
        .where('notificationId', '=', written!.id)
        .executeTakeFirstOrThrow();
    expect(await sms()).toMatchObject({ state: 'pending', attempts: 1, dueAt: at(60)() });
    expect((await sms()).lastError).toContain('418');
    worker.now = at(59);
    await worker.drain();
    expect(sends).toHaveLength(1);
    worker.now = at(60);
    await worker.drain();
    expect(await sms()).toMatchObject({ state: 'pending', attempts: 2, dueAt: at(180)() });
    worker.now = at(180);
    await worker.drain();
    expect(await sms()).toMatchObject({ state: 'failed', attempts: 3 });
    worker.now = at(100_000);
    await worker.drain();
    expect(sends).toHaveLength(3);

    const path = '/api/sys/searchFailedNotificationSms';
    expect((await post(provider, path, {}, bearer(admin.token))).status).toBe(403);
    const staff = await staffWithActions(provider, ['viewFailedSms']);
    const list = await post(provider, path, {}, bearer(staff.token));
    expect(list.status).toBe(200);
    expect(list.body.data).toMatchObject({
      total: 1,
      items: [
        {
          notificationId: written!.id,
          kind: 'passwordChanged',
          attempts: 3,
          lastError: expect.stringContaining('418'),
        },
      ],
    });

    // Once the provider takes it, the answer is its message id.
    refuse = false;
    const next = await write({ userId: admin.userId, kind: 'passwordChanged' }, at(100_000)(), provider);
    await worker.drain();
    const row = await db(provider)
      .selectFrom('notificationSms')
      .selectAll()
      .where('notificationId', '=', next!.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'sent', attempts: 1, driverAnswer: '90017' });
    expect(sends).toHaveLength(4);
  });
});
