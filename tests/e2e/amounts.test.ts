/**
 * How a customer reads money and time (issue 13): the toman equivalent beside the wallet balance, the price to
 * confirm and the receipt, switched off in the drawer and remembered; the price to confirm in Persian words; and
 * recent events in a list saying how long ago they were.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRial, formatToman } from '../../src/shared/format';
import { rialInWords } from '../../src/shared/format/persian-words';
import { launchBrowser, PHONE, keepSignedIn } from '../support/browser';
import { type Customer, moneyHelpers } from '../support/money';
import { type RunningServer, startServer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
/** Not a whole toman, so the equivalent shows its tenth. */
const DEPOSIT = 12_345_675;

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
  await money.deposit(who, DEPOSIT);
  context = await browser.newContext({ viewport: PHONE });
  await keepSignedIn(context, who.token);
}, 180_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

async function quotedDesk(page: Page): Promise<void> {
  await page.goto(`${server.url}/desks/toeflGeneralCpr`);
  await page.locator('#root_currency').getByText('دلار آمریکا').waitFor();
  await page.locator('#root_amount').click();
  await page.locator('#root_amount').pressSequentially('185');
  await page.locator('#root_requestedPaymentMethodGroup').click();
  await page.getByRole('option', { name: 'کارت اعتباری بین‌المللی' }).click();
  await page.getByTestId('price-summary').waitFor();
}

describe('amounts and times as a customer reads them', () => {
  it('shows the toman equivalent and the words of the price, until the customer switches the toman off', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/request/myWallet`);
    await page.getByTestId('wallet-balance').waitFor();
    expect(await page.getByTestId('wallet-balance').textContent()).toBe(formatRial(DEPOSIT));
    expect(await page.getByTestId('wallet-balance-toman').textContent()).toBe(`(معادل ${formatToman(DEPOSIT)})`);
    expect(formatToman(DEPOSIT)).toBe('۱٬۲۳۴٬۵۶۷٫۵ تومان');

    // The deposit just made, in the transactions list: its date, and under it how long ago.
    const move = page.getByTestId('myTransactions-row').first();
    await move.waitFor();
    expect(await move.getByTestId('relative-time').textContent()).toMatch(/^(لحظاتی پیش|[۰-۹]+ دقیقه پیش)$/);
    await page.screenshot({ path: `${shots}/amounts-wallet-toman-phone.png`, fullPage: true });

    await quotedDesk(page);
    const expected = (await page.getByTestId('expected-price').textContent())!;
    const rial = Number(expected.replace(/[^۰-۹]/g, '').replace(/[۰-۹]/g, (d) => String('۰۱۲۳۴۵۶۷۸۹'.indexOf(d))));
    expect(formatRial(rial)).toBe(expected);
    expect(await page.getByTestId('expected-price-words').textContent()).toBe(rialInWords(rial));
    expect(await page.getByTestId('expected-price-toman').textContent()).toBe(`(معادل ${formatToman(rial)})`);
    await page.getByTestId('price-summary').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/amounts-price-words-phone.png` });

    // Switched off in the drawer: the rial stays, the toman goes, and stays gone on the next visit.
    await page.getByTestId('menu-button').click();
    const toggle = page.getByTestId('toman-toggle');
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await page.keyboard.press('Escape');
    await page.getByTestId('expected-price-toman').waitFor({ state: 'detached' });
    expect(await page.getByTestId('expected-price-words').textContent()).toBe(rialInWords(rial));

    await page.goto(`${server.url}/request/myWallet`);
    await page.getByTestId('wallet-balance').waitFor();
    expect(await page.getByTestId('wallet-balance-toman').count()).toBe(0);
    await page.getByTestId('menu-button').click();
    expect(await page.getByTestId('toman-toggle').getAttribute('aria-checked')).toBe('false');
    await page.getByTestId('toman-toggle').click();
    await page.keyboard.press('Escape');
    await page.getByTestId('wallet-balance-toman').waitFor();
    await page.close();
  }, 120_000);
});
