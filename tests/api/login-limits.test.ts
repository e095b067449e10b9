/**
 * Wrong-password limits (issue 15, point 2): per account and per address, growing waits with a Persian
 * message that says how long, the right password refused during a wait, the code log-in untouched; and the
 * e-mail log-in's captcha served as a PNG. TRUST_PROXY=127.0.0.1 lets each test speak from its own address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/server/lib/crypto';
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
let admin: string;
beforeAll(async () => {
  // The defaults: 5 free failures per account, 20 per address, a first wait of 30 s doubling up to 15 minutes.
  server = await startServer({ web: false, env: { TRUST_PROXY: '127.0.0.1' } });
  admin = await loginAdmin(server);
});
afterAll(async () => server?.stop());

const PASSWORD = 'right-password-1';
const WRONG_MESSAGE = 'نام کاربری یا رمز عبور صحیح نیست.';

async function customer(mobileNo: string, email?: string): Promise<void> {
  const saved = await post(
    server,
    '/api/users/saveUser',
    { mobileNo, isStaff: false, password: PASSWORD, ...(email ? { email } : {}) },
    bearer(admin),
  );
  expect(saved.status).toBe(200);
}

async function passwordLogin(username: string, password: string, address: string) {
  const res = await fetch(`${server.url}/api/me/loginByPassword`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json()) as { result: boolean; msg: string };
  return { status: res.status, msg: body.msg, retryAfter: Number(res.headers.get('retry-after') ?? 0) };
}

/** A live captcha whose answer the test sets through the database it shares with the server. */
async function knownCaptcha(answer: string): Promise<string> {
  const created = await post(server, '/api/public/createCaptcha');
  const { captchaKey } = created.body.data as { captchaKey: string };
  await server.app.database.db
    .updateTable('captchas')
    .set({ answerHash: sha256(`${captchaKey}:${answer}`) })
    .where('id', '=', captchaKey)
    .execute();
  return captchaKey;
}

async function emailLogin(email: string, password: string, address: string) {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email, password, captcha: '24680', captchaKey: await knownCaptcha('24680') }),
  });
  return { status: res.status, msg: ((await res.json()) as { msg: string }).msg };
}

const LOCKED = /^به دلیل تلاش‌های ناموفق پیاپی، ورود با رمز عبور موقتا بسته است\. لطفا (.+) دیگر دوباره تلاش کنید/;
const waitText = (message: string) => LOCKED.exec(message)?.[1];

describe('wrong passwords per account', () => {
  it('refuses 40 wrong passwords with 429 after five, with a Persian wait that doubles up to 15 minutes', async () => {
    const mobileNo = '09351000001';
    await customer(mobileNo);
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push(await passwordLogin(mobileNo, `guess-${i}`, '10.1.0.1'));

    expect(answers.slice(0, 5).map((a) => [a.status, a.msg])).toEqual(Array(5).fill([422, WRONG_MESSAGE]));
    expect(answers.slice(5).every((a) => a.status === 429)).toBe(true);
    expect(answers.slice(5, 12).map((a) => waitText(a.msg))).toEqual([
      '۳۰ ثانیه',
      '۱ دقیقه',
      '۲ دقیقه',
      '۴ دقیقه',
      '۸ دقیقه',
      '۱۵ دقیقه',
      '۱۵ دقیقه',
    ]);
    expect(answers.slice(5, 11).map((a) => a.retryAfter)).toEqual([30, 60, 120, 240, 480, 900]);
    expect(answers.at(-1)?.msg).toContain('با کد تایید پیامکی وارد شوید');

    // The right password is refused too while the account waits, from this address and from any other.
    const right = await passwordLogin(mobileNo, PASSWORD, '10.1.0.1');
    expect(right.status).toBe(429);
    expect(waitText(right.msg)).toBe('۱۵ دقیقه');
    expect((await passwordLogin(mobileNo, PASSWORD, '10.1.0.2')).status).toBe(429);
  });

  it('does not let password guessing keep the customer from the code log-in', async () => {
    const mobileNo = '09351000002';
    await customer(mobileNo);
    for (let i = 0; i < 8; i++) await passwordLogin(mobileNo, `stranger-${i}`, '10.1.1.1');
    expect((await passwordLogin(mobileNo, PASSWORD, '10.1.1.2')).status).toBe(429);

    const token = await loginByCode(server, mobileNo);
    const me = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
    expect(me.body.data).toMatchObject({ mobileNo });
  });

  it('counts the account under any of its names, and a successful log-in starts the count over', async () => {
    const mobileNo = '09351000003';
    await customer(mobileNo);
    for (const spelling of ['09351000003', '+989351000003', '۰۹۳۵۱۰۰۰۰۰۳', '9351000003']) {
      expect((await passwordLogin(spelling, 'nope', '10.1.2.1')).status).toBe(422);
    }
    expect((await passwordLogin(mobileNo, PASSWORD, '10.1.2.1')).status).toBe(200);
    // Five free failures again, then the wait.
    const after = [];
    for (let i = 0; i < 6; i++) after.push((await passwordLogin(mobileNo, 'nope', '10.1.2.1')).status);
    expect(after).toEqual([422, 422, 422, 422, 422, 429]);
  });

  it('lets at most five of 30 parallel wrong passwords be checked before the wait', async () => {
    const mobileNo = '09351000004';
    await customer(mobileNo);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => passwordLogin(mobileNo, `parallel-${i}`, `10.1.3.${i + 1}`)),
    );
    expect(answers.filter((a) => a.status === 422)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(25);
  });
});

describe('wrong passwords per address', () => {
  it('holds back one address that guesses across accounts, and only that address', async () => {
    const guesser = '10.2.0.1';
    const answers = [];
    for (let i = 0; i < 25; i++) {
      answers.push((await passwordLogin(`0935200${String(i).padStart(4, '0')}`, 'guess', guesser)).status);
    }
    expect(answers.slice(0, 20)).toEqual(Array(20).fill(422));
    expect(answers.slice(20)).toEqual(Array(5).fill(429));

    const fromGuesser = await passwordLogin(ADMIN_MOBILE, ADMIN_PASSWORD, guesser);
    expect(fromGuesser.status).toBe(429);
    expect(waitText(fromGuesser.msg)).toBeDefined();
    expect((await passwordLogin(ADMIN_MOBILE, ADMIN_PASSWORD, '10.2.0.2')).status).toBe(200);
  });
});

describe('e-mail log-in', () => {
  it('shares the account count with the password log-in and refuses the right password during a wait', async () => {
    const mobileNo = '09351000005';
    await customer(mobileNo, 'limits@example.com');
    expect((await emailLogin('limits@example.com', PASSWORD, '10.3.0.1')).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const wrong = await emailLogin('limits@example.com', `e-mail-guess-${i}`, '10.3.0.1');
      expect([wrong.status, wrong.msg]).toEqual([422, 'ایمیل یا رمز عبور صحیح نیست.']);
    }
    for (let i = 0; i < 2; i++) expect((await passwordLogin(mobileNo, 'nope', '10.3.0.2')).status).toBe(422);
    // The sixth failure starts the wait; then even the right password with a right captcha is refused.
    const sixth = await emailLogin('limits@example.com', 'e-mail-guess-6', '10.3.0.3');
    expect(sixth.status).toBe(429);
    expect(waitText(sixth.msg)).toBe('۳۰ ثانیه');
    const right = await emailLogin('limits@example.com', PASSWORD, '10.3.0.4');
    expect(right.status).toBe(429);
    expect(waitText(right.msg)).toBe('۱ دقیقه');
  });

  it('serves the captcha as a PNG image with no markup that spells it', async () => {
    const created = await post(server, '/api/public/createCaptcha');
    const { url } = created.body.data as { url: string };
    const image = await fetch(server.url + url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const text = bytes.toString('latin1');
    expect(text).not.toContain('<svg');
    expect(text).not.toContain('<path');
  });
});
