/**
 * Sessions and password change as a customer does them (issue 15, points 3 and 4), in real Chromium with two
 * browser contexts: one number signs in on a phone and, spelled with Persian digits and spaces, on a laptop;
 * the phone sees both sessions on "my account", ends the laptop's, and the laptop is signed out at its next
 * call; another customer's phone sets a password with an SMS code and changes it with the current one, typing key
 * by key.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONTH_NAMES } from '../../src/shared/calendar/month-grid';
import { DESKTOP, launchBrowser, PHONE } from '../support/browser';
import { post, type RunningServer, startServer } from '../support/server';
import { step } from '../support/steps';
import { WAIT_MS } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const LAPTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const MOBILE = '09123456789';
/** The number that sets and changes its password, on a phone of its own. */
const PASSWORD_MOBILE = '09123456780';

let server: RunningServer;
let browser: Browser;
let phone: BrowserContext;
let laptop: BrowserContext;
let phonePage: Page;
let laptopPage: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  phone = await browser.newContext({ viewport: PHONE, userAgent: PHONE_UA });
  laptop = await browser.newContext({ viewport: DESKTOP, userAgent: LAPTOP_UA });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Logs in through the code form, typing the number as given and the code from the SMS log, key by key. */
async function logInByCode(page: Page, typed: string, mobileNo = MOBILE): Promise<void> {
  await page.goto(`${server.url}/login`);
  const before = server.lastSmsCode(mobileNo);
  await page.locator('#login-mobile').pressSequentially(typed);
  await page.getByTestId('send-code').click();
  await page
    .getByTestId('countdown')
    .filter({ hasText: /[۰-۹]:[۰-۹]{2}/ })
    .waitFor();
  // The SMS reaches the captured log a moment after the answer: wait for this one, not the last log-in's code.
  await expect.poll(() => server.lastSmsCode(mobileNo), { timeout: WAIT_MS }).not.toBe(before);
  await page.locator('#login-code').pressSequentially(server.lastSmsCode(mobileNo)!);
  await page.getByTestId('login-by-code').click();
  await page.waitForURL(`${server.url}/`);
}

async function openMyAccount(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'حساب من و نشست‌ها' }).click();
  await page.waitForURL(`${server.url}/request/myAccount`);
}

describe('sessions and password change', () => {
  const signedInOnBoth = step(async () => {
    phonePage = await phone.newPage();
    await logInByCode(phonePage, MOBILE);
    laptopPage = await laptop.newPage();
    await logInByCode(laptopPage, '۰۹۱۲ ۳۴۵ ۶۷۸۹');

    await openMyAccount(phonePage);
    const sessions = phonePage.getByTestId('session');
    await phonePage.getByTestId('session-count').filter({ hasText: '۲ نشست فعال' }).waitFor();
    expect(await sessions.count()).toBe(2);
    const current = phonePage.locator('[data-testid=session][data-current=true]');
    expect(await current.textContent()).toContain('Chrome 124 روی Android 14');
    expect(await current.getByTestId('current-session').textContent()).toBe('این دستگاه');
    expect(await current.getByTestId('end-session').count()).toBe(0);
    const other = phonePage.locator('[data-testid=session][data-current=false]');
    expect(await other.textContent()).toContain('Linux');
    // Dates are Jalali by default: the log-in with the month's Persian name and a 14xx year, the last use as how
    // long ago it was (its date in the tooltip); and the page fits a 390px phone.
    const month = `(${MONTH_NAMES.fa.join('|')})`;
    expect(await current.locator('time').first().textContent()).toMatch(
      new RegExp(`^[۰-۹]{1,2} ${month} ۱۴[۰-۹]{2}، [۰-۹]{2}:[۰-۹]{2}$`),
    );
    expect(await current.locator('time').nth(1).textContent()).toMatch(/^(لحظاتی پیش|[۰-۹]+ دقیقه پیش)$/);
    expect(await current.locator('time').nth(1).getAttribute('title')).toMatch(
      /^۱۴[۰-۹]{2}\/[۰-۹]{2}\/[۰-۹]{2} [۰-۹]{2}:[۰-۹]{2}$/,
    );
    expect(
      await phonePage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await phonePage.screenshot({ path: `${shots}/sessions-phone.png`, fullPage: true });
  });

  it('signs one number in on two devices, spelled two ways, and the phone sees both sessions', async () => {
    await signedInOnBoth();
  });

  it('ends the laptop session from the phone, and the laptop is signed out at its next call', async () => {
    await signedInOnBoth();
    await phonePage.locator('[data-testid=session][data-current=false]').getByTestId('end-session').click();
    await phonePage.getByText('نشست پایان یافت.').waitFor();
    await phonePage.getByTestId('session-count').filter({ hasText: '۱ نشست فعال' }).waitFor();

    // The laptop still shows a signed-in menu; its next request is refused and the session ends there.
    await openMyAccount(laptopPage);
    await laptopPage.getByText('کاربری در سیستم وارد نشده است.').waitFor();
    expect(await laptopPage.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await laptopPage.getByTestId('user-menu').click();
    await laptopPage.getByRole('menuitem', { name: 'ورود' }).waitFor();
    await laptopPage.keyboard.press('Escape');
    await laptopPage.screenshot({ path: `${shots}/sessions-ended-laptop.png` });
  });

  it('sets a first password with an SMS code, then changes it with the current one, key by key', async () => {
    const page = await (await browser.newContext({ viewport: PHONE, userAgent: PHONE_UA })).newPage();
    await logInByCode(page, PASSWORD_MOBILE, PASSWORD_MOBILE);
    await openMyAccount(page);
    await page.getByTestId('password-state').filter({ hasText: 'تعیین نشده' }).waitFor();
    await page.getByTestId('open-change-password').click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await dialog.getByText('Required').count()).toBe(2);
    await dialog.getByRole('button', { name: 'Send code' }).click();
    await dialog.getByTestId('code-notice').filter({ hasText: 'A code was sent to 0912 345 6780.' }).waitFor();
    await dialog.getByLabel('Verification code').pressSequentially(server.lastSmsCode(PASSWORD_MOBILE)!);
    await dialog.getByLabel('New password').pressSequentially('first-secret-1');
    await page.screenshot({ path: `${shots}/change-password-code-phone.png` });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('رمز عبور با موفقیت تغییر کرد.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('password-state').filter({ hasText: 'تعیین شده' }).waitFor();

    await page.getByTestId('open-change-password').click();
    await dialog.waitFor();
    await dialog.getByLabel('Current password').pressSequentially('not-the-password');
    await dialog.getByLabel('New password').pressSequentially('second-secret-2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('رمز عبور فعلی صحیح نیست.').waitFor();
    await dialog.getByLabel('Current password').fill('');
    await dialog.getByLabel('Current password').pressSequentially('first-secret-1');
    await page.screenshot({ path: `${shots}/change-password-current-phone.png` });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('رمز عبور با موفقیت تغییر کرد.').waitFor();

    // The phone's own session goes on, and the new password is the one that logs in.
    expect((await page.evaluate(() => localStorage.getItem('token'))) ?? '').toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const old = await post(server, '/api/me/loginByPassword', {
      username: PASSWORD_MOBILE,
      password: 'first-secret-1',
    });
    expect(old.status).toBe(422);
    const fresh = await post(server, '/api/me/loginByPassword', {
      username: PASSWORD_MOBILE,
      password: 'second-secret-2',
    });
    expect(fresh.status).toBe(200);
    await page.context().close();
  });
});
