/**
 * Changing a password needs proof (the current password, or an SMS code when none is set) and ends the other
 * sessions; tokens have an idle and an absolute lifetime; a user lists and ends their own sessions only
 * (issue 15, point 4). Expiry is tested by moving the stored timestamps back, never by waiting.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { sessionCache } from '../../src/server/modules/identity/tokens';
import { connectEcho, socketOf, subscription, waitConnected } from '../support/echo';
import { bearer, post, type RunningServer, startServer } from '../support/server';

const IDLE = 3600;
const MAX_AGE = 7200;
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const DESKTOP_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    web: false,
    env: { SESSION_IDLE_SECONDS: String(IDLE), SESSION_MAX_AGE_SECONDS: String(MAX_AGE) },
  });
});
afterAll(async () => server?.stop());

interface Session {
  id: number;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  browser: string | null;
  os: string | null;
  deviceType: string | null;
  ip: string | null;
  current: boolean;
}

async function sendCode(mobileNo: string): Promise<string> {
  const sent = await post(server, '/api/public/sendMobileValidationCode', { mobileNo });
  expect(sent.status, sent.body.msg).toBe(200);
  return server.lastSmsCode(mobileNo)!;
}

/** Logs in by SMS code from a browser with the given User-Agent; returns the token. */
async function logIn(mobileNo: string, userAgent = PHONE_UA): Promise<string> {
  const validationCode = await sendCode(mobileNo);
  const login = await post(
    server,
    '/api/me/loginByMobileValidationCode',
    { mobileNo, validationCode },
    { 'user-agent': userAgent },
  );
  expect(login.status, login.body.msg).toBe(200);
  return (login.body.data as { userToken: string }).userToken;
}

const works = async (token: string) =>
  (await post(server, '/api/me/fetchUserData', undefined, bearer(token))).status === 200;

async function sessionsOf(token: string): Promise<Session[]> {
  const res = await post(server, '/api/me/searchSessions', undefined, bearer(token));
  expect(res.status, res.body.msg).toBe(200);
  return (res.body.data as { items: Session[] }).items;
}

const currentId = async (token: string) => (await sessionsOf(token)).find((s) => s.current)!.id;

const changePassword = (token: string, body: Record<string, string>) =>
  post(server, '/api/me/changePassword', body, bearer(token));

describe('changing the own password', () => {
  const mobileNo = '09151230001';

  it('asks an account without a password for an SMS code to its own number, then ends the other sessions', async () => {
    const phone = await logIn(mobileNo, PHONE_UA);
    const laptop = await logIn(mobileNo, DESKTOP_UA);
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(phone))).body.data;
    expect(me).toMatchObject({ hasPassword: false });

    const noCode = await changePassword(phone, { password: 'first-password' });
    expect(noCode.status).toBe(400);
    expect(noCode.body.msg).toBe('کد تاییدی را که به موبایل شما پیامک شد وارد نمایید.');

    const code = await sendCode(mobileNo);
    const wrong = await changePassword(phone, {
      password: 'first-password',
      validationCode: code === '11111' ? '22222' : '11111',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.msg).toBe('کد تایید صحیح نیست.');

    const done = await changePassword(phone, { password: 'first-password', validationCode: code });
    expect(done.status, done.body.msg).toBe(200);
    expect(done.body.msg).toBe('رمز عبور با موفقیت تغییر کرد و سایر نشست‌های شما پایان یافت.');
    expect(await works(phone)).toBe(true);
    expect(await works(laptop)).toBe(false);
    expect((await post(server, '/api/me/fetchUserData', undefined, bearer(phone))).body.data).toMatchObject({
      hasPassword: true,
    });
  });

  it('then needs the current password: missing or wrong is refused in Persian, the right one ends other sessions', async () => {
    const login = await post(
      server,
      '/api/me/loginByPassword',
      { username: mobileNo, password: 'first-password' },
      { 'user-agent': DESKTOP_UA },
    );
    expect(login.status).toBe(200);
    const laptop = (login.body.data as { userToken: string }).userToken;
    const phone = await logIn(mobileNo, PHONE_UA);

    const missing = await changePassword(phone, { password: 'second-password' });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('رمز عبور فعلی را وارد نمایید.');
    // A code is no substitute once a password exists.
    const byCode = await changePassword(phone, { password: 'second-password', validationCode: '12345' });
    expect(byCode.status).toBe(400);
    const wrong = await changePassword(phone, { password: 'second-password', currentPassword: 'not-it-at-all' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.msg).toBe('رمز عبور فعلی صحیح نیست.');
    expect(await works(laptop)).toBe(true);

    const done = await changePassword(phone, { password: 'second-password', currentPassword: 'first-password' });
    expect(done.status, done.body.msg).toBe(200);
    expect(await works(phone)).toBe(true);
    expect(await works(laptop)).toBe(false);
    expect((await sessionsOf(phone)).map((s) => s.current)).toEqual([true]);

    const oldPassword = await post(server, '/api/me/loginByPassword', {
      username: mobileNo,
      password: 'first-password',
    });
    expect(oldPassword.status).toBe(422);
    const newPassword = await post(server, '/api/me/loginByPassword', {
      username: mobileNo,
      password: 'second-password',
    });
    expect(newPassword.status).toBe(200);
  });

  it('allows ten attempts per user in a window, then answers 429', async () => {
    const token = await logIn('09151230002');
    const statuses = [];
    for (let i = 0; i < 11; i += 1) {
      statuses.push((await changePassword(token, { password: 'some-password' })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('own sessions', () => {
  it('lists only the own live sessions, marks the current one, and names browser, system and address', async () => {
    const phone = await logIn('09151230003', PHONE_UA);
    const laptop = await logIn('09151230003', DESKTOP_UA);
    const stranger = await logIn('09151230004', PHONE_UA);

    const list = await sessionsOf(phone);
    expect(list).toHaveLength(2);
    expect(list[0]!.current).toBe(true); // this device first, though the laptop logged in later
    const current = list.find((s) => s.current)!;
    const other = list.find((s) => !s.current)!;
    expect(current).toMatchObject({ browser: 'Chrome 124', os: 'Android 14', deviceType: 'mobile', ip: '127.0.0.1' });
    expect(other).toMatchObject({ browser: 'Firefox 125', os: 'Windows 10', deviceType: 'desktop' });
    expect(new Date(current.expiresAt).getTime()).toBeLessThanOrEqual(
      new Date(current.lastUsedAt).getTime() + IDLE * 1000,
    );
    expect((await sessionsOf(stranger)).map((s) => s.id)).not.toContain(current.id);
    expect(await currentId(laptop)).toBe(other.id);

    // Another user's session id is unknown to this user: 404, and that session goes on.
    const foreign = await post(server, '/api/me/revokeSession', { id: other.id }, bearer(stranger));
    expect(foreign.status).toBe(404);
    expect(foreign.body.msg).toBe('این نشست یافت نشد یا پیش‌تر پایان یافته است.');
    expect(await works(laptop)).toBe(true);

    const ended = await post(server, '/api/me/revokeSession', { id: other.id }, bearer(phone));
    expect(ended.status).toBe(200);
    expect(await works(laptop)).toBe(false);
    expect(await works(phone)).toBe(true);
    expect((await post(server, '/api/me/revokeSession', { id: other.id }, bearer(phone))).status).toBe(404);
    expect((await sessionsOf(phone)).map((s) => s.id)).toEqual([current.id]);
    expect(await works(stranger)).toBe(true);
  });

  it('ends every other session at once', async () => {
    const tokens = [await logIn('09151230005'), await logIn('09151230005'), await logIn('09151230005')];
    const res = await post(server, '/api/me/revokeOtherSessions', undefined, bearer(tokens[0]!));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ revoked: 2 });
    expect(await Promise.all(tokens.map(works))).toEqual([true, false, false]);
  });

  it('drops the live-channel socket of a session ended from another device', async () => {
    const phone = await logIn('09151230010', PHONE_UA);
    const laptop = await logIn('09151230010', DESKTOP_UA);
    const uid = ((await post(server, '/api/me/fetchUserData', undefined, bearer(laptop))).body.data as { uid: string })
      .uid;
    const echo = connectEcho(server.url, laptop);
    try {
      await waitConnected(echo);
      const joined = subscription(echo, `private-user.${uid}`);
      echo.private(`user.${uid}`);
      expect(await joined).toBe('joined');
      const dropped = new Promise<string>((resolve) => socketOf(echo).once('disconnect', resolve));
      const id = await currentId(laptop);
      expect((await post(server, '/api/me/revokeSession', { id }, bearer(phone))).status).toBe(200);
      expect(await dropped).toBe('io server disconnect');
    } finally {
      echo.disconnect();
    }
  });

  it('refuses a malformed session id with 400', async () => {
    const token = await logIn('09151230006');
    for (const id of [0, -1, 1.5, 'x']) {
      expect((await post(server, '/api/me/revokeSession', { id }, bearer(token))).status).toBe(400);
    }
  });
});

describe('token lifetimes', () => {
  const db = () => server.app.database.db;
  /**
   * Ages a session by moving its times back: what hours passing would do. The server remembers a session it read
   * (never past the expiry it read), and a hand edit of the database is announced to no one, so the test forgets
   * what it remembers, as those hours would have.
   */
  const moveBack = async (id: number, column: 'lastUsedAt' | 'createdAt', seconds: number) => {
    await db()
      .updateTable('userTokens')
      .set({ [column]: sql`now() - make_interval(secs => ${seconds})` })
      .where('id', '=', id)
      .execute();
    sessionCache(db()).forgetAll({ quiet: true });
  };

  it('does not remember a session past the expiry it read', async () => {
    const token = await logIn('09151230019');
    const id = await currentId(token);
    // Five seconds left: the first call must land before the expiry even on a machine busy with other test files.
    await moveBack(id, 'createdAt', MAX_AGE - 5);
    expect(await works(token)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    expect(await works(token)).toBe(false);
  });

  it('ends a session unused for longer than the idle lifetime, and keeps one used just within it', async () => {
    const idle = await logIn('09151230007');
    const recent = await logIn('09151230007');
    const idleId = await currentId(idle);
    const recentId = await currentId(recent);
    await moveBack(idleId, 'lastUsedAt', IDLE + 5);
    await moveBack(recentId, 'lastUsedAt', IDLE - 120);
    expect(await works(idle)).toBe(false);
    // The database's clock, which stamps last_used_at.
    const { usedFrom } = (await sql<{ usedFrom: Date }>`select now() as "usedFrom"`.execute(db())).rows[0]!;
    expect(await works(recent)).toBe(true);
    // The use refreshed last_used_at (more than a minute old), so the session now lasts another full period.
    const row = await db()
      .selectFrom('userTokens')
      .select('lastUsedAt')
      .where('id', '=', recentId)
      .executeTakeFirstOrThrow();
    expect(new Date(row.lastUsedAt).getTime()).toBeGreaterThanOrEqual(new Date(usedFrom).getTime());
    expect((await sessionsOf(recent)).map((s) => s.id)).toEqual([recentId]);
  });

  it('refreshes the last-use time at most once a minute', async () => {
    const token = await logIn('09151230008');
    const id = await currentId(token);
    await moveBack(id, 'lastUsedAt', 30);
    const before = await db()
      .selectFrom('userTokens')
      .select('lastUsedAt')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(await works(token)).toBe(true);
    const after = await db()
      .selectFrom('userTokens')
      .select('lastUsedAt')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(new Date(after.lastUsedAt).getTime()).toBe(new Date(before.lastUsedAt).getTime());
  });

  it('ends a session older than the absolute lifetime even while it is in use', async () => {
    const token = await logIn('09151230009');
    const id = await currentId(token);
    await moveBack(id, 'createdAt', MAX_AGE - 60);
    expect(await works(token)).toBe(true);
    await moveBack(id, 'createdAt', MAX_AGE + 1);
    const res = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe('ابتدا وارد حساب کاربری خود شوید.');
  });

  it('validates the lifetimes in the configuration', () => {
    expect(loadConfig({}).sessions).toEqual({ idleSeconds: 30 * 86_400, maxAgeSeconds: 90 * 86_400 });
    expect(() => loadConfig({ SESSION_IDLE_SECONDS: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ SESSION_MAX_AGE_SECONDS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ SESSION_IDLE_SECONDS: '7200', SESSION_MAX_AGE_SECONDS: '3600' })).toThrow(
      /SESSION_IDLE_SECONDS/,
    );
    expect(() => loadConfig({ SESSION_MAX_AGE_SECONDS: '999999999999' })).toThrow(ConfigError);
  });
});
