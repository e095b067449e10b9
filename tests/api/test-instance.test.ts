/**
 * A test instance says so (issue 29, decision 023), in what the server sends: with the sandbox bank as the gateway
 * every HTML page carries the mark and the banner (prerendered, empty shell, compressed per request), a collection
 * taken at the sandbox bank is test money in the staff's collections list (the rows its export writes), and one
 * recorded by hand is not; with ZarinPal the pages are sent as built, without either.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../../src/server/modules/ledger/invariants';
import { moneyHelpers } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer, startServer, webDir } from '../support/server';

const BANNER =
  '<p id="test-instance-banner" class="test-instance-banner" role="status">درگاه آزمایشی: پولی جابه‌جا نمی‌شود</p>';

/** A page as the browser gets it, brotli-compressed; its text and headers. */
function page(server: RunningServer, urlPath: string, cookie?: string) {
  const headers = { 'accept-encoding': 'br', ...(cookie ? { cookie } : {}) };
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${server.url}${urlPath}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: brotliDecompressSync(Buffer.concat(chunks)),
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('with the sandbox bank', () => {
  let server: RunningServer;
  let admin: string;
  let money: ReturnType<typeof moneyHelpers>;

  beforeAll(async () => {
    server = await startServer();
    admin = await loginAdmin(server);
    money = moneyHelpers(server);
    await money.ready();
  });
  afterAll(async () => server?.stop());
  afterEach(async () => {
    expect(await checkInvariants(server.app.database.db)).toEqual([]);
  });

  it.each([
    ['/', 'pages/index.html'],
    ['/desks/toeflGeneralCpr', 'pages/desks/toeflGeneralCpr.html'],
    ['/request/myWallet', 'pages/request/myWallet.html'],
    ['/management/collections', 'index.html'],
  ])('%s arrives with the test mark and the banner first in its body, otherwise as built', async (urlPath, file) => {
    const res = await page(server, urlPath);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    const html = res.body.toString('utf8');
    expect(html).toMatch(/^<!doctype html>\s*<html data-test-instance="sandbox" lang="fa" dir="rtl">/i);
    expect(html).toMatch(new RegExp(`<body>${BANNER}\\s*<div id="root">`));
    // Nothing else of the built page changes: the banner is outside the app's root, which hydrates as built.
    const built = readFileSync(path.join(webDir, file), 'utf8');
    expect(html.replace(' data-test-instance="sandbox"', '').replace(BANNER, '')).toBe(built);
  });

  it("a signed-in browser's empty shell carries it too", async () => {
    const html = (await page(server, '/', 'arzpay_signed_in=1')).body.toString('utf8');
    expect(html).toMatch(new RegExp(`<body>${BANNER}\\s*<div id="root"></div>`));
  });

  it('marks a collection taken at the sandbox bank as test money, and not one recorded by hand', async () => {
    const who = await money.customer();
    const purchase = await money.request(who, 20);
    const paying = await money.payOk(who, purchase.id);
    await money.payAtSandboxBank(who, paying.gatewayUrl!);
    const accounts = await post(server, '/api/sys/searchInternalBankAccounts', {}, bearer(admin));
    const bankAccount = (accounts.body.data as { items: Array<{ id: number; isActive: boolean }> }).items.find(
      (a) => a.isActive,
    )!.id;
    const me = await post(server, '/api/me/fetchUserData', undefined, bearer(who.token));
    const deposit = await post(
      server,
      '/api/sys/payOffline',
      {
        formIsValid: true,
        onlineProformaToken: '',
        customerMobileNo: (me.body.data as { mobileNo: string }).mobileNo,
        collectionAmount: 1_500_000,
        collectionTrackingCode: `TEST-INSTANCE-${process.pid}`,
        collectionSourceAccountNo: '6037-9912-3456-7890',
        collectionDestinationAccount: bankAccount,
      },
      bearer(admin),
    );
    expect(deposit.status, deposit.body.msg).toBe(200);

    const listed = await post(server, '/api/sys/searchCollections', { userId: who.userId }, bearer(admin));
    expect(listed.status, listed.body.msg).toBe(200);
    const items = (listed.body.data as { items: Array<Record<string, unknown>> }).items;
    expect(items.map((c) => [c.source, c.testMoney, c.sourceTitle, c.channelTitle])).toEqual([
      ['offline', false, 'دستی', expect.any(String)],
      ['online', true, 'آنلاین، پول آزمایشی', 'درگاه آزمایشی'],
    ]);
    // The list's export writes each row's columns as shown (schemas/tables/collections.json): the kind says it.
    const table = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../schemas/tables/collections.json'), 'utf8'),
    ) as {
      export: boolean;
      columns: Array<{ key: string; title: string }>;
    };
    expect(table.export).toBe(true);
    expect(table.columns).toContainEqual(expect.objectContaining({ key: 'sourceTitle', title: 'نوع' }));
  });
});

describe('with ZarinPal', () => {
  let server: RunningServer;

  beforeAll(async () => {
    // Its own in-memory database, beside whatever the file's other server used; nothing calls ZarinPal here.
    server = await startServer({
      env: {
        DATABASE_URL: 'memory://',
        PAYMENT_GATEWAY: 'zarinpal',
        ZARINPAL_MERCHANT_ID: '1a2b3c4d-0000-4000-8000-123456789abc',
        ZARINPAL_BASE_URL: 'http://127.0.0.1:9',
      },
    });
  });
  afterAll(async () => server?.stop());

  it.each([
    ['/', 'pages/index.html'],
    ['/management/collections', 'index.html'],
  ])('%s is sent as built: its precompressed copy, no mark, no banner', async (urlPath, file) => {
    const res = await page(server, urlPath);
    expect(res.status).toBe(200);
    expect(res.body.equals(readFileSync(path.join(webDir, file)))).toBe(true);
    expect(res.body.toString('utf8')).not.toContain('test-instance');
  });
});
