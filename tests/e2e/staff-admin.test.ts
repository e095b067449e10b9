/**
 * Staff administration as an administrator does it (issue 15, point 14), in real Chromium: edit a user, assign a
 * group, reset a password (the user then logs in with it), deactivate a user after a confirmation (they can no
 * longer log in), remove a group after a confirmation, and change a system parameter seeing old and new values in
 * rial before saving. Typing is key by key; screenshots at 1366x768 and 390x844.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, PHONE, keepSignedIn } from '../support/browser';
import {
  ADMIN_MOBILE,
  ADMIN_PASSWORD,
  bearer,
  loginAdmin,
  post,
  type RunningServer,
  startServer,
} from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
let adminToken: string;
let desk: Page;

const EDITED = { mobileNo: '09161110001', password: 'first-password-1' };
const DEACTIVATED = { mobileNo: '09161110002', password: 'second-password-2' };
/** Groups, notes and a password reset happen to this user; the edit and the deactivation to the others. */
const MEMBER = { mobileNo: '09161110003', password: 'third-password-3' };

type Group = { id: number; name: string; title: string; users: number[] };

async function createUser(mobileNo: string, firstName: string, lastName: string, password: string): Promise<number> {
  const res = await post(
    server,
    '/api/users/saveUser',
    { mobileNo, firstName, lastName, isStaff: true, password },
    bearer(adminToken),
  );
  expect(res.status).toBe(200);
  return (res.body.data as { id: number }).id;
}

async function createGroup(name: string, title: string, users: number[]): Promise<number> {
  const res = await post(server, '/api/users/saveGroup', { name, title }, bearer(adminToken));
  const id = (res.body.data as { id: number }).id;
  await post(server, '/api/users/saveGroupUsers', { id, users }, bearer(adminToken));
  return id;
}

async function groups(): Promise<Group[]> {
  const res = await fetch(`${server.url}/api/users/getGroups`, { headers: bearer(adminToken) });
  return ((await res.json()) as { data: { items: Group[] } }).data.items;
}

/** Logs in through the password tab, typing like a person; returns the page on whatever the form shows next. */
async function passwordLogIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByRole('tab', { name: 'ورود با رمز عبور' }).click();
  await page.locator('#login-username').pressSequentially(username);
  await page.locator('#login-password').pressSequentially(password);
  await page.getByTestId('login-by-password').click();
}

/** Empties a focused text field with the keyboard, then types the new text key by key. */
async function retype(page: Page, selector: string, text: string): Promise<void> {
  const field = page.locator(selector);
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.press('Backspace');
  await field.pressSequentially(text);
}

async function findUserRow(page: Page, mobileNo: string, text: string) {
  await page.goto(`${server.url}/management/authorization/users`);
  const search = page.getByRole('textbox', { name: 'جستجو' });
  await search.pressSequentially(mobileNo);
  const row = page.getByTestId('users-row').filter({ hasText: text });
  await row.waitFor();
  return row;
}

async function rowMenu(page: Page, row: ReturnType<Page['getByTestId']>, item: string, shot?: string): Promise<void> {
  await row.getByRole('button', { name: /^عملیات کاربر/ }).click();
  const entry = page.getByRole('menuitem', { name: item });
  await entry.waitFor();
  if (shot) await page.screenshot({ path: `${shots}/${shot}.png` });
  await entry.click();
}

let editedId = 0;
let deactivatedId = 0;
let memberId = 0;
let supportGroupId = 0;
let tempGroupId = 0;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await loginAdmin(server);
  editedId = await createUser(EDITED.mobileNo, 'نرگس', 'امینی', EDITED.password);
  deactivatedId = await createUser(DEACTIVATED.mobileNo, 'بهرام', 'صادقی', DEACTIVATED.password);
  memberId = await createUser(MEMBER.mobileNo, 'مینا', 'رضایی', MEMBER.password);
  supportGroupId = await createGroup('support', 'پشتیبانی', []);
  await createGroup('nightShift', 'شیفت شب', [memberId]);
  tempGroupId = await createGroup('seasonal', 'نیروی فصلی', [editedId, deactivatedId]);
  desk = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await passwordLogIn(desk, ADMIN_MOBILE, ADMIN_PASSWORD);
  await desk.waitForURL(`${server.url}/management`);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('staff administration', () => {
  it('edits a user from the row menu', async () => {
    const row = await findUserRow(desk, EDITED.mobileNo, 'نرگس امینی');
    await rowMenu(desk, row, 'ویرایش', 'staff-user-menu-desktop');
    const dialog = desk.getByRole('dialog', { name: 'ویرایش کاربر «نرگس امینی»' });
    await dialog.waitFor();
    await retype(desk, '#user_lastName', 'امینی‌پور');
    await retype(desk, '#user_email', 'narges@example.com');
    await desk.screenshot({ path: `${shots}/staff-user-edit-desktop.png` });
    await dialog.getByRole('button', { name: 'ذخیره تغییرات' }).click();
    await desk.getByText('تغییرات کاربر ذخیره شد.').waitFor();
    await desk.getByTestId('users-row').filter({ hasText: 'نرگس امینی‌پور' }).waitFor();
    expect(await dialog.count()).toBe(0);
  });

  it('assigns a group with the keyboard-usable checkbox list', async () => {
    const row = await findUserRow(desk, MEMBER.mobileNo, 'مینا رضایی');
    await rowMenu(desk, row, 'گروه‌ها');
    const dialog = desk.getByRole('dialog', { name: 'گروه‌های «مینا رضایی»' });
    await dialog.waitFor();
    const support = dialog.getByRole('checkbox', { name: /پشتیبانی/ });
    await support.focus();
    await desk.keyboard.press('Space');
    expect(await support.getAttribute('aria-checked')).toBe('true');
    expect(await dialog.getByRole('checkbox', { name: /شیفت شب/ }).getAttribute('aria-checked')).toBe('true');
    await dialog.getByRole('button', { name: 'ذخیره گروه‌ها' }).click();
    await desk.getByText('گروه‌های کاربر ذخیره شد.').waitFor();
    const support2 = (await groups()).find((g) => g.id === supportGroupId)!;
    expect(support2.users).toEqual([memberId]);
  });

  it('keeps staff notes on a user', async () => {
    const row = await findUserRow(desk, MEMBER.mobileNo, 'مینا رضایی');
    await rowMenu(desk, row, 'یادداشت‌ها');
    const dialog = desk.getByRole('dialog', { name: 'یادداشت‌های «مینا رضایی»' });
    await dialog.getByText('یادداشتی ثبت نشده است.').waitFor();
    await dialog.getByRole('button', { name: 'یادداشت تازه' }).click();
    await dialog.getByRole('textbox', { name: 'نام یادداشت 1' }).pressSequentially('شیفت');
    await dialog.getByRole('textbox', { name: 'متن یادداشت 1' }).pressSequentially('عصر');
    await dialog.getByRole('button', { name: 'ذخیره یادداشت‌ها' }).click();
    await desk.getByText('یادداشت‌ها ذخیره شد.').waitFor();
    const stored = await post(server, '/api/users/getMetaData', { id: memberId }, bearer(adminToken));
    expect(stored.body.data).toEqual({ شیفت: 'عصر' });
    await rowMenu(desk, row, 'یادداشت‌ها');
    expect(await dialog.getByRole('textbox', { name: 'متن یادداشت 1' }).inputValue()).toBe('عصر');
    await desk.screenshot({ path: `${shots}/staff-user-notes-desktop.png` });
    await desk.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('resets a password; the user logs in with the new one', async () => {
    const row = await findUserRow(desk, MEMBER.mobileNo, 'مینا رضایی');
    await rowMenu(desk, row, 'تغییر رمز عبور');
    const dialog = desk.getByRole('dialog', { name: 'تغییر رمز عبور «مینا رضایی»' });
    await dialog.waitFor();
    await desk.locator('#reset_password').pressSequentially('renewed-secret-9');
    await desk.locator('#reset_passwordRepeat').pressSequentially('renewed-secret');
    await dialog.getByRole('button', { name: 'تغییر رمز عبور' }).click();
    await dialog.getByText('تکرار رمز عبور با آن یکی نیست.').waitFor();
    await desk.locator('#reset_passwordRepeat').press('End');
    await desk.locator('#reset_passwordRepeat').pressSequentially('-9');
    // What a person sees before pressing the button: the repeat as typed, and the mismatch gone.
    await expect.poll(() => desk.locator('#reset_passwordRepeat').inputValue()).toBe('renewed-secret-9');
    await dialog.getByText('تکرار رمز عبور با آن یکی نیست.').waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'تغییر رمز عبور' }).click();
    await desk
      .getByText('رمز عبور کاربر تغییر کرد و نشست‌های او پایان یافت.')
      .waitFor()
      .catch(async (error: unknown) => {
        // Say what the screen showed instead: the dialog (still open? an error?) and any snackbar.
        const shown = {
          dialog: (await dialog.count()) ? await dialog.innerText() : 'closed',
          snackbar: await desk.getByRole('status').allInnerTexts(),
        };
        await desk.screenshot({ path: `${shots}/staff-reset-password-missed.png` });
        throw new Error(`no success snackbar: ${JSON.stringify(shown)}`, { cause: error });
      });

    const phone = await (await browser.newContext({ viewport: PHONE })).newPage();
    await passwordLogIn(phone, MEMBER.mobileNo, MEMBER.password);
    await phone.getByText('نام کاربری یا رمز عبور صحیح نیست.').waitFor();
    await passwordLogIn(phone, MEMBER.mobileNo, 'renewed-secret-9');
    await phone.waitForURL(`${server.url}/`);
    expect(await phone.evaluate(() => localStorage.getItem('token'))).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    await phone.context().close();
  });

  it('deactivates a user after a confirmation naming them; they cannot log in any more', async () => {
    // The user has an open session on their phone that should end.
    const phone = await (await browser.newContext({ viewport: PHONE })).newPage();
    await passwordLogIn(phone, DEACTIVATED.mobileNo, DEACTIVATED.password);
    await phone.waitForURL(`${server.url}/`);
    const token = (await phone.evaluate(() => localStorage.getItem('token')))!;

    const row = await findUserRow(desk, DEACTIVATED.mobileNo, 'بهرام صادقی');
    await rowMenu(desk, row, 'غیرفعال کردن');
    const confirm = desk.getByRole('alertdialog', { name: 'غیرفعال کردن حساب' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('«بهرام صادقی»');
    expect(await confirm.textContent()).toContain('۰۹۱۶ ۱۱۱ ۰۰۰۲');
    await desk.screenshot({ path: `${shots}/staff-user-deactivate-desktop.png` });
    // Escape cancels: nothing happens.
    await desk.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect((await post(server, '/api/me/fetchUserData', undefined, bearer(token))).status).toBe(200);

    await rowMenu(desk, row, 'غیرفعال کردن');
    await confirm.getByRole('button', { name: 'غیرفعال شود' }).click();
    await desk.getByText('حساب «بهرام صادقی» غیرفعال شد.').waitFor();
    await confirm.waitFor({ state: 'detached' });
    await row.getByText('خیر').last().waitFor();
    expect((await post(server, '/api/me/fetchUserData', undefined, bearer(token))).status).toBe(401);

    // Their phone finds the session ended at its next load, then a new log-in is refused.
    await phone.goto(`${server.url}/`);
    await phone.waitForFunction(() => localStorage.getItem('token') === null);
    await passwordLogIn(phone, DEACTIVATED.mobileNo, DEACTIVATED.password);
    await phone.getByText('حساب کاربری شما غیرفعال شده است. برای پیگیری با پشتیبانی تماس بگیرید.').waitFor();
    await phone.screenshot({ path: `${shots}/staff-deactivated-login-phone.png` });
    expect(await phone.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await phone.context().close();
  });

  it('removes a group after a confirmation that says what its members lose', async () => {
    const phone = await (await browser.newContext({ viewport: PHONE })).newPage();
    await keepSignedIn(phone, adminToken);
    // The users page on a phone: the row menu offers every operation.
    const userRow = await findUserRow(phone, MEMBER.mobileNo, 'مینا رضایی');
    await phone.screenshot({ path: `${shots}/staff-users-phone.png`, fullPage: true });
    await userRow.getByRole('button', { name: /^عملیات کاربر/ }).click();
    for (const item of ['ویرایش', 'گروه‌ها', 'تغییر رمز عبور', 'یادداشت‌ها', 'غیرفعال کردن']) {
      await phone.getByRole('menuitem', { name: item }).waitFor();
    }
    await phone.screenshot({ path: `${shots}/staff-user-menu-phone.png` });
    await phone.keyboard.press('Escape');

    await phone.goto(`${server.url}/management/authorization/groups`);
    const row = phone.getByTestId('groups-row').filter({ hasText: 'نیروی فصلی' });
    await row.waitFor();
    await phone.screenshot({ path: `${shots}/staff-groups-phone.png`, fullPage: true });
    await row.getByRole('button', { name: 'حذف گروه نیروی فصلی' }).click();
    const confirm = phone.getByRole('alertdialog', { name: 'حذف گروه' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('«نیروی فصلی»');
    expect(await confirm.textContent()).toContain('۲ عضو');
    await phone.screenshot({ path: `${shots}/staff-group-remove-phone.png` });
    await confirm.getByRole('button', { name: 'حذف شود' }).click();
    await phone.getByText('گروه «نیروی فصلی» حذف شد.').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await groups()).some((g) => g.id === tempGroupId)).toBe(false);
    // The administrators group offers no removal.
    expect(await phone.getByRole('button', { name: 'حذف گروه مدیران سیستم' }).count()).toBe(0);
    await phone.context().close();
  });

  it('changes a system parameter in rial, confirming old and new values', async () => {
    await desk.goto(`${server.url}/management/currencies`);
    await desk.getByRole('heading', { name: 'پارامترهای سیستم' }).waitFor();
    const parameters = desk.getByTestId('system-parameter');
    const row = parameters.filter({ hasText: 'کارمزد ثابت' });
    await row.waitFor();
    // Persian titles and units, not keys and cents: the foreign minimum of 100 cents reads as 1 currency unit.
    expect(await parameters.filter({ hasText: 'fixedFee' }).count()).toBe(0);
    const minimum = parameters.filter({ hasText: 'کمترین مبلغ ارزی' });
    expect(await minimum.textContent()).toContain('فعلی: ۱ واحد ارز');
    expect(await minimum.getByRole('textbox').inputValue()).toBe('1');
    await desk.screenshot({ path: `${shots}/staff-parameters-desktop.png`, fullPage: true });

    const field = row.getByRole('textbox', { name: 'کارمزد ثابت' });
    expect(await field.inputValue()).toBe('500,000');
    await field.click();
    await field.press('ControlOrMeta+a');
    await field.press('Backspace');
    await field.pressSequentially('12.5');
    await row.getByText('مقدار «کارمزد ثابت» باید عدد صحیح باشد.').waitFor();
    expect(await row.getByRole('button', { name: 'ذخیره' }).isDisabled()).toBe(true);
    await field.press('ControlOrMeta+a');
    await field.press('Backspace');
    await field.pressSequentially('۷۵۰,۰۰۰');
    await field.press('Enter');
    const confirm = desk.getByRole('alertdialog', { name: 'تغییر «کارمزد ثابت»' });
    await confirm.waitFor();
    expect(await confirm.getByTestId('parameter-old').textContent()).toBe('۵۰۰٬۰۰۰ ریال');
    expect(await confirm.getByTestId('parameter-new').textContent()).toBe('۷۵۰٬۰۰۰ ریال');
    await desk.screenshot({ path: `${shots}/staff-parameter-confirm-desktop.png` });
    await confirm.getByRole('button', { name: 'تایید و ذخیره' }).click();
    await desk.getByText('«کارمزد ثابت» ذخیره شد.').waitFor();
    await row.getByText('فعلی: ۷۵۰٬۰۰۰ ریال').waitFor();
    const stored = await post(server, '/api/sys/fetchSystemParameters', undefined, bearer(adminToken));
    const items = (stored.body.data as { items: Array<{ key: string; value: number }> }).items;
    expect(items.find((i) => i.key === 'fixedFee')!.value).toBe(750000);

    // On a phone: the same section fits, and a change there asks the same way.
    const phone = await (await browser.newContext({ viewport: PHONE })).newPage();
    await keepSignedIn(phone, adminToken);
    await phone.goto(`${server.url}/management/currencies`);
    const percent = phone.getByTestId('system-parameter').filter({ hasText: 'کارمزد خدمات' });
    const percentField = percent.getByRole('textbox', { name: 'کارمزد خدمات' });
    await percentField.click();
    await percentField.press('ControlOrMeta+a');
    await percentField.press('Backspace');
    await percentField.pressSequentially('2.5');
    await percent.getByRole('button', { name: 'ذخیره' }).click();
    const phoneConfirm = phone.getByRole('alertdialog', { name: 'تغییر «کارمزد خدمات»' });
    await phoneConfirm.waitFor();
    expect(await phoneConfirm.getByTestId('parameter-old').textContent()).toBe('۳ درصد');
    expect(await phoneConfirm.getByTestId('parameter-new').textContent()).toBe('۲٫۵ درصد');
    await phone.screenshot({ path: `${shots}/staff-parameter-confirm-phone.png` });
    await phoneConfirm.getByRole('button', { name: 'انصراف' }).click();
    await phoneConfirm.waitFor({ state: 'detached' });
    await phone.screenshot({ path: `${shots}/staff-parameters-phone.png`, fullPage: true });
    await phone.context().close();
  });
});
