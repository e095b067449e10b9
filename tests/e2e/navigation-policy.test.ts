/**
 * Navigation by policy: the drawer, the top bar menu and the management home offer what the signed-in
 * person's actions open (the server's access object), and a management page outside them says, in Persian,
 * that there is no access, with a way home, instead of an empty table.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE } from '../support/browser';
import { loginAdmin, loginByCode, type RunningServer, staffWithActions } from '../support/server';
import { withE2eServer } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
let admin: string;

const e2e = withE2eServer({}, async (t) => {
  server = t.server;
  browser = t.browser;
  admin = await loginAdmin(server);
});

async function openUserMenu(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-content').waitFor();
}

async function openDrawer(page: Page): Promise<void> {
  await page.getByTestId('menu-button').click();
  await page.getByTestId('drawer').getByRole('navigation').waitFor();
}

async function staffLinks(page: Page): Promise<string[]> {
  const group = page.getByTestId('drawer-staff');
  if ((await group.count()) === 0) return [];
  return (await group.getByRole('link').allTextContents()).map((t) => t.trim());
}

describe('navigation by policy', () => {
  it('offers a guest log-in only in the top bar menu: no change-password item', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(`${server.url}/`);
    await page.getByTestId('rates-table').waitFor();
    await openUserMenu(page);
    const menu = page.getByTestId('user-menu-content');
    await menu.getByRole('menuitem', { name: 'ورود' }).waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['ورود']);
    expect(await page.getByText('تغییر رمز عبور').count()).toBe(0);
    await page.screenshot({ path: `${shots}/policy-guest-menu-phone.png` });
    await page.close();
  });

  it('shows a customer the Persian no-access state on /management and its pages, and no staff drawer group', async () => {
    const customer = await loginByCode(server, '09151110001');
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await e2e.signedIn(customer, viewport);
      await page.goto(`${server.url}/management`);
      const state = page.getByTestId('no-access');
      await state.getByRole('heading', { name: 'دسترسی ندارید' }).waitFor();
      expect(await state.textContent()).toContain('«مدیریت»');
      await page.screenshot({
        path: `${shots}/policy-no-access-${viewport === PHONE ? 'phone' : 'desktop'}.png`,
        fullPage: true,
      });
      await page.close();
    }

    const page = await e2e.signedIn(customer);
    // The task list would answer a customer with an empty table; the page says no access instead.
    await page.goto(`${server.url}/management/tasks`);
    await page.getByTestId('no-access').waitFor();
    expect(await page.locator('table').count()).toBe(0);
    await page.getByTestId('no-access').getByRole('link', { name: 'بازگشت به خانه' }).click();
    await page.waitForURL(`${server.url}/`);

    // A signed-in customer: change password yes, management no; no staff group in the drawer.
    await openUserMenu(page);
    const menu = page.getByTestId('user-menu-content');
    await menu.getByRole('menuitem', { name: 'تغییر رمز عبور' }).waitFor();
    expect(await menu.getByRole('menuitem', { name: 'مدیریت' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await openDrawer(page);
    expect(await staffLinks(page)).toEqual([]);
    await page.close();
  });

  it('gives staff with some actions only those screens: drawer, top bar menu, management tiles and pages', async () => {
    const token = (await staffWithActions(server, ['viewTasks', 'viewCustomers'], '09151110002')).token;
    const page = await e2e.signedIn(token);
    await page.goto(`${server.url}/`);
    await openDrawer(page);
    await page.getByTestId('drawer-staff').waitFor();
    expect(await staffLinks(page)).toEqual(['کارهای جاری', 'مشتریان']);
    await page.getByTestId('drawer-staff').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/policy-staff-drawer-phone.png` });
    await page.keyboard.press('Escape');

    await openUserMenu(page);
    await page.getByTestId('user-menu-content').getByRole('menuitem', { name: 'مدیریت' }).click();
    await page.waitForURL(`${server.url}/management`);
    const tiles = page.getByTestId('management-tiles');
    await tiles.getByRole('link').first().waitFor();
    expect((await tiles.getByRole('link').allTextContents()).map((t) => t.trim())).toEqual(['کارهای جاری', 'مشتریان']);
    await page.screenshot({ path: `${shots}/policy-staff-home-phone.png`, fullPage: true });

    await tiles.getByRole('link', { name: 'مشتریان' }).click();
    await page.waitForURL(`${server.url}/management/customers`);
    await page.getByRole('heading', { name: 'مشتریان' }).waitFor();
    expect(await page.getByTestId('no-access').count()).toBe(0);

    // A screen this person's actions do not open, typed into the address bar.
    await page.goto(`${server.url}/management/requests`);
    await page.getByTestId('no-access').waitFor();
    expect(await page.getByTestId('no-access').textContent()).toContain('«درخواست‌ها»');
    await page.goto(`${server.url}/management/authorization/users`);
    await page.getByTestId('no-access').waitFor();
    await page.close();

    // The administrator holds every action: the full staff group.
    const all = await e2e.signedIn(admin, DESKTOP);
    await all.goto(`${server.url}/`);
    await openDrawer(all);
    await all.getByTestId('drawer-staff').waitFor();
    expect(await staffLinks(all)).toEqual([
      'کارهای جاری',
      'کاربران',
      'گروه‌ها',
      'دسترسی‌ها',
      'مدیریت ارزها',
      'دریافت‌ها',
      'مشتریان',
      'درخواست‌ها',
      'گفتگوهای در انتظار پاسخ',
      'پرداخت‌های ارزی',
      'برداشت‌ها',
      'اصلاح کیف پول',
      'حساب‌های بانکی برای تایید',
      'تکمیل دستی سفارش',
      'پنل‌های مدیریت تبلیغات',
      'حساب‌های تبلیغاتی',
      'کاتالوگ میزها و فرم‌ها',
      'قیف خدمت‌ها',
      'رویدادنگار',
      'پیامک‌های ناموفق',
      'تطبیق روزانه',
    ]);
    await all.close();
  });

  it('opens the currency page for system parameters alone, showing only that section', async () => {
    const token = (await staffWithActions(server, ['manageSystemParameters'], '09151110003')).token;
    const page = await e2e.signedIn(token, DESKTOP);
    await page.goto(`${server.url}/management/currencies`);
    await page.getByRole('heading', { name: 'پارامترهای سیستم' }).waitFor();
    expect(await page.getByTestId('currencies-table').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'ارز جدید' }).count()).toBe(0);
    await page.close();
  });
});
