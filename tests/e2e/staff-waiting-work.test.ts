/**
 * Staff reach their waiting work (issue 32, point 8), in Chromium at 1366x768 and 390x844: the administrator logs in
 * and lands on the management home, not the customer's; each count there opens the list of exactly what it counts
 * (a task type's tasks, the withdrawals waiting to be paid with their IBAN in groups of four, the payments to complete
 * by hand, the paid requests not yet fulfilled) and a waiting request opens that request. A payment completed by hand
 * asks with its amount in words first. A guest sent from a staff address to log-in is told why.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toEnglishDigits } from '../../src/shared/digits';
import { DESKTOP, launchBrowser, PHONE } from '../support/browser';
import { moneyHelpers, type Purchase, testIban } from '../support/money';
import { ADMIN_MOBILE, ADMIN_PASSWORD, loginAdmin, type RunningServer, startServer } from '../support/server';

const shots = '/tmp/shots32s';
const artifacts = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
let money: ReturnType<typeof moneyHelpers>;
let paid: Purchase;
let unconfirmed: Purchase;

const IBAN = testIban(8_800_001);

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  money = moneyHelpers(server);
  await money.ready();
  const admin = await loginAdmin(server);
  const who = await money.customer();
  paid = await money.paidRequest(who);
  unconfirmed = await money.request(who);
  const paying = await money.payOk(who, unconfirmed.id);
  await money.payAtSandboxBankOnly(who, paying.gatewayUrl!);
  await money.withdrawalWaiting(who, admin, IBAN);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function logIn(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'ورود با رمز عبور' }).click();
  await page.locator('#login-username').pressSequentially(ADMIN_MOBILE);
  await page.locator('#login-password').pressSequentially(ADMIN_PASSWORD);
  await page.getByTestId('login-by-password').click();
}

/** Back on the management home by its drawer entry, as a person goes back. */
async function home(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'خانه مدیریت' }).first().click();
  await page.waitForURL(`${server.url}/management`);
  await page.getByTestId('waiting-work').waitFor();
}

describe('staff waiting work', () => {
  it('lands staff on their waiting work; every count opens its filtered list and a waiting request opens it', async () => {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    // A guest sent from a staff address is told why before logging in, and goes back there after.
    await page.goto(`${server.url}/management/withdrawals`);
    await page.waitForURL(/\/login\?next=/);
    expect(await page.getByTestId('login-why').textContent()).toContain(
      '«برداشت‌ها» بخشی از مدیریت ارزپی و ویژهٔ کارکنان است',
    );
    await page.goto(`${server.url}/login`);
    expect(await page.getByTestId('login-why').count()).toBe(0);
    await logIn(page);
    await page.waitForURL(`${server.url}/management`);
    const work = page.getByTestId('waiting-work');
    await work.waitFor();
    await page.getByTestId('waiting-withdrawals').filter({ hasText: '۱' }).waitFor();
    await page.getByTestId('waiting-unconfirmedPayments').filter({ hasText: '۱' }).waitFor();
    await page.screenshot({ path: `${shots}/management-home-desktop.png`, fullPage: true });

    // A task type's count: the queue narrowed to that type, its chip marked.
    await page.getByTestId('waiting-uafCprCpTask').click();
    await page.waitForURL(/\/management\/tasks\?type=uafCprCpTask$/);
    await page.getByTestId('tasks-row').first().waitFor();
    expect(await page.getByTestId('task-type-uafCprCpTask').getAttribute('aria-pressed')).toBe('true');
    const types = await page.getByTestId('tasks-row').getByTestId('row-badge').allTextContents();
    expect(new Set(types).size).toBe(1);
    await home(page);

    // The withdrawals waiting to be paid, the IBAN in groups of four as the dialog shows it.
    await page.getByTestId('waiting-withdrawals').click();
    await page.waitForURL(/\/management\/withdrawals\?state=requested$/);
    const withdrawal = page.getByTestId('withdrawals-requested-row').first();
    await withdrawal.waitFor();
    expect(await withdrawal.textContent()).toContain(IBAN.replace(/(.{4})(?!$)/g, '$1 '));
    expect(await page.getByRole('columnheader', { name: 'دلیل رد' }).count()).toBe(0);
    await page.screenshot({ path: `${shots}/withdrawals-desktop.png`, fullPage: true });
    await home(page);

    // The payments to complete by hand: completing one asks with the amount in words, then the request is paid.
    await page.getByTestId('waiting-unconfirmedPayments').click();
    await page.waitForURL(`${server.url}/management/manual-completion`);
    await page.getByTestId(`complete-${unconfirmed.id}`).click();
    const dialog = page.getByTestId('pay-offline-dialog');
    await page.locator('#payOffline_collectionTrackingCode').pressSequentially('MANUAL-5501');
    await page.locator('#payOffline_collectionSourceAccountNo').pressSequentially('6037991234567890');
    await page.locator('#payOffline_collectionDestinationAccount').click();
    await page.getByRole('option').first().click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.getByTestId('submit-pay-offline').click();
    await dialog.getByTestId('pay-offline-confirm').waitFor();
    expect(await dialog.getByTestId('pay-offline-confirm-words').textContent()).toMatch(/ریال$/);
    await page.screenshot({ path: `${shots}/manual-completion-confirm-desktop.png` });
    await page.getByTestId('confirm-pay-offline').click();
    await page.getByText('دریافت با موفقیت ثبت شد.').waitFor();
    await page.getByTestId(`complete-${unconfirmed.id}`).waitFor({ state: 'detached' });
    await home(page);
    await page.getByTestId('waiting-unconfirmedPayments').filter({ hasText: '۰' }).waitFor();

    // The paid requests not yet fulfilled: the count opens the list in those states, a row opens its request.
    await page.getByTestId('waiting-paid-requests-all').click();
    await page.waitForURL(/\/management\/requests\?state=paid,inProgress$/);
    await page.getByTestId('requests-state-filter').waitFor();
    await page.getByTestId('requests-row').first().waitFor();
    const states = await page.getByTestId('requests-row').getByTestId('row-badge').allTextContents();
    expect(states.length).toBeGreaterThan(0);
    expect(states.every((s) => s === 'پرداخت شده' || s === 'در حال انجام')).toBe(true);
    await home(page);
    await page.getByTestId(`waiting-request-${paid.id}`).click();
    await page.waitForURL(new RegExp(`/management/requests\\?open=${paid.id}$`));
    const detail = page.getByTestId('staff-request-detail');
    await detail.getByTestId('state-history').waitFor();
    // The request itself (its digits are another change's concern: read either way).
    expect(toEnglishDigits((await detail.getByRole('heading').first().textContent()) ?? '')).toContain(
      `شماره ${paid.id}`,
    );
    await page.context().close();

    // On a phone too, log-in lands on the waiting work.
    const phone = await (await browser.newContext({ viewport: PHONE })).newPage();
    await phone.goto(`${server.url}/login`);
    await logIn(phone);
    await phone.waitForURL(`${server.url}/management`);
    await phone.getByTestId('waiting-withdrawals').waitFor();
    await phone.screenshot({ path: `${shots}/management-home-phone.png`, fullPage: true });
    await phone.screenshot({ path: `${artifacts}/management-home-waiting-phone.png`, fullPage: true });
    await phone.context().close();
  });
});
