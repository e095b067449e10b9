import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import defaults from '../../schemas/config/systemParameters.json' with { type: 'json' };
import {
  bearer,
  loginAdmin,
  loginByCode,
  post,
  type RunningServer,
  startServer,
  verifiedCustomer as verified,
} from '../support/server';

let server: RunningServer;
let admin: string;
let usd: { id: number; rate: number };
let cardGroup: number;
let swiftGroup: number;
let cashGroup: number;

beforeAll(async () => {
  server = await startServer({ web: false });
  admin = await loginAdmin(server);
  const currencies = await post(server, '/api/public/searchCurrencies');
  usd = (currencies.body.data as { items: Array<{ id: number; code: string; rate: number }> }).items.find(
    (c) => c.code === 'USD',
  )!;
  const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
    items: Array<{ id: number; isCash: boolean }>;
  };
  cardGroup = groups.items.find((g) => !g.isCash)!.id;
  swiftGroup = groups.items.find((g) => !g.isCash && g.id !== cardGroup)!.id;
  cashGroup = groups.items.find((g) => g.isCash)!.id;
});
afterAll(async () => server?.stop());

const verifiedCustomer = (mobileNo: string, nationalCode: string) => verified(server, mobileNo, nationalCode);

const generalForm = () => ({
  currency: usd.id,
  amount: 100,
  requestedPaymentMethodGroup: cardGroup,
  targetPageAddress: 'https://apply.example.edu/pay',
  targetPageUsername: 'student1',
  targetPagePassword: 'secret',
  subject: 'Application fee',
});

let key = 0;
const idem = () => ({ 'idempotency-key': `test-key-${Date.now()}-${key++}` });

/** A quote for `amount` USD paid by card. */
async function priceFor(token: string, amount: number): Promise<{ quoteId: string; amount: number }> {
  const res = await post(
    server,
    '/api/me/desks/uafCpr/priceInquiry',
    { currency: usd.id, amount, requestedPaymentMethodGroup: cardGroup },
    bearer(token),
  );
  if (res.status !== 200) throw new Error(`priceInquiry: ${res.status} ${res.body.msg}`);
  return res.body.data as { quoteId: string; amount: number };
}

describe('price inquiry', () => {
  it('prices 100 USD with the server rate and the system parameters', async () => {
    const token = await loginByCode(server, '09150000001');
    const res = await post(
      server,
      '/api/me/desks/uafCpr/priceInquiry',
      { currency: usd.id, amount: 100, requestedPaymentMethodGroup: cardGroup },
      bearer(token),
    );
    expect(res.status).toBe(200);
    const q = res.body.data as Record<string, number> & { costs: Record<string, number> };
    const gross = 100 * usd.rate;
    const fee = Math.round(gross * 0.03) + 500_000;
    const tax = Math.round(fee * 0.1);
    expect(q).toMatchObject({
      amount: 100,
      rate: usd.rate,
      grossPrice: gross,
      expectedPrice: gross + fee + tax + 200_000,
    });
    expect(q.costs).toEqual({ fee, tax, operationCost: 200_000 });
    expect(q.totalCosts).toBe(fee + tax + 200_000);
    expect(q.payablePrice).toBe(q.expectedPrice);
    expect(q.expiresInSeconds).toBeGreaterThan(290);
  });

  it('needs every price input, with the messages of the specification', async () => {
    const token = await loginByCode(server, '09150000002');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: 1, requestedPaymentMethodGroup: cardGroup }, 'ارز را انتخاب نمایید.'],
      [{ currency: usd.id, requestedPaymentMethodGroup: cardGroup }, 'مبلغ را وارد نمایید.'],
      [{ currency: usd.id, amount: 'ten', requestedPaymentMethodGroup: cardGroup }, 'مبلغ، معتبر نیست.'],
      [{ currency: usd.id, amount: -5, requestedPaymentMethodGroup: cardGroup }, 'مبلغ باید بزرگتر از صفر باشد.'],
      [{ currency: usd.id, amount: 0, requestedPaymentMethodGroup: cardGroup }, 'مبلغ باید بزرگتر از صفر باشد.'],
      [{ currency: usd.id, amount: 5 }, 'روش پرداخت را انتخاب نمایید.'],
    ];
    for (const [body, message] of cases) {
      const res = await post(server, '/api/me/desks/uafCpr/priceInquiry', body, bearer(token));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toBe(message);
    }
    const cashOnNormalDesk = await post(
      server,
      '/api/me/desks/uafCpr/priceInquiry',
      { currency: usd.id, amount: 5, requestedPaymentMethodGroup: cashGroup },
      bearer(token),
    );
    expect(cashOnNormalDesk.status).toBe(422);
    const unknownDesk = await post(server, '/api/me/desks/noSuchDesk/priceInquiry', {}, bearer(token));
    expect(unknownDesk.status).toBe(404);
  });
});

describe('request submission', () => {
  it('creates one request per idempotency key, priced from the quote, ignoring a tampered price', async () => {
    const token = await verifiedCustomer('09150000003', '0499370899');
    const quote = (
      await post(
        server,
        '/api/me/desks/uafCpr/priceInquiry',
        { currency: usd.id, amount: 100, requestedPaymentMethodGroup: cardGroup },
        bearer(token),
      )
    ).body.data as { quoteId: string; expectedPrice: number };
    const headers = { ...bearer(token), ...idem() };
    const body = { ...generalForm(), quoteId: quote.quoteId, expectedPrice: 1, grossPrice: 1 };
    const first = await post(server, '/api/me/desks/uafCpr/requests', body, headers);
    expect(first.status).toBe(200);
    const purchase = first.body.data as { id: number; expectedPrice: number; state: string; payablePrice: number };
    expect(purchase).toMatchObject({ state: 'waitingForPayment', expectedPrice: quote.expectedPrice });
    expect(purchase.payablePrice).toBe(quote.expectedPrice);

    const replay = await post(server, '/api/me/desks/uafCpr/requests', body, headers);
    expect(replay.status).toBe(200);
    expect((replay.body.data as { id: number }).id).toBe(purchase.id);

    const different = await post(server, '/api/me/desks/uafCpr/requests', { ...body, subject: 'other' }, headers);
    expect(different.status).toBe(422);

    // Two at once with one key (a double click) still make one request (from a new quote: the first is spent).
    const twinHeaders = { ...bearer(token), ...idem() };
    const twinBody = { ...body, quoteId: (await priceFor(token, 100)).quoteId };
    const twins = await Promise.all([
      post(server, '/api/me/desks/uafCpr/requests', twinBody, twinHeaders),
      post(server, '/api/me/desks/uafCpr/requests', twinBody, twinHeaders),
    ]);
    const ids = new Set(twins.filter((t) => t.status === 200).map((t) => (t.body.data as { id: number }).id));
    expect(ids.size).toBe(1);

    const mine = await post(server, '/api/me/searchPurchases', undefined, bearer(token));
    expect((mine.body.data as { total: number }).total).toBe(2);
  });

  it('gives 409 with a fresh quote when the quote has expired', async () => {
    const token = await verifiedCustomer('09150000004', '0013542419');
    const quote = (
      await post(
        server,
        '/api/me/desks/uafCpr/priceInquiry',
        { currency: usd.id, amount: 50, requestedPaymentMethodGroup: cardGroup },
        bearer(token),
      )
    ).body.data as { quoteId: string };
    // The quote's lifetime passes on the server's clock (it runs in this process).
    const lifetime = defaults.parameters.find((p) => p.key === 'quoteLifetimeSeconds')!.value;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (lifetime + 1) * 1000 });
    let res: Awaited<ReturnType<typeof post>>;
    try {
      res = await post(
        server,
        '/api/me/desks/uafCpr/requests',
        { ...generalForm(), amount: 50, quoteId: quote.quoteId },
        { ...bearer(token), ...idem() },
      );
    } finally {
      vi.useRealTimers();
    }
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('اعتبار قیمت به پایان رسید. قیمت جدید را بررسی و تایید کنید.');
    const fresh = (res.body.data as { quote: { quoteId: string; amount: number } }).quote;
    expect(fresh.quoteId).not.toBe(quote.quoteId);
    expect(fresh.amount).toBe(50);
  });

  it('refuses an unverified customer on a simple desk, and one who has not accepted the terms', async () => {
    const token = await loginByCode(server, '09150000005');
    const res = await post(
      server,
      '/api/me/desks/uafCpr/requests',
      { ...generalForm(), quoteId: 'x' },
      { ...bearer(token), ...idem() },
    );
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe('برای ثبت این درخواست ابتدا باید هویت شما (سطح یک) تایید شده باشد.');
  });

  it('walks every field rule of the general form with the form messages', async () => {
    const token = await verifiedCustomer('09150000006', '0067749828');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ targetPageAddress: undefined }, 'آدرس صفحه پرداخت را وارد نمایید.'],
      [{ targetPageAddress: 'x'.repeat(101) }, 'آدرس صفحه پرداخت حداکثر ۱۰۰ کاراکتر است.'],
      [{ targetPageUsername: '' }, 'نام کاربری را وارد نمایید.'],
      [{ targetPageUsername: 'u'.repeat(21) }, 'نام کاربری حداکثر ۲۰ کاراکتر است.'],
      [{ targetPagePassword: undefined }, 'رمز عبور را وارد نمایید.'],
      [{ targetPagePassword: 'p'.repeat(21) }, 'رمز عبور حداکثر ۲۰ کاراکتر است.'],
      [{ subject: 's'.repeat(101) }, 'موضوع حداکثر ۱۰۰ کاراکتر است.'],
      [{ customerDescription: 'd'.repeat(4001) }, 'توضیحات حداکثر ۴۰۰۰ کاراکتر است.'],
      [{ currency: undefined }, 'ارز را انتخاب نمایید.'],
      [{ amount: 0 }, 'مبلغ باید بزرگتر از صفر باشد.'],
      [{ requestedPaymentMethodGroup: undefined }, 'روش پرداخت را انتخاب نمایید.'],
    ];
    for (const [patch, message] of cases) {
      const body: Record<string, unknown> = { ...generalForm(), quoteId: 'q', ...patch };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const res = await post(server, '/api/me/desks/uafCpr/requests', body, { ...bearer(token), ...idem() });
      expect(res.body.msg, JSON.stringify(patch)).toBe(message);
      expect(res.status).toBe(400);
    }
  });

  it('fixes the cash desk username and password to "-" and needs a cash delivery method', async () => {
    const token = await verifiedCustomer('09150000007', '0010350829');
    const quote = (
      await post(
        server,
        '/api/me/desks/foriWire/priceInquiry',
        { currency: usd.id, amount: 20, requestedPaymentMethodGroup: cashGroup },
        bearer(token),
      )
    ).body.data as { quoteId: string };
    const res = await post(
      server,
      '/api/me/desks/foriWire/requests',
      {
        currency: usd.id,
        amount: 20,
        requestedPaymentMethodGroup: cashGroup,
        targetPageAddress: 'Ali Rezaei, Deutsche Bank, DE89370400440532013000',
        subject: 'تحصیل',
        quoteId: quote.quoteId,
      },
      { ...bearer(token), ...idem() },
    );
    expect(res.status).toBe(200);
    const { id, fields } = res.body.data as { id: number; fields: Record<string, unknown> };
    expect(fields).toMatchObject({ targetPageUsername: '-' });
    // The password is stored with the request, but never answered (write-only).
    expect(fields).not.toHaveProperty('targetPagePassword');
    const stored = await server.app.database.db
      .selectFrom('purchases')
      .select('fields')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.fields).toMatchObject({ targetPageUsername: '-' });
    // Sealed like any write-only value (decision 021), even the desk's fixed '-'.
    expect((stored.fields as Record<string, unknown>).targetPagePassword).toMatch(/^enc:v1:/);
  });

  it("keeps one customer's requests invisible to another, and shows them to staff", async () => {
    const other = await loginByCode(server, '09150000008');
    const mine = await post(server, '/api/me/searchPurchases', undefined, bearer(other));
    expect((mine.body.data as { total: number }).total).toBe(0);
    const all = await post(server, '/api/sys/searchPurchases', undefined, bearer(admin));
    expect((all.body.data as { total: number }).total).toBeGreaterThanOrEqual(3);
    expect((await post(server, '/api/sys/searchPurchases', undefined, bearer(other))).status).toBe(403);
  });
});

describe('the third-party password', () => {
  it('is stored with the request, sealed, and never returned in a list or in the submit answer', async () => {
    const token = await verifiedCustomer('09150000011', '0030123453');
    const quote = await priceFor(token, 100);
    const secret = 'Tp-9f3kQ-secret';
    const res = await post(
      server,
      '/api/me/desks/uafCpr/requests',
      { ...generalForm(), targetPagePassword: secret, quoteId: quote.quoteId },
      { ...bearer(token), ...idem() },
    );
    expect(res.status).toBe(200);
    const { id } = res.body.data as { id: number };
    expect(JSON.stringify(res.body)).not.toContain(secret);

    const lists = [
      await post(server, '/api/me/searchPurchases', undefined, bearer(token)),
      await post(server, '/api/sys/searchPurchases', { perPage: 500 }, bearer(admin)),
    ];
    for (const list of lists) {
      expect(list.status).toBe(200);
      expect(JSON.stringify(list.body)).not.toContain(secret);
      const items = (list.body.data as { items: Array<{ id: number; fields: Record<string, unknown> }> }).items;
      expect(items.find((item) => item.id === id)?.fields).toMatchObject({ targetPageUsername: 'student1' });
      for (const item of items) expect(item.fields).not.toHaveProperty('targetPagePassword');
    }
    const stored = await server.app.database.db
      .selectFrom('purchases')
      .select('fields')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // Stored sealed (decision 021; tests/api/secrets-at-rest.test.ts): no plain text in the column.
    const kept = (stored.fields as Record<string, unknown>).targetPagePassword;
    expect(kept).toMatch(/^enc:v1:/);
    expect(JSON.stringify(stored.fields)).not.toContain(secret);
  });
});

const requestsFrom = async (quoteId: string) =>
  (await server.app.database.db.selectFrom('purchases').select('id').where('quoteId', '=', quoteId).execute()).length;

describe('one quote, one request', () => {
  const submit = (token: string, body: Record<string, unknown>, key = idem()) =>
    post(server, '/api/me/desks/uafCpr/requests', body, { ...bearer(token), ...key });

  it('is spent by its request: a new key gets 409 with a fresh quote, a replay of the first key its result', async () => {
    const token = await verifiedCustomer('09150000012', '0040556670');
    const quote = await priceFor(token, 70);
    const body = { ...generalForm(), amount: 70, quoteId: quote.quoteId };
    const firstKey = idem();
    const first = await submit(token, body, firstKey);
    expect(first.status).toBe(200);
    const firstId = (first.body.data as { id: number }).id;

    const second = await submit(token, body);
    expect(second.status).toBe(409);
    expect(second.body.msg).toBe(
      'با این قیمت پیش‌تر یک درخواست ثبت شده است. برای ثبت درخواستی دیگر، قیمت جدید را بررسی و تایید کنید.',
    );
    const fresh = (second.body.data as { quote: { quoteId: string; amount: number } }).quote;
    expect(fresh.quoteId).not.toBe(quote.quoteId);
    expect(fresh.amount).toBe(70);

    const replay = await submit(token, body, firstKey);
    expect(replay.status).toBe(200);
    expect((replay.body.data as { id: number }).id).toBe(firstId);
    expect(await requestsFrom(quote.quoteId)).toBe(1);

    // The fresh quote makes the customer's deliberate second request.
    const again = await submit(token, { ...body, quoteId: fresh.quoteId });
    expect(again.status).toBe(200);
    expect((again.body.data as { id: number }).id).not.toBe(firstId);
  });

  it('remembers the payment method group it was priced for and refuses another', async () => {
    const token = await verifiedCustomer('09150000013', '0051234564');
    const quote = await priceFor(token, 40);
    const res = await submit(token, {
      ...generalForm(),
      amount: 40,
      requestedPaymentMethodGroup: swiftGroup,
      quoteId: quote.quoteId,
    });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('این قیمت برای روش پرداخت دیگری استعلام شده است. قیمت جدید را بررسی و تایید کنید.');
    expect(await requestsFrom(quote.quoteId)).toBe(0);
    // Not spent: a quote's row is written only by the request that spends it (decision 016).
    const storedQuote = () =>
      server.app.database.db
        .selectFrom('quotes')
        .select(['paymentMethodGroupId', 'spentAt'])
        .where('id', '=', quote.quoteId)
        .executeTakeFirst();
    expect(await storedQuote()).toBeUndefined();
    // The same quote with the group it was priced for still works, and its row keeps that group.
    expect((await submit(token, { ...generalForm(), amount: 40, quoteId: quote.quoteId })).status).toBe(200);
    expect(await storedQuote()).toMatchObject({ paymentMethodGroupId: cardGroup, spentAt: expect.anything() });
  });

  it('makes exactly one request from 20 parallel submissions with 20 different keys', async () => {
    const token = await verifiedCustomer('09150000014', '0062345672');
    const quote = await priceFor(token, 30);
    const body = { ...generalForm(), amount: 30, quoteId: quote.quoteId };
    const results = await Promise.all(Array.from({ length: 20 }, () => submit(token, body)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await requestsFrom(quote.quoteId)).toBe(1);
    const mine = await post(server, '/api/me/searchPurchases', undefined, bearer(token));
    expect((mine.body.data as { total: number }).total).toBe(1);
  });
});

describe('amounts and search text', () => {
  it('refuses more decimals than the currency has, and accepts cents', async () => {
    const token = await verifiedCustomer('09150000015', '0073456780');
    const tooFine = await post(
      server,
      '/api/me/desks/uafCpr/priceInquiry',
      { currency: usd.id, amount: 100.004, requestedPaymentMethodGroup: cardGroup },
      bearer(token),
    );
    expect(tooFine.status).toBe(422);
    expect(tooFine.body.msg).toBe('مبلغ به دلار آمریکا حداکثر ۲ رقم اعشار می‌پذیرد.');
    const submitted = await post(
      server,
      '/api/me/desks/uafCpr/requests',
      { ...generalForm(), amount: 100.004, quoteId: 'anything' },
      { ...bearer(token), ...idem() },
    );
    expect(submitted.status).toBe(422);
    expect(submitted.body.msg).toBe('مبلغ به دلار آمریکا حداکثر ۲ رقم اعشار می‌پذیرد.');

    const quote = await priceFor(token, 100.01);
    expect(quote.amount).toBe(100.01);
    const ok = await post(
      server,
      '/api/me/desks/uafCpr/requests',
      { ...generalForm(), amount: 100.01, quoteId: quote.quoteId },
      { ...bearer(token), ...idem() },
    );
    expect(ok.status).toBe(200);
    expect((ok.body.data as { amount: number }).amount).toBe(100.01);
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as { id: number };
    const rows = await server.app.database.db
      .selectFrom('purchases')
      .select('amountMinor')
      .where('userId', '=', me.id)
      .execute();
    expect(rows.map((r) => r.amountMinor)).toEqual([10001]);
  });

  it('takes % and _ in a request search literally', async () => {
    const all = await post(server, '/api/sys/searchPurchases', { perPage: 500 }, bearer(admin));
    expect((all.body.data as { total: number }).total).toBeGreaterThan(0);
    for (const search of ['%', '_', '%%', 'uaf%', '\\']) {
      const res = await post(server, '/api/sys/searchPurchases', { search }, bearer(admin));
      expect(res.status, search).toBe(200);
      expect((res.body.data as { total: number }).total, search).toBe(0);
    }
    const desk = await post(server, '/api/sys/searchPurchases', { search: 'uafC' }, bearer(admin));
    expect((desk.body.data as { total: number }).total).toBeGreaterThan(0);
  });
});

describe('IELTS registration desk (staff-built exam profile)', () => {
  it('asks for the exam profile instead of a payment page, with its own messages', async () => {
    const token = await verifiedCustomer('09150000009', '0020000014');
    const quote = (
      await post(
        server,
        '/api/me/desks/ieltsRegistrationAndCpr/priceInquiry',
        { currency: usd.id, amount: 310, requestedPaymentMethodGroup: cardGroup },
        bearer(token),
      )
    ).body.data as { quoteId: string };
    const form = {
      currency: usd.id,
      amount: 310,
      requestedPaymentMethodGroup: cardGroup,
      testModule: 'Academic',
      testCity: 'تهران',
      preferredTestDate: '2027-01-15',
      passportNumber: 'K12345678',
      passportExpiry: '2030-05-01',
      quoteId: quote.quoteId,
    };
    const missing = await post(
      server,
      '/api/me/desks/ieltsRegistrationAndCpr/requests',
      { ...form, passportNumber: undefined },
      { ...bearer(token), ...idem() },
    );
    expect(missing.body.msg).toBe('شماره گذرنامه را وارد نمایید.');
    const bad = await post(
      server,
      '/api/me/desks/ieltsRegistrationAndCpr/requests',
      { ...form, passportNumber: '12345' },
      { ...bearer(token), ...idem() },
    );
    expect(bad.body.msg).toBe('شماره گذرنامه باید یک حرف لاتین و ۸ رقم باشد.');
    const badDate = await post(
      server,
      '/api/me/desks/ieltsRegistrationAndCpr/requests',
      { ...form, passportExpiry: '@1409/13/01' },
      { ...bearer(token), ...idem() },
    );
    expect(badDate.body.msg).toBe('تاریخ معتبر نیست.');
    const ok = await post(server, '/api/me/desks/ieltsRegistrationAndCpr/requests', form, {
      ...bearer(token),
      ...idem(),
    });
    expect(ok.status).toBe(200);
    expect((ok.body.data as { fields: Record<string, unknown> }).fields).toMatchObject({ passportNumber: 'K12345678' });
  });
});

describe('currency management', () => {
  it('lets staff change a rate (audit-logged) and refuses a non-integer rate', async () => {
    const saved = await post(
      server,
      '/api/sys/saveCurrency',
      {
        id: usd.id,
        title: 'دلار آمریکا',
        code: 'USD',
        rate: 1_050_000,
        useForUafCpr: true,
        useForGoogleAdsAccountCr: true,
      },
      bearer(admin),
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ rate: 1_050_000 });
    const bad = await post(
      server,
      '/api/sys/saveCurrency',
      { id: usd.id, title: 'دلار آمریکا', code: 'USD', rate: 10.5, useForUafCpr: true, useForGoogleAdsAccountCr: true },
      bearer(admin),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('نرخ باید عدد صحیح مثبت (ریال) باشد.');
    const log = await server.app.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'saveCurrency')
      .execute();
    expect(log.at(-1)).toMatchObject({ before: { rate: usd.rate }, after: { rate: 1_050_000 } });
  });
});

describe('a quote is a signed token (decision 016)', () => {
  const submit = (token: string, body: Record<string, unknown>) =>
    post(server, '/api/me/desks/uafCpr/requests', body, { ...bearer(token), ...idem() });
  const currentUsd = async () =>
    (
      (await post(server, '/api/public/searchCurrencies')).body.data as {
        items: Array<{ id: number; code: string; rate: number; title: string }>;
      }
    ).items.find((c) => c.code === 'USD')!;
  const setRate = (rate: number) =>
    post(
      server,
      '/api/sys/saveCurrency',
      { id: usd.id, title: 'دلار آمریکا', code: 'USD', rate, useForUafCpr: true, useForGoogleAdsAccountCr: true },
      bearer(admin),
    );

  it("refuses a changed token, and another customer's, with a fresh quote and no request", async () => {
    const token = await verifiedCustomer('09150000021', '0018354432');
    const other = await verifiedCustomer('09150000022', '0023456787');
    const quote = await priceFor(token, 60);
    const last = quote.quoteId.at(-1)!;
    const tampered = `${quote.quoteId.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
    const middle = Math.floor(quote.quoteId.length / 2);
    const alteredTerms = `${quote.quoteId.slice(0, middle)}${quote.quoteId[middle] === 'A' ? 'B' : 'A'}${quote.quoteId.slice(middle + 1)}`;
    for (const [who, quoteId] of [
      [token, tampered],
      [token, alteredTerms],
      [other, quote.quoteId],
    ] as const) {
      const res = await submit(who, { ...generalForm(), amount: 60, quoteId });
      expect(res.status).toBe(409);
      expect(res.body.msg).toBe('اطلاعات فرم با قیمت استعلام‌شده یکسان نیست. قیمت جدید را بررسی و تایید کنید.');
      expect((res.body.data as { quote: { amount: number } }).quote.amount).toBe(60);
    }
    expect(await requestsFrom(tampered)).toBe(0);
    expect((await submit(token, { ...generalForm(), amount: 60, quoteId: quote.quoteId })).status).toBe(200);
  });

  it('keeps the quoted price after a rate change, and prices the next quote with the new rate at once', async () => {
    const token = await verifiedCustomer('09150000023', '0034567895');
    const before = await currentUsd();
    const quote = (await priceFor(token, 80)) as { quoteId: string; amount: number; expectedPrice?: number };
    expect((await setRate(before.rate + 1000)).status).toBe(200);
    try {
      const next = (await priceFor(token, 80)) as { rate?: number; expectedPrice?: number };
      expect(next.rate).toBe(before.rate + 1000);
      const made = await submit(token, { ...generalForm(), amount: 80, quoteId: quote.quoteId });
      expect(made.status).toBe(200);
      expect(made.body.data).toMatchObject({ rate: before.rate, expectedPrice: quote.expectedPrice });
    } finally {
      await setRate(before.rate);
    }
  });
});
