/**
 * A new customer's lists on a 390x844 phone (issue 13): requests, wallet transactions and Google Ads accounts say
 * what will appear there and offer the next step instead of a bare "no data", with no pager over nothing; once a
 * request exists, the list and its pager (in Persian words and digits) take the empty state's place.
 * Screenshots: tests/artifacts/screenshots/empty-*.png.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationsDone, DESKTOP, launchBrowser, PHONE, keepSignedIn } from '../support/browser';
import { type Customer, moneyHelpers } from '../support/money';
import { loginAdmin, type RunningServer, startServer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let money: ReturnType<typeof moneyHelpers>;
let who: Customer;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  money = moneyHelpers(server);
  await money.ready();
  who = await money.customer();
  context = await browser.newContext({ viewport: PHONE });
  await keepSignedIn(context, who.token);
}, 180_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** Every list on the page is empty: each says so in its own words, and none has a pager. */
async function openEmpty(page: Page, address: string, testId: string, name: string) {
  await page.goto(server.url + address);
  const empty = page.getByTestId(testId);
  await empty.waitFor();
  expect(await page.getByText('داده‌ای موجود نیست').count()).toBe(0);
  expect(await page.getByTestId('table-pager').count()).toBe(0);
  await page.screenshot({ path: `${shots}/empty-${name}.png`, fullPage: true });
  return empty;
}

describe("a new customer's empty lists", () => {
  it('requests: says what appears there, and its next step leads to the services', async () => {
    const page = await context.newPage();
    const empty = await openEmpty(page, '/request/myRequests', 'my-requests-empty', 'requests');
    expect(await empty.getByRole('heading').textContent()).toBe('هنوز درخواستی ثبت نکرده‌اید');
    await empty.getByRole('link', { name: 'دیدن خدمات و ثبت درخواست' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByTestId('featured-toeflGeneralCpr').waitFor();
    await page.close();
  });

  it('wallet: says what appears there, and points to the services', async () => {
    const page = await context.newPage();
    const empty = await openEmpty(page, '/request/myWallet', 'my-transactions-empty', 'wallet');
    expect(await empty.getByRole('heading').textContent()).toBe('هنوز تراکنشی ندارید');
    await page.getByTestId('bank-accounts-empty').getByText('هنوز حساب بانکی ثبت نکرده‌اید').waitFor();
    await page.getByTestId('withdrawals-empty').getByText('هنوز برداشتی نداشته‌اید').waitFor();
    await empty.getByRole('link', { name: 'دیدن خدمات' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.close();
  });

  it('Google Ads accounts: says what appears there, and its button opens the request dialog', async () => {
    const page = await context.newPage();
    const empty = await openEmpty(page, '/myGoogleAdsAccounts', 'my-google-ads-accounts-empty', 'google-ads');
    expect(await empty.getByRole('heading').textContent()).toBe('هنوز حساب گوگل ادزی ندارید');
    await page.getByTestId('my-google-ads-requests-empty').waitFor();
    await empty.getByRole('button', { name: 'درخواست ساخت حساب' }).click();
    await page.getByTestId('create-google-ads-account').waitFor();
    await page.close();
  });

  it('gives way to the list and a Persian pager once there is a request', async () => {
    await money.request(who);
    const page = await context.newPage();
    await page.goto(server.url + '/request/myRequests');
    await page.getByTestId('myRequests-row').first().waitFor();
    expect(await page.getByTestId('my-requests-empty').count()).toBe(0);
    expect((await page.getByTestId('table-pager').textContent())?.replace(/\s+/g, ' ')).toContain(
      'صفحهٔ ۱ از ۱ (۱ مورد)',
    );
    await page.close();
  });

  it('a staff table says what is missing in its own words, and a search that finds nothing says so', async () => {
    const staff = await browser.newContext({ viewport: DESKTOP });
    await keepSignedIn(staff, await loginAdmin(server));
    const page = await staff.newPage();
    await page.goto(server.url + '/management/withdrawals');
    // The page opens on those waiting for a transfer: none, which is not the same as none at all.
    const table = page.getByTestId('table-withdrawals-requested');
    await table.getByText('موردی با این فیلتر یافت نشد').waitFor();
    await page.getByRole('radio', { name: 'همه' }).click();
    const all = page.getByTestId('table-withdrawals-all');
    await all.getByText('هنوز درخواست برداشتی ثبت نشده است.').waitFor();
    expect(await page.getByText('داده‌ای موجود نیست').count()).toBe(0);
    expect(await page.getByTestId('table-pager').count()).toBe(0);
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/empty-staff-withdrawals.png` });
    await all.getByRole('textbox', { name: 'جستجو' }).pressSequentially('۹۹۹');
    await all.getByText('موردی مطابق جستجو یافت نشد').waitFor();
    await staff.close();
  });
});
