/**
 * Text PostgreSQL cannot hold (NUL, unpaired surrogates) is refused with a Persian 400 by the contract router,
 * in every operation's strings, keys and path parameters, instead of reaching the database as a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  loginAdmin,
  loginByCode,
  post,
  type RunningServer,
  startServer,
  verifiedCustomer,
} from '../support/server';

let server: RunningServer;
let admin: string;
let customer: string;

beforeAll(async () => {
  server = await startServer({ web: false });
  admin = await loginAdmin(server);
  customer = await loginByCode(server, '09181230001');
});
afterAll(async () => server?.stop());

const REFUSED = /^مقدار «.*» نویسه‌ای دارد که پذیرفته نیست/;

/** Posts a JSON text as is, so a lone surrogate travels as its \u escape. */
async function postRaw(urlPath: string, json: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + urlPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', ...headers },
    body: json,
  });
  return { status: res.status, body: (await res.json()) as { result: boolean; msg: string } };
}

describe('text PostgreSQL cannot store', () => {
  it('refuses a NUL character in the strings of several operations with a Persian 400', async () => {
    const token = await verifiedCustomer(server, '09181230002', '0095678913');
    const cases: Array<[string, unknown, Record<string, string>]> = [
      ['/api/me/searchPurchases', { search: 'uaf\u0000' }, bearer(customer)],
      ['/api/sys/searchPurchases', { search: '\u0000' }, bearer(admin)],
      ['/api/public/searchCurrencies', { search: 'دلار\u0000' }, {}],
      ['/api/me/loginByPassword', { username: '09120000000\u0000', password: 'x\u0000y' }, {}],
      ['/api/sys/searchUsers', { search: 'a\u0000b' }, bearer(admin)],
      ['/api/me/inquiryNationalCode', { nationalCode: '\u00000499370899' }, bearer(customer)],
      [
        '/api/me/desks/uafCpr/requests',
        {
          currency: 1,
          amount: 10,
          requestedPaymentMethodGroup: 1,
          targetPageAddress: 'https://pay.example.org',
          targetPageUsername: 'me\u0000',
          targetPagePassword: 'pw',
          quoteId: 'q',
        },
        { ...bearer(token), 'idempotency-key': 'nul-key-0001' },
      ],
      // In a key rather than a value.
      ['/api/me/searchPurchases', { ['sea\u0000rch']: 'x' }, bearer(customer)],
    ];
    for (const [urlPath, body, headers] of cases) {
      const res = await post(server, urlPath, body, headers);
      expect(res.status, urlPath).toBe(400);
      expect(res.body.result).toBe(false);
      expect(res.body.msg, urlPath).toMatch(REFUSED);
    }
    // Nothing was stored from the refused request.
    const mine = await post(server, '/api/me/searchPurchases', undefined, bearer(token));
    expect((mine.body.data as { total: number }).total).toBe(0);
  });

  it('refuses a NUL in a path parameter', async () => {
    const res = await post(server, '/api/me/desks/uaf%00Cpr/priceInquiry', {}, bearer(customer));
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(REFUSED);
  });

  it('refuses an unpaired surrogate, which jsonb cannot hold', async () => {
    const res = await postRaw('/api/me/searchPurchases', '{"search":"a\\ud800b"}', bearer(customer));
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(REFUSED);
  });

  it('accepts Persian text and emoji (paired surrogates)', async () => {
    const res = await post(server, '/api/me/searchPurchases', { search: 'دلار 😀' }, bearer(customer));
    expect(res.status).toBe(200);
    expect((res.body.data as { total: number }).total).toBe(0);
  });
});
