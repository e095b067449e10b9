/**
 * The sandbox bank on a real server: opened and verified through the same ZarinPal adapter the payments module
 * uses (server to server), paid and cancelled through its page as a browser posts the form.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPersianDigits } from '../../src/shared/digits';
import { formatRial } from '../../src/shared/format';
import { rialInWords } from '../../src/shared/format/persian-words';
import type { CreatedPayment, PaymentGateway } from '../../src/server/modules/payments/payment-gateway';
import { createPaymentGateway, SANDBOX_MERCHANT_ID } from '../../src/server/modules/payments/choose-gateway';
import { ZarinpalGateway } from '../../src/server/modules/payments/zarinpal';
import { type RunningServer, startServer } from '../support/server';

let server: RunningServer;
let bank: PaymentGateway;

const NATIONAL_CODE = '0012345679';
const OTHER_NATIONAL_CODE = '0084575948';
const CALLBACK = 'https://shop.example/api/public/payments/callback/tok42?from=bank';

beforeAll(async () => {
  server = await startServer({ web: false });
  bank = createPaymentGateway(server.app.config, () => server.url);
});

afterAll(async () => {
  await server.stop();
});

async function open(amount = 1_250_000, description = 'پرداخت درخواست شماره ۱۲ در ارزپی'): Promise<CreatedPayment> {
  const created = await bank.createPayment({
    amount,
    callbackUrl: CALLBACK,
    description,
    payer: { mobileNo: '09121234567', nationalCode: NATIONAL_CODE },
  });
  // The bank this server serves is linked by path (the browser stays on the address it reached the site at).
  expect(created.redirectUrl).toBe(`/sandbox-bank/pg/StartPay/${created.authority}`);
  return { ...created, redirectUrl: new URL(created.redirectUrl, server.url).toString() };
}

/** Posts the bank's form as a browser does (urlencoded), without following the redirect. */
async function submit(redirectUrl: string, fields: Record<string, string>): Promise<Response> {
  return fetch(redirectUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Where a 303 sends the browser, as a URL. */
function redirectOf(res: Response): URL {
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!);
}

const CARD = '6037991234567893';
/** The same card as people type it: Persian digits, spaces and dashes. */
const CARD_AS_TYPED = '۶۰۳۷ ۹۹۱۲-۳۴۵۶ ۷۸۹۳';

describe('sandbox bank', () => {
  it('shows a Persian RTL payment page with the amount, merchant, description and a strict CSP', async () => {
    const created = await open(1_250_000, 'پرداخت <b>درخواست</b> "۱۲"');
    expect(created.authority).toMatch(/^A\d{35}$/);
    expect(created.redirectUrl).toBe(`${server.url}/sandbox-bank/pg/StartPay/${created.authority}`);

    const page = await fetch(created.redirectUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' https://shop.example");
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    const html = await page.text();
    expect(html).toContain('<html lang="fa" dir="rtl">');
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(html).not.toMatch(/<script(?![^>]*nonce=)/);
    expect(html).toContain('آزمایشی');
    expect(html).toContain('ارزپی');
    expect(html).toContain(toPersianDigits(formatRial(1_250_000)));
    expect(html).toContain('۱٬۲۵۰٬۰۰۰ ریال');
    expect(html).toContain(rialInWords(1_250_000));
    // The description is printed as text.
    expect(html).toContain('پرداخت &lt;b&gt;درخواست&lt;/b&gt; &quot;۱۲&quot;');
    expect(html).not.toContain('<b>درخواست');
    // The form: card number, the holder's national code prefilled with the payer's, pay and cancel.
    expect(html).toContain(`action="/sandbox-bank/pg/StartPay/${created.authority}"`);
    expect(html).toMatch(/name="cardNo" value=""/);
    expect(html).toContain(`name="holderNationalCode" value="${NATIONAL_CODE}"`);
    expect(html).toContain('name="action" value="pay">پرداخت</button>');
    expect(html).toContain('name="action" value="cancel">انصراف</button>');
    // A countdown from 15 minutes, readable without script.
    const seconds = Number(/data-seconds="(\d+)"/.exec(html)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(900);
    expect(html).toMatch(/data-seconds="\d+">[۰-۹]{2}:[۰-۵][۰-۹]</);

    const font = await fetch(`${server.url}/sandbox-bank/assets/vazirmatn-arabic-400.woff2`);
    expect(font.status).toBe(200);
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect((await font.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it('pays with a card typed in Persian digits, sends the browser back with OK, verifies 100 then 101', async () => {
    const created = await open();
    const back = redirectOf(
      await submit(created.redirectUrl, { cardNo: CARD_AS_TYPED, holderNationalCode: '۰۰۱۲۳۴۵۶۷۹', action: 'pay' }),
    );
    expect(`${back.origin}${back.pathname}`).toBe('https://shop.example/api/public/payments/callback/tok42');
    expect(back.searchParams.get('from')).toBe('bank');
    expect(back.searchParams.get('Authority')).toBe(created.authority);
    expect(back.searchParams.get('Status')).toBe('OK');

    const first = await bank.verify({ authority: created.authority, amount: 1_250_000 });
    expect(first).toEqual({
      paid: true,
      amount: 1_250_000,
      referenceId: expect.stringMatching(/^[1-9]\d{9}$/),
      cardNo: '603799******7893',
      cardHash: createHash('sha256').update(CARD).digest('hex').toUpperCase(),
      holderNationalCode: NATIONAL_CODE,
      alreadyVerified: false,
    });
    const again = await bank.verify({ authority: created.authority, amount: 1_250_000 });
    expect(again).toEqual({ ...first, alreadyVerified: true });

    // The full card number is nowhere; its mask and hash are.
    const row = await server.app.database.db
      .selectFrom('sandboxBankPayments')
      .selectAll()
      .where('authority', '=', created.authority)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(CARD);
    expect(row).toMatchObject({ state: 'verified', cardNo: '603799******7893', holderNationalCode: NATIONAL_CODE });

    // The page of a paid payment says so and takes no second payment.
    const page = await fetch(created.redirectUrl);
    expect(page.status).toBe(409);
    const html = await page.text();
    expect(html).toContain('این پرداخت پیش‌تر انجام شده است');
    expect(html).toContain('Status=OK');
    const twice = await submit(created.redirectUrl, { cardNo: CARD, holderNationalCode: NATIONAL_CODE, action: 'pay' });
    expect(twice.status).toBe(409);
  });

  it('answers verify.json in ZarinPal’s exact shape, with the holder’s national code added', async () => {
    const created = await open(50_000);
    redirectOf(
      await submit(created.redirectUrl, { cardNo: CARD, holderNationalCode: OTHER_NATIONAL_CODE, action: 'pay' }),
    );
    const verify = (amount: number) =>
      fetch(`${server.url}/sandbox-bank/pg/v4/payment/verify.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ merchant_id: SANDBOX_MERCHANT_ID, amount, authority: created.authority }),
      });
    const wrong = await verify(50_001);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      data: [],
      errors: { code: -50, message: 'Session is not valid, amounts values is not the same.', validations: [] },
    });
    const res = await verify(50_000);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Record<string, unknown>; errors: unknown };
    expect(body.errors).toEqual([]);
    expect(body.data).toEqual({
      code: 100,
      message: 'Paid',
      card_hash: expect.stringMatching(/^[0-9A-F]{64}$/),
      card_pan: '603799******7893',
      ref_id: expect.any(Number),
      fee_type: 'Merchant',
      fee: 0,
      holder_national_code: OTHER_NATIONAL_CODE,
    });
  });

  it('cancel sends the browser back with NOK; verify says not paid (-51)', async () => {
    const created = await open();
    const back = redirectOf(
      await submit(created.redirectUrl, { cardNo: '', holderNationalCode: '', action: 'cancel' }),
    );
    expect(back.searchParams.get('Authority')).toBe(created.authority);
    expect(back.searchParams.get('Status')).toBe('NOK');
    expect(await bank.verify({ authority: created.authority, amount: 1_250_000 })).toEqual({
      paid: false,
      code: '-51',
    });
    // Cancelled is final: paying afterwards is refused with a Persian page.
    const late = await submit(created.redirectUrl, { cardNo: CARD, holderNationalCode: NATIONAL_CODE, action: 'pay' });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain('این پرداخت لغو شده است');
  });

  it('verify for another amount is -50 and does not use the verification up', async () => {
    const created = await open(300_000);
    redirectOf(await submit(created.redirectUrl, { cardNo: CARD, holderNationalCode: NATIONAL_CODE, action: 'pay' }));
    expect(await bank.verify({ authority: created.authority, amount: 30_000 })).toEqual({ paid: false, code: '-50' });
    expect(await bank.verify({ authority: created.authority, amount: 300_000 })).toMatchObject({
      paid: true,
      alreadyVerified: false,
    });
  });

  it('a payment not yet answered is -51; one of another merchant or an unknown authority is -54', async () => {
    const created = await open();
    expect(await bank.verify({ authority: created.authority, amount: 1_250_000 })).toEqual({
      paid: false,
      code: '-51',
    });
    const stranger = new ZarinpalGateway({
      name: 'other',
      title: 'other',
      baseUrl: `${server.url}/sandbox-bank`,
      merchantId: '11111111-2222-3333-4444-555555555555',
      requiresNamedCard: false,
    });
    expect(await stranger.verify({ authority: created.authority, amount: 1_250_000 })).toEqual({
      paid: false,
      code: '-54',
    });
    expect(await bank.verify({ authority: `A${'0'.repeat(35)}`, amount: 1_250_000 })).toEqual({
      paid: false,
      code: '-54',
    });
  });

  it('two verifications at once: one is 100, the other 101', async () => {
    const created = await open(70_000);
    redirectOf(await submit(created.redirectUrl, { cardNo: CARD, holderNationalCode: NATIONAL_CODE, action: 'pay' }));
    const results = await Promise.all([
      bank.verify({ authority: created.authority, amount: 70_000 }),
      bank.verify({ authority: created.authority, amount: 70_000 }),
    ]);
    expect(results.map((r) => r.paid && r.alreadyVerified).sort()).toEqual([false, true]);
  });

  it('a bad card or national code shows the page again (422) with Persian errors and what was typed', async () => {
    const created = await open();
    const res = await submit(created.redirectUrl, {
      cardNo: '۶۰۳۷ ۹۹۱۲ ۳۴',
      holderNationalCode: '۱۲۳<x>',
      action: 'pay',
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('شمارهٔ کارت باید ۱۶ رقم باشد.');
    expect(html).toContain('کد ملی دارندهٔ کارت درست نیست');
    expect(html).toContain('value="۶۰۳۷ ۹۹۱۲ ۳۴"');
    expect(html).toContain('value="۱۲۳&lt;x&gt;"');
    expect(html).toContain('aria-invalid="true"');

    const empty = await submit(created.redirectUrl, { cardNo: '', holderNationalCode: NATIONAL_CODE, action: 'pay' });
    expect(empty.status).toBe(422);
    expect(await empty.text()).toContain('شمارهٔ کارت را وارد کنید.');

    // Nothing was paid; the payer can still pay.
    expect(await bank.verify({ authority: created.authority, amount: 1_250_000 })).toEqual({
      paid: false,
      code: '-51',
    });
    redirectOf(await submit(created.redirectUrl, { cardNo: CARD, holderNationalCode: NATIONAL_CODE, action: 'pay' }));
    expect(await bank.verify({ authority: created.authority, amount: 1_250_000 })).toMatchObject({ paid: true });
  });

  it('an expired payment is refused: a Persian page, a pay sent back with NOK, verify -51', async () => {
    const created = await open();
    // Fifteen minutes pass.
    await server.app.database.db
      .updateTable('sandboxBankPayments')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('authority', '=', created.authority)
      .execute();
    const page = await fetch(created.redirectUrl);
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).toContain('مهلت پرداخت به پایان رسید');
    expect(html).toContain(`Authority=${created.authority}&amp;Status=NOK`);
    const back = redirectOf(
      await submit(created.redirectUrl, { cardNo: CARD, holderNationalCode: NATIONAL_CODE, action: 'pay' }),
    );
    expect(back.searchParams.get('Status')).toBe('NOK');
    expect(await bank.verify({ authority: created.authority, amount: 1_250_000 })).toEqual({
      paid: false,
      code: '-51',
    });
  });

  it('an unknown payment page is a Persian 404', async () => {
    const res = await fetch(`${server.url}/sandbox-bank/pg/StartPay/A${'9'.repeat(35)}`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('درخواست پرداخت یافت نشد');
    const odd = await fetch(`${server.url}/sandbox-bank/pg/StartPay/${encodeURIComponent('<script>')}`);
    expect(odd.status).toBe(404);
  });

  it('refuses a malformed payment request as ZarinPal does (-9 with validations)', async () => {
    const res = await fetch(`${server.url}/sandbox-bank/pg/v4/payment/request.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ merchant_id: 'abc', amount: -5, callback_url: 'javascript:alert(1)', description: '' }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { data: unknown; errors: { code: number; validations: object[] } };
    expect(body.data).toEqual([]);
    expect(body.errors.code).toBe(-9);
    expect(body.errors.validations.flatMap((v) => Object.keys(v)).sort()).toEqual([
      'amount',
      'callback_url',
      'description',
      'merchant_id',
    ]);
    const notJson = await fetch(`${server.url}/sandbox-bank/pg/v4/payment/request.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { errors: { code: number } }).errors.code).toBe(-9);
  });

  it('takes form posts only under /sandbox-bank: the rest of the server still refuses them', async () => {
    const res = await fetch(`${server.url}/api/me/loginByPassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=09120000000&password=x',
    });
    expect(res.status).toBe(415);
  });
});
