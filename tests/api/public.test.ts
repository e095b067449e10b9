/**
 * The public catalogue reads through the typed client, and the failure envelope of what the contract refuses
 * (unknown or mistyped fields, malformed JSON, another content type, an unknown route) sent raw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, type RunningServer, startServer } from '../support/server';
import { dataOf, type TypedApi, typedApi } from '../support/typed-api';

let server: RunningServer;
let guest: TypedApi;
beforeAll(async () => {
  server = await startServer({ web: false });
  guest = typedApi(server);
});
afterAll(async () => server?.stop());

describe('public catalogue endpoints', () => {
  it('lists the seeded currencies with integer rial rates', async () => {
    const { data, response } = await guest.POST('/api/public/searchCurrencies', { body: {} });
    expect(response.status).toBe(200);
    expect(data!.result).toBe(true);
    expect(data!.data.total).toBeGreaterThanOrEqual(5);
    const usd = data!.data.items.find((c) => c.code === 'USD');
    expect(usd).toMatchObject({ title: 'دلار آمریکا', useForUafCpr: true, useForGoogleAdsAccountCr: true });
    expect(Number.isInteger(usd?.rate)).toBe(true);
    expect(new Date(String(usd?.rateUpdatedAt)).getTime()).not.toBeNaN();
  });

  it('filters currencies by flag and search text, and pages', async () => {
    const ads = await dataOf(guest.POST('/api/public/searchCurrencies', { body: { useForGoogleAdsAccountCr: true } }));
    expect(ads.items.length).toBeGreaterThan(0);
    expect(ads.items.every((c) => c.useForGoogleAdsAccountCr)).toBe(true);

    const search = await dataOf(guest.POST('/api/public/searchCurrencies', { body: { search: 'یورو' } }));
    expect(search.items.map((c) => c.code)).toEqual(['EUR']);

    const page2 = await dataOf(guest.POST('/api/public/searchCurrencies', { body: { page: 2, perPage: 2 } }));
    expect(page2.items).toHaveLength(2);
    expect(page2.total).toBeGreaterThan(2);
  });

  it('treats a LIKE wildcard in the search text literally', async () => {
    const found = await dataOf(guest.POST('/api/public/searchCurrencies', { body: { search: '%' } }));
    expect(found.total).toBe(0);
  });

  it('lists payment method groups, cash ones marked', async () => {
    const groups = await dataOf(guest.POST('/api/public/searchPaymentMethodGroups'));
    expect(groups.items.length).toBeGreaterThan(0);
    expect(groups.items.some((g) => g.isCash)).toBe(true);
  });

  it('exposes only the public system parameters', async () => {
    const parameters = await dataOf(guest.POST('/api/public/fetchSystemParameters'));
    expect(parameters).toMatchObject({ quoteLifetimeSeconds: 300, mobileValidationCodeLifetimeSeconds: 120 });
  });
});

describe('errors are Persian envelopes with the right status', () => {
  it('400 for a field the contract does not know', async () => {
    const { status, body } = await post(server, '/api/public/searchCurrencies', { nope: 1 });
    expect(status).toBe(400);
    expect(body).toMatchObject({ result: false, msg: 'فیلد «nope» مجاز نیست.' });
  });

  it('400 for a value of the wrong type', async () => {
    const { status, body } = await post(server, '/api/public/searchCurrencies', { perPage: 'many' });
    expect(status).toBe(400);
    expect(body.msg).toBe('مقدار فیلد «perPage» معتبر نیست.');
  });

  it('400 for malformed JSON, without a stack trace', async () => {
    const res = await fetch(`${server.url}/api/public/searchCurrencies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"search":',
    });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ result: false, msg: 'بدنه درخواست، JSON معتبر نیست.' });
    expect(text).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('415 for an unsupported content type', async () => {
    const res = await fetch(`${server.url}/api/public/searchCurrencies`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: '<a/>',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ result: false, msg: 'نوع محتوای درخواست پشتیبانی نمی‌شود.' });
  });

  it('404 for an unknown /api route and for a GET on a POST operation', async () => {
    for (const [method, url] of [
      ['POST', '/api/public/nothingHere'],
      ['GET', '/api/public/searchCurrencies'],
      ['GET', '/storage/missing.png'],
    ] as const) {
      const res = await fetch(server.url + url, { method });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(await res.json()).toEqual({ result: false, msg: 'نشانی درخواست‌شده یافت نشد.', data: null });
    }
  });
});
