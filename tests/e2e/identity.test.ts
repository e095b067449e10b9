/**
 * The identity flow of the identity issue, in real Chromium with two browser contexts:
 * a new customer logs in by SMS code (read from the `log` driver), fills the profile with a real image,
 * sees it pending; staff approve it from the task queue; the profile turns read-only at level 1;
 * a second decision on the same task is refused.
 */
import { parseHex, readableBehindWhite } from '../../src/shared/color/contrast';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toEnglishDigits } from '../../src/shared/digits';
import { DESKTOP, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
import { jpegWithExif } from '../support/images';
import { ADMIN_MOBILE, ADMIN_PASSWORD, bearer, post, type RunningServer, startServer } from '../support/server';
import { step } from '../support/steps';
import { WAIT_MS } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
let customer: BrowserContext;
let staff: BrowserContext;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  customer = await browser.newContext({ viewport: PHONE });
  staff = await browser.newContext({ viewport: DESKTOP });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('log-in, profile and staff approval', () => {
  const mobileNo = '09181234567';

  const loggedIn = step(async () => {
    const page = await customer.newPage();
    await page.goto(`${server.url}/login`);
    const login = page.getByTestId('login-by-code');
    expect(await login.isDisabled()).toBe(true);
    // No code yet: no timer at zero, but what to do first.
    expect(await page.getByTestId('code-hint').textContent()).toBe('ابتدا کد تایید را دریافت کنید.');
    expect(await page.getByTestId('countdown').count()).toBe(0);
    await page.getByTestId('send-code').click();
    await page.getByText('شماره موبایل را وارد نمایید.').waitFor();
    await page.fill('#login-mobile', '0912');
    await page.getByText('شماره موبایل صحیح نیست.').waitFor();
    await page.fill('#login-mobile', mobileNo);
    await page.getByTestId('send-code').click();
    await page.waitForFunction(() =>
      /^۰[۱۲]:[۰-۹]{2}$/.test(document.querySelector('[data-testid=countdown]')?.textContent ?? ''),
    );
    expect(await login.isDisabled()).toBe(false);
    // Asking again while the code is active sends nothing and shows the orange notice.
    await page.getByTestId('send-code').click();
    await page.getByTestId('active-code-notice').waitFor();
    expect(server.logs.filter((l) => l.msg === 'sms' && l.mobileNo === mobileNo)).toHaveLength(1);
    if (takeScreenshots) await page.screenshot({ path: `${shots}/login-code-phone.png` });

    await page.fill('#login-code', '00000' === server.lastSmsCode(mobileNo) ? '11111' : '00000');
    await login.click();
    await page.getByText('کد تایید صحیح نیست.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // The code as the SMS says it, in Persian digits, typed key by key as a phone's Persian keyboard gives them.
    const smsText = String(server.logs.filter((l) => l.msg === 'sms' && l.mobileNo === mobileNo).at(-1)?.text);
    const typed = /[۰-۹]{5}/.exec(smsText)?.[0];
    expect(typed && toEnglishDigits(typed)).toBe(server.lastSmsCode(mobileNo));
    await page.locator('#login-code').fill('');
    await page.locator('#login-code').pressSequentially(typed!);
    await login.click();
    await page.waitForURL(`${server.url}/`);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    await page.close();
  });

  const profileSent = step(async () => {
    await loggedIn();
    const page = await customer.newPage();
    await page.goto(`${server.url}/request/myProfile`);
    await page.getByTestId('unverified-warning').waitFor();
    await page.getByTestId('i-understand').click();
    const save = page.getByTestId('save-profile');
    expect(await save.isDisabled()).toBe(true);

    await page.fill('#profile_nationalCode', '1111111111');
    await page.locator('[role=alert]', { hasText: 'کد ملی صحیح نیست.' }).waitFor();
    await page.fill('#profile_nationalCode', '0499370899');
    await page.getByTestId('national-code-accepted').waitFor();
    await page.fill('#profile_firstName', 'Maryam');
    await page.locator('[role=alert]', { hasText: 'نام را با حروف فارسی وارد نمایید.' }).waitFor();
    await page.fill('#profile_firstName', 'مریم');
    await page.fill('#profile_lastName', 'احمدی');
    await page.fill('#profile_dateOfBirth', '1374/13/01');
    await page.locator('[role=alert]', { hasText: 'تاریخ معتبر نیست.' }).waitFor();
    await page.fill('#profile_dateOfBirth', '1374/01/01');
    expect(await save.isDisabled()).toBe(true); // no card image yet

    const card = path.join(os.tmpdir(), `card-${Date.now()}.jpg`);
    writeFileSync(card, await jpegWithExif(640, 400));
    await page.getByTestId('profile_nationalCardImageAddress-file').setInputFiles(card);
    await page.getByTestId('profile_nationalCardImageAddress-preview').waitFor();
    await page.waitForFunction(
      () => !(document.querySelector('[data-testid=save-profile]') as HTMLButtonElement).disabled,
    );
    await save.click();
    await page.getByTestId('profile-status').getByText('در انتظار بررسی').waitFor();
    if (takeScreenshots) await page.screenshot({ path: `${shots}/profile-pending-phone.png`, fullPage: true });

    const token = (await page.evaluate(() => localStorage.getItem('token')))!;
    const me = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
    expect(me.body.data).toMatchObject({
      dateOfBirth: '1995-03-21',
      nationalCode: '0499370899',
      profileReviewPending: true,
    });
    await page.close();
  });

  /** Resolves with the approved task's id. */
  const approved = step(async () => {
    await profileSent();
    const page = await staff.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('tab', { name: 'ورود با رمز عبور' }).click();
    await page.fill('#login-username', ADMIN_MOBILE);
    await page.fill('#login-password', ADMIN_PASSWORD);
    await page.getByTestId('login-by-password').click();
    await page.waitForURL(`${server.url}/management`);

    await page.goto(`${server.url}/management/tasks`);
    const row = page.getByTestId('tasks-row').filter({ hasText: 'مریم احمدی' });
    try {
      await row.waitFor({ timeout: WAIT_MS });
    } catch (error) {
      // Keep what the page showed, to read after a failed run.
      await page.screenshot({ path: `${shots}/FAILED-task-queue.png`, fullPage: true });
      throw error;
    }
    const badge = row.getByTestId('row-badge');
    // The task type's colour (#1e88e5), darkened just enough for its white text.
    const shown = parseHex(readableBehindWhite('#1e88e5'))!;
    expect(shown).not.toEqual(parseHex('#1e88e5'));
    expect(await badge.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(`rgb(${shown.join(', ')})`);
    // The queue shows the task's number in Persian digits.
    const taskId = Number(toEnglishDigits((await row.locator('td').first().textContent()) ?? ''));
    await row.getByRole('button', { name: 'بررسی' }).click();
    await page.getByTestId('review-card-image').waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector('[data-testid=review-card-image]') as HTMLImageElement | null;
      return Boolean(img?.complete && img.naturalWidth > 0);
    });
    if (takeScreenshots) await page.screenshot({ path: `${shots}/task-review-desktop.png` });
    await page.getByTestId('approve-profile').click();
    await page.getByText('پروفایل تایید شد.').waitFor();

    const cpage = await customer.newPage();
    await cpage.goto(`${server.url}/request/myProfile`);
    await cpage.getByTestId('profile-status').getByText('هویت تایید شده').waitFor();
    expect(await cpage.locator('#profile_nationalCode').isDisabled()).toBe(true);
    expect(await cpage.getByTestId('save-profile').count()).toBe(0);
    if (takeScreenshots) await cpage.screenshot({ path: `${shots}/profile-approved-phone.png`, fullPage: true });
    const token = (await cpage.evaluate(() => localStorage.getItem('token')))!;
    const me = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
    expect(me.body.data).toMatchObject({ approvedLevel: 1 });
    await cpage.close();
    await page.close();
    return taskId;
  });

  it('logs a new customer in by SMS code, with the countdown and the active-code notice', async () => {
    await loggedIn();
  });
  it('fills the profile with a real card image and sees it pending', async () => {
    await profileSent();
  });
  it('lets staff approve it from the task queue, after which the profile is read-only at level 1', async () => {
    await approved();
  });

  it('refuses a second decision on the same task', async () => {
    const taskId = await approved();
    const login = await post(server, '/api/me/loginByPassword', { username: ADMIN_MOBILE, password: ADMIN_PASSWORD });
    const token = (login.body.data as { userToken: string }).userToken;
    const again = await post(server, '/api/sys/rejectProfileAsL1', { taskId, reason: 'دوباره' }, bearer(token));
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('درباره این کار پیشتر تصمیم‌گیری شده است.');
  });
});
