import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithExif, png, uploadForm } from '../support/images';
import {
  ADMIN_MOBILE,
  bearer,
  loginAdmin,
  loginByCode,
  post,
  type RunningServer,
  startServer,
} from '../support/server';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ web: false, env: { SMS_LIMIT_PER_MOBILE: '4' } });
});
afterAll(async () => server?.stop());

const upload = (token: string, form: FormData) =>
  fetch(`${server.url}/api/me/uploadFile`, { method: 'POST', headers: bearer(token), body: form });

async function uploadCard(token: string): Promise<string> {
  const res = await upload(token, uploadForm(await jpegWithExif(), 'card.jpg'));
  const body = (await res.json()) as { result: boolean; path: string };
  expect(res.status).toBe(200);
  return body.path;
}

const validProfile = (card: string) => ({
  nationalCode: '0499370899',
  firstName: 'مریم',
  lastName: 'احمدی',
  dateOfBirth: '1995-03-21',
  nationalCardImageAddress: card,
});

describe('log-in by SMS code', () => {
  it('sends a code, refuses a second while active, and logs in (creating the customer)', async () => {
    const mobileNo = '09121111111';
    const first = await post(server, '/api/public/sendMobileValidationCode', { mobileNo });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ expirationDuration: 120, activeCodeExists: false });
    const sms = server.logs.filter((l) => l.msg === 'sms' && l.mobileNo === mobileNo);
    expect(sms).toHaveLength(1);
    // Said in Persian digits, as every number a customer reads.
    expect(String(sms[0]?.text)).toMatch(/^کد ورود شما به ارزپی: [۰-۹]{5}\n/);
    expect(String(sms[0]?.text)).not.toMatch(/[0-9]/);

    const again = await post(server, '/api/public/sendMobileValidationCode', { mobileNo });
    expect(again.body.data).toMatchObject({ activeCodeExists: true });
    expect((again.body.data as { expirationDuration: number }).expirationDuration).toBeLessThanOrEqual(120);
    expect(server.logs.filter((l) => l.msg === 'sms' && l.mobileNo === mobileNo)).toHaveLength(1);

    const code = server.lastSmsCode(mobileNo)!;
    const login = await post(server, '/api/me/loginByMobileValidationCode', { mobileNo, validationCode: code });
    expect(login.status).toBe(200);
    const token = (login.body.data as { userToken: string }).userToken;
    const me = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
    expect(me.body.data).toMatchObject({ mobileNo, approvedLevel: 0, isStaff: false, nationalCode: null });

    // The code is single-use.
    const replay = await post(server, '/api/me/loginByMobileValidationCode', { mobileNo, validationCode: code });
    expect(replay.status).toBe(422);
  });

  it('accepts Persian digits in the mobile number and the code', async () => {
    const mobileNo = '09122222222';
    await post(server, '/api/public/sendMobileValidationCode', { mobileNo: '۰۹۱۲۲۲۲۲۲۲۲' });
    const code = server.lastSmsCode(mobileNo)!;
    const persian = code.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!);
    const login = await post(server, '/api/me/loginByMobileValidationCode', { mobileNo, validationCode: persian });
    expect(login.status).toBe(200);
  });

  it('burns the code after five wrong tries', async () => {
    const mobileNo = '09123333333';
    await post(server, '/api/public/sendMobileValidationCode', { mobileNo });
    const code = server.lastSmsCode(mobileNo)!;
    const wrong = code === '00000' ? '11111' : '00000';
    for (let i = 1; i <= 4; i++) {
      const res = await post(server, '/api/me/loginByMobileValidationCode', { mobileNo, validationCode: wrong });
      expect(res.status).toBe(422);
      expect(res.body.msg).toBe('کد تایید صحیح نیست.');
    }
    const fifth = await post(server, '/api/me/loginByMobileValidationCode', { mobileNo, validationCode: wrong });
    expect(fifth.body.msg).toBe('کد تایید به دلیل تلاش‌های ناموفق باطل شد. لطفا کد جدید دریافت کنید.');
    const right = await post(server, '/api/me/loginByMobileValidationCode', { mobileNo, validationCode: code });
    expect(right.status).toBe(422);
    // A new code can be requested at once.
    const fresh = await post(server, '/api/public/sendMobileValidationCode', { mobileNo });
    expect(fresh.body.data).toMatchObject({ activeCodeExists: false });
  });

  it('rate-limits code requests per mobile number with 429 and a Persian message', async () => {
    const mobileNo = '09124444444';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await post(server, '/api/public/sendMobileValidationCode', { mobileNo })).status);
    }
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    const limited = await post(server, '/api/public/sendMobileValidationCode', { mobileNo });
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toBe('تعداد درخواست‌ها بیش از حد مجاز است. لطفا کمی بعد دوباره تلاش کنید.');
  });

  it('validates the mobile number with the messages of the specification', async () => {
    const missing = await post(server, '/api/public/sendMobileValidationCode', {});
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('شماره موبایل را وارد نمایید.');
    const invalid = await post(server, '/api/public/sendMobileValidationCode', { mobileNo: '0812345678' });
    expect(invalid.body.msg).toBe('شماره موبایل صحیح نیست.');
  });
});

describe('password and e-mail log-in, tokens', () => {
  it('logs the administrator in by mobile number and password, and refuses a wrong password', async () => {
    const token = await loginAdmin(server);
    const me = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
    expect(me.body.data).toMatchObject({ mobileNo: ADMIN_MOBILE, isStaff: true });
    const wrong = await post(server, '/api/me/loginByPassword', { username: ADMIN_MOBILE, password: 'nope-nope' });
    expect(wrong.status).toBe(422);
    const badUser = await post(server, '/api/me/loginByPassword', { username: 'abc', password: 'x' });
    expect(badUser.body.msg).toBe('موبایل یا کد ملی وارد شده صحیح نیست.');
  });

  it('revokes a token on logout', async () => {
    const token = await loginByCode(server, '09125555555');
    expect((await post(server, '/api/me/logout', undefined, bearer(token))).status).toBe(200);
    const after = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
    expect(after.status).toBe(401);
    expect(after.body.msg).toBe('ابتدا وارد حساب کاربری خود شوید.');
  });

  it('changes the own password, which then logs in by national code after the profile is saved', async () => {
    const token = await loginByCode(server, '09126666666');
    const short = await post(server, '/api/me/changePassword', { password: 'short' }, bearer(token));
    expect(short.body.msg).toBe('رمز عبور باید حداقل ۸ کاراکتر باشد.');
    // The account has no password yet: a fresh code to its own number is the proof (tests/api/sessions.test.ts).
    await post(server, '/api/public/sendMobileValidationCode', { mobileNo: '09126666666' });
    const validationCode = server.lastSmsCode('09126666666')!;
    const changed = await post(
      server,
      '/api/me/changePassword',
      { password: 'a-long-password', validationCode },
      bearer(token),
    );
    expect(changed.status).toBe(200);
    const login = await post(server, '/api/me/loginByPassword', {
      username: '09126666666',
      password: 'a-long-password',
    });
    expect(login.status).toBe(200);
  });

  it('logs in by e-mail only with the right one-time captcha', async () => {
    const admin = await loginAdmin(server);
    const saved = await post(
      server,
      '/api/users/saveUser',
      { mobileNo: '09127777777', email: 'Staff@Example.com', isStaff: false, password: 'mail-password-1' },
      bearer(admin),
    );
    expect(saved.status).toBe(200);

    const captcha = await post(server, '/api/public/createCaptcha');
    const { url, captchaKey } = captcha.body.data as { url: string; captchaKey: string };
    const image = await fetch(server.url + url);
    // A raster image: no markup to read the digits from (tests/api/login-limits.test.ts looks closer).
    expect(image.headers.get('content-type')).toBe('image/png');

    // The answer is known only to the image; a test sets a known one through the database it shares.
    const { sha256 } = await import('../../src/server/lib/crypto');
    await server.app.database.db
      .updateTable('captchas')
      .set({ answerHash: sha256(`${captchaKey}:12345`) })
      .where('id', '=', captchaKey)
      .execute();
    const wrong = await post(server, '/api/login', {
      email: 'staff@example.com',
      password: 'mail-password-1',
      captcha: '99999',
      captchaKey,
    });
    expect(wrong.status).toBe(422);
    // Spent after one try, even with the right answer now.
    const spent = await post(server, '/api/login', {
      email: 'staff@example.com',
      password: 'mail-password-1',
      captcha: '12345',
      captchaKey,
    });
    expect(spent.status).toBe(422);

    const second = await post(server, '/api/public/createCaptcha');
    const key2 = (second.body.data as { captchaKey: string }).captchaKey;
    await server.app.database.db
      .updateTable('captchas')
      .set({ answerHash: sha256(`${key2}:54321`) })
      .where('id', '=', key2)
      .execute();
    const ok = await post(server, '/api/login', {
      email: 'staff@example.com',
      password: 'mail-password-1',
      captcha: '54321',
      captchaKey: key2,
    });
    expect(ok.status).toBe(200);
    expect((ok.body.data as { userToken: string }).userToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });
});

describe('profile, uploads and terms', () => {
  it('uploads a real image, strips its metadata, and serves it only through a signed URL', async () => {
    const token = await loginByCode(server, '09128888888');
    const res = await upload(token, uploadForm(await jpegWithExif(), 'card.jpg'));
    const body = (await res.json()) as { result: boolean; path: string; url: string };
    expect(body).toMatchObject({ result: true, msg: 'تصویر بارگذاری شد.' });
    expect(body.path).toMatch(/^nationalCard\/\d{4}\/[A-Za-z0-9_-]+\.jpg$/);

    const served = await fetch(server.url + body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.width).toBe(320);

    expect((await fetch(`${server.url}/storage/${body.path}`)).status).toBe(403);
    const forged = body.url.replace(/signature=[^&]+/, 'signature=AAAA');
    expect((await fetch(server.url + forged)).status).toBe(403);
  });

  it('refuses a non-image, an oversized file, two files, and a ../ prefix', async () => {
    const token = await loginByCode(server, '09129999999');
    const text = await upload(token, uploadForm(Buffer.from('not an image at all'), 'card.jpg'));
    expect(text.status).toBe(415);
    expect(((await text.json()) as { msg: string }).msg).toBe('فقط تصویر JPEG، PNG یا WebP قابل بارگذاری است.');

    // JPEG magic bytes followed by garbage: the type check reads content, and decoding catches the lie.
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);
    expect((await upload(token, uploadForm(fake, 'x.jpg'))).status).toBe(415);

    const big = Buffer.concat([await png(), Buffer.alloc(5 * 1024 * 1024 + 10)]);
    const tooBig = await upload(token, uploadForm(big, 'big.png', 'nationalCard', 'image/png'));
    expect([413]).toContain(tooBig.status);

    const two = uploadForm(await png(), 'a.png', 'nationalCard', 'image/png');
    two.append('attached_file', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'b.png');
    expect((await upload(token, two)).status).toBe(400);

    const traversal = await upload(token, uploadForm(await png(), 'a.png', '../../etc', 'image/png'));
    expect(traversal.status).toBe(400);
    // fetch normalises /storage/../../package.json to /package.json: whatever answers, never the file itself.
    const normalised = await fetch(`${server.url}/storage/../../package.json`);
    expect(await normalised.text()).not.toContain('"name": "arzpay"');
    expect((await fetch(`${server.url}/storage/..%2F..%2Fpackage.json`)).status).toBe(404);
  });

  it('saves a complete profile, opens an approval task, and masks another user in the national-code inquiry', async () => {
    const token = await loginByCode(server, '09130000001');
    const card = await uploadCard(token);
    const before = await post(server, '/api/me/inquiryNationalCode', { nationalCode: '0499370899' }, bearer(token));
    expect(before.body.data).toEqual({ otherUserData: null });

    const saved = await post(server, '/api/me/updateUserData', validProfile(card), bearer(token));
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      nationalCode: '0499370899',
      fullName: 'مریم احمدی',
      dateOfBirth: '1995-03-21',
      approvedLevel: 0,
      profileReviewPending: true,
    });

    const other = await loginByCode(server, '09130000002');
    const inquiry = await post(server, '/api/me/inquiryNationalCode', { nationalCode: '0499370899' }, bearer(other));
    expect(inquiry.body.data).toEqual({ otherUserData: { mobileNo: '0913***0001' } });
    const otherCard = await uploadCard(other);
    const taken = await post(server, '/api/me/updateUserData', validProfile(otherCard), bearer(other));
    expect(taken.status).toBe(422);
    expect(taken.body.msg).toBe('این کد ملی متعلق به کاربر دیگری است.');
  });

  it('validates the profile with the messages of the specification and refuses under-18s', async () => {
    const token = await loginByCode(server, '09130000003');
    const card = await uploadCard(token);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ nationalCode: '1111111111' }, 'کد ملی صحیح نیست.'],
      [{ nationalCode: undefined }, 'کد ملی را وارد نمایید.'],
      [{ firstName: '' }, 'نام را وارد نمایید.'],
      [{ lastName: undefined }, 'نام خانوادگی را وارد نمایید.'],
      [{ firstName: 'Maryam' }, 'نام را با حروف فارسی وارد نمایید.'],
      [{ dateOfBirth: undefined }, 'تاریخ تولد را وارد نمایید.'],
      [{ dateOfBirth: '2015-01-01' }, 'طبق قوانین و مقررات، به کاربران زیر ۱۸ سال خدمات ارائه نمی‌شود.'],
    ];
    for (const [patch, message] of cases) {
      const body = { ...validProfile(card), nationalCode: '0013542419', ...patch };
      for (const key of Object.keys(body))
        if (body[key as keyof typeof body] === undefined) delete body[key as keyof typeof body];
      const res = await post(server, '/api/me/updateUserData', body, bearer(token));
      expect(res.body.msg, JSON.stringify(patch)).toBe(message);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it('refuses a card image path that another user uploaded', async () => {
    const owner = await loginByCode(server, '09130000004');
    const card = await uploadCard(owner);
    const thief = await loginByCode(server, '09130000005');
    const res = await post(
      server,
      '/api/me/updateUserData',
      { ...validProfile(card), nationalCode: '0067749828' },
      bearer(thief),
    );
    expect(res.status).toBe(422);
    // As for a path that names no file: the thief does not learn it exists.
    const sign = await post(server, '/api/me/fileUrl', { path: card }, bearer(thief));
    expect(sign.status).toBe(404);
  });

  it('records terms approval per product category', async () => {
    const token = await loginByCode(server, '09130000006');
    expect((await post(server, '/api/me/approveEmbassiesPolicy', undefined, bearer(token))).body.msg).toBe(
      'قوانین و مقررات پذیرفته شد.',
    );
    const me = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
    expect(me.body.data).toMatchObject({ embassiesPolicyApproved: true, educationalPolicyApproved: false });
  });
});
