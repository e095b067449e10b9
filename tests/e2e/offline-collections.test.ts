/**
 * A manual collection as staff record it, in real Chromium: the administrator opens Collections, records a deposit
 * to a customer's wallet in «ثبت دریافت دستی» (typed key by key; the customer's name and balance show once the
 * mobile number is whole; a missing field is refused in Persian first; the dialog then asks with the amount in
 * words before crediting), sees 'دریافت با موفقیت ثبت شد.' and the new row, then the customer's wallet page shows the money and the staff home
 * shows what is waiting. Screenshots of the collections page and the staff home at 1366x768 and 390x844.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, PHONE } from '../support/browser';
import {
  ADMIN_MOBILE,
  ADMIN_PASSWORD,
  bearer,
  loginByCode,
  post,
  type RunningServer,
  startServer,
} from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const CUSTOMER = '09181230001';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function logIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByRole('tab', { name: 'ورود با رمز عبور' }).click();
  await page.locator('#login-username').pressSequentially(ADMIN_MOBILE);
  await page.locator('#login-password').pressSequentially(ADMIN_PASSWORD);
  await page.getByTestId('login-by-password').click();
  await page.waitForURL(`${server.url}/management`);
}

describe('manual collections', () => {
  it('staff record a deposit in the dialog, see the success message, the row, the wallet and the staff home', async () => {
    const customerToken = await loginByCode(server, CUSTOMER);
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(customerToken))).body.data as {
      id: number;
    };
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await logIn(page);
    await page.goto(`${server.url}/management/collections`);
    await page.getByTestId('table-collections').waitFor();

    await page.getByTestId('open-pay-offline').click();
    const dialog = page.getByTestId('pay-offline-dialog');
    await dialog.waitFor();
    await page.locator('#payOffline_customerMobileNo').pressSequentially(CUSTOMER);
    // Whose wallet it is, and what it holds now, as soon as the number is whole.
    const customer = dialog.getByTestId('deposit-customer');
    await customer.waitFor();
    expect(await customer.textContent()).toContain('موجودی کنونی: ۰ ریال');
    await page.locator('#payOffline_collectionAmount').pressSequentially('۲۵۰۰۰۰۰');
    await page.locator('#payOffline_collectionTrackingCode').pressSequentially('TRK-778899');
    // The destination account is still missing: refused in Persian before anything is sent.
    await page.getByTestId('submit-pay-offline').click();
    await expect.poll(() => dialog.textContent()).toContain('شماره حساب یا کارت مبدا را وارد نمایید.');
    await page.locator('#payOffline_collectionSourceAccountNo').pressSequentially('6037991234567890');
    await page.locator('#payOffline_collectionDestinationAccount').click();
    await page.getByRole('option').first().click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.getByTestId('submit-pay-offline').click();
    // Asked once more, with the amount in words and the balance it makes; nothing is credited yet.
    const confirm = dialog.getByTestId('pay-offline-confirm');
    await confirm.waitFor();
    expect(await confirm.getByTestId('pay-offline-confirm-words').textContent()).toBe('دو میلیون و پانصد هزار ریال');
    expect(await confirm.textContent()).toContain('۲٬۵۰۰٬۰۰۰ ریال');
    await page.screenshot({ path: `${shots}/pay-offline-confirm-desktop.png` });
    expect(
      (await post(server, '/api/sys/fetchCustomerWallet', { userId: me.id }, bearer(customerToken))).body.data,
    ).toMatchObject({ balance: 0 });
    await page.getByTestId('confirm-pay-offline').click();

    await page.getByText('دریافت با موفقیت ثبت شد.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByTestId('collections-row').filter({ hasText: 'TRK-778899' });
    await row.waitFor();
    expect(await row.textContent()).toContain('دستی');
    await page.screenshot({ path: `${shots}/collections-desktop.png`, fullPage: true });

    // The same code again is refused by the server, shown in the dialog.
    await page.getByTestId('open-pay-offline').click();
    await page.locator('#payOffline_customerMobileNo').pressSequentially(CUSTOMER);
    await page.locator('#payOffline_collectionAmount').pressSequentially('1000');
    await page.locator('#payOffline_collectionTrackingCode').pressSequentially('TRK-778899');
    await page.locator('#payOffline_collectionSourceAccountNo').pressSequentially('6037991234567890');
    await page.locator('#payOffline_collectionDestinationAccount').click();
    await page.getByRole('option').first().click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.getByTestId('submit-pay-offline').click();
    await page.getByTestId('confirm-pay-offline').click();
    await page.getByRole('alert').filter({ hasText: 'این کد پیگیری پیش‌تر ثبت شده است' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.goto(`${server.url}/customer-wallets/${me.id}`);
    await expect.poll(() => page.getByTestId('customer-wallet-balance').textContent()).toMatch(/۲٬?۵۰۰٬?۰۰۰|2,500,000/);
    await page.getByTestId('customerTransactions-row').first().waitFor();

    await page.goto(`${server.url}/management`);
    await page.getByTestId('waiting-work').waitFor();
    await page.getByTestId('waiting-approveProfileAsL1Task').waitFor();
    await page.screenshot({ path: `${shots}/management-home-desktop.png`, fullPage: true });

    const phone = await (await browser.newContext({ viewport: PHONE })).newPage();
    await logIn(phone);
    await phone.goto(`${server.url}/management/collections`);
    await phone.getByTestId('collections-row').first().waitFor();
    await phone.screenshot({ path: `${shots}/collections-phone.png`, fullPage: true });
    await phone.goto(`${server.url}/management`);
    await phone.getByTestId('waiting-work').waitFor();
    await phone.screenshot({ path: `${shots}/management-home-phone.png`, fullPage: true });
  });
});
