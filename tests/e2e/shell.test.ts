/** The Persian RTL shell in real Chromium: direction, font, drawer, calendar toggle, guards, breadcrumbs. */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationsDone, DESKTOP, launchBrowser, PHONE, keepSignedIn } from '../support/browser';
import { loginAdmin, loginByCode, type RunningServer, startServer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
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

/** Screenshots only once every image has arrived, so the pictures show what a user sees. */
async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.waitForFunction(() => [...document.images].every((img) => img.complete && img.naturalWidth > 0));
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage });
}

async function open(url: string, viewport = DESKTOP): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto(server.url + url);
  return page;
}

describe('shell', () => {
  it('is Persian, right-to-left, and really uses the Vazirmatn font served by the app', async () => {
    const page = await open('/');
    await page.waitForSelector('[data-testid=rates-table]');
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await page.getAttribute('html', 'lang')).toBe('fa');
    const font = await page.evaluate(async () => {
      await document.fonts.ready;
      return {
        check: document.fonts.check("16px 'Vazirmatn Variable'", 'سلام'),
        loaded: [...document.fonts].filter((f) => f.family.includes('Vazirmatn') && f.status === 'loaded').length,
        family: getComputedStyle(document.body).fontFamily,
      };
    });
    expect(font.check).toBe(true);
    expect(font.loaded).toBeGreaterThan(0);
    expect(font.family).toContain('Vazirmatn');
    const external = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((n) => !n.startsWith(location.origin)),
    );
    expect(external).toEqual([]);
    await shoot(page, 'dashboard-desktop');
    await page.close();
  });

  it('opens the drawer with every category and its desks, no staff group for a guest; Esc closes it', async () => {
    const page = await open('/', PHONE);
    await page.click('[data-testid=menu-button]');
    const drawer = page.locator('[data-testid=drawer]');
    await drawer.waitFor();
    for (const key of ['educational', 'internationalExams', 'embassies', 'others']) {
      await expect(drawer.locator(`[data-testid=drawer-category-${key}]`).count()).resolves.toBe(1);
    }
    await expect(drawer.locator('[data-testid=drawer-category-googleAds]').count()).resolves.toBe(0);
    await drawer.locator('[data-testid=drawer-category-internationalExams] summary').click();
    await expect(drawer.getByRole('link', { name: 'آزمون تافل' }).isVisible()).resolves.toBe(true);
    await expect(drawer.getByText('کاربری در سیستم وارد نشده است.').isVisible()).resolves.toBe(true);
    await expect(drawer.getByText('برای ساخت و شارژ حساب گوگل ادز ابتدا وارد شوید.').count()).resolves.toBe(1);
    await expect(page.locator('[data-testid=drawer-staff]').count()).resolves.toBe(0);
    await animationsDone(page);
    await shoot(page, 'drawer-phone', false);
    // Tab stays inside the open drawer; Esc closes it and gives focus back to the menu button.
    for (let i = 0; i < 40; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=drawer]') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=drawer]').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'menu-button');
    await shoot(page, 'dashboard-phone');
    await page.close();

    const desktop = await open('/', DESKTOP);
    await desktop.waitForSelector('[data-testid=rates-table]');
    await desktop.click('[data-testid=menu-button]');
    await desktop.locator('[data-testid=drawer-category-educational] summary').click();
    await animationsDone(desktop);
    await shoot(desktop, 'drawer-desktop', false);
    // The overlay closes it too.
    await desktop.mouse.click(100, 400);
    await desktop.locator('[data-testid=drawer]').waitFor({ state: 'detached' });
    await desktop.close();
  });

  it('shows the staff group to staff, with the management links', async () => {
    const token = await loginAdmin(server);
    // Signed in from the first load (as after a log-in on this device), instead of a page loaded only to store it.
    const context = await browser.newContext({ viewport: DESKTOP });
    await keepSignedIn(context, token);
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.click('[data-testid=menu-button]');
    const staff = page.locator('[data-testid=drawer-staff]');
    await staff.waitFor();
    for (const name of ['کارهای جاری', 'کاربران', 'مدیریت ارزها', 'پرداخت‌های ارزی', 'تکمیل دستی سفارش']) {
      await expect(staff.getByRole('link', { name }).count()).resolves.toBe(1);
    }
    await staff.getByRole('link', { name: 'پرداخت‌های ارزی' }).click();
    await page.waitForURL(`${server.url}/management/currencyPayments`);
    await page.getByRole('heading', { name: 'پرداخت‌های ارزی' }).waitFor();
    expect(await page.locator('[data-testid=breadcrumbs]').textContent()).toMatch(
      /خانه[\s\S]*مدیریت[\s\S]*پرداخت‌های ارزی/,
    );
    await page.close();
  });

  it('keeps a collapsible side navigation beside the management pages at desktop width, and none on a phone', async () => {
    const token = await loginAdmin(server);
    const context = await browser.newContext({ viewport: DESKTOP });
    await keepSignedIn(context, token);
    const page = await context.newPage();
    // Not on the customer's pages.
    await page.goto(`${server.url}/`);
    await page.getByTestId('rates-table').waitFor();
    expect(await page.getByTestId('staff-nav').count()).toBe(0);

    await page.goto(`${server.url}/management`);
    const side = page.getByRole('navigation', { name: 'منوی مدیریت' });
    await side.waitFor();
    for (const name of ['خانه مدیریت', 'کارهای جاری', 'کاربران', 'مدیریت ارزها', 'پرداخت‌های ارزی']) {
      expect(await side.getByRole('link', { name, exact: true }).count()).toBe(1);
    }
    // Beside the page, not over it.
    const nav = (await side.boundingBox())!;
    const main = (await page.locator('#main').boundingBox())!;
    expect(nav.x).toBeGreaterThanOrEqual(main.x + main.width - 1);
    await side.getByRole('link', { name: 'پرداخت‌های ارزی' }).click();
    await page.waitForURL(`${server.url}/management/currencyPayments`);
    await page.getByRole('heading', { name: 'پرداخت‌های ارزی' }).waitFor();
    expect(await side.getByRole('link', { name: 'پرداخت‌های ارزی' }).getAttribute('aria-current')).toBe('page');
    await shoot(page, 'staff-nav-desktop', false);

    // Collapsed with the keyboard, the page takes the room, and the choice survives a reload.
    const toggle = page.getByTestId('staff-nav-toggle');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await side.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect((await page.locator('#main').boundingBox())!.width).toBeGreaterThan(main.width);
    await page.reload();
    await page.getByRole('heading', { name: 'پرداخت‌های ارزی' }).waitFor();
    expect(await page.getByTestId('staff-nav-toggle').getAttribute('aria-expanded')).toBe('false');
    await page.getByTestId('staff-nav-toggle').click();
    await side.waitFor();

    // A phone keeps the drawer only.
    await page.setViewportSize(PHONE);
    await side.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('switches a displayed date between Jalali and Gregorian, and remembers the choice', async () => {
    const page = await open('/');
    const updated = page.locator('[data-testid=rate-USD] [data-testid=rate-updated] time');
    await updated.waitFor();
    expect(await updated.textContent()).toMatch(/^۱۴[۰-۹]{2}\/[۰-۹]{2}\/[۰-۹]{2} [۰-۹]{2}:[۰-۹]{2}$/);
    await page.click('[data-testid=menu-button]');
    await page.getByRole('radio', { name: 'میلادی' }).click();
    await page.keyboard.press('Escape');
    expect(await updated.textContent()).toMatch(/^۲۰[۰-۹]{2}\/[۰-۹]{2}\/[۰-۹]{2} [۰-۹]{2}:[۰-۹]{2}$/);
    await page.reload();
    await updated.waitFor();
    expect(await updated.textContent()).toMatch(/^۲۰[۰-۹]{2}\//);
    expect(await page.evaluate(() => localStorage.getItem('calendar'))).toContain('en');
    await page.evaluate(() => localStorage.removeItem('calendar'));
    await page.close();
  });

  it('guards routes: login-required to /login, guest-only by token; unknown paths say not found', async () => {
    const page = await open('/management/currencies');
    await page.waitForURL(/\/login\?next=/);
    await page.goto(`${server.url}/no/such/page`);
    await page.locator('[data-testid=error-page][data-kind=notFound]').waitFor();
    expect(page.url()).toBe(`${server.url}/no/such/page`);
    // A stored token the server refuses is cleared at start-up, so the protected route still goes to /login.
    await page.evaluate(() => localStorage.setItem('token', 'an-invalid-token-that-is-long-enough'));
    await page.goto(`${server.url}/management/tasks`);
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    // With a real token: guest-only /login goes home; an unknown path is still not found.
    const token = await loginByCode(server, '09170000001');
    await page.evaluate((t) => localStorage.setItem('token', t), token);
    await page.goto(`${server.url}/login`);
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/unknown/path`);
    await page.locator('[data-testid=error-page][data-kind=notFound]').waitFor();
    expect(page.url()).toBe(`${server.url}/unknown/path`);
    // A customer is signed in but holds no staff action: the management home says so.
    await page.goto(`${server.url}/management`);
    await page.getByTestId('no-access').getByRole('heading', { name: 'دسترسی ندارید' }).waitFor();
    await page.close();
  });

  it('sends a protected route home when the stored token was never confirmed (second guard)', async () => {
    const token = await loginByCode(server, '09170000002');
    const page = await browser.newPage({ viewport: PHONE });
    // The user fetch never reaches the server: the token stays stored, but the in-memory token stays unset.
    await page.route('**/api/me/fetchUserData', (route) => route.abort('connectionfailed'));
    await keepSignedIn(page, token);
    await page.goto(`${server.url}/management/tasks`);
    await page.waitForURL(`${server.url}/`);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(token);
    await page.close();
  });

  it('dispatches preload-error and shows the error page inside the shell when a page chunk fails to load', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.addInitScript(() => {
      window.addEventListener('preload-error', () => {
        (window as unknown as { preloadErrors: number }).preloadErrors =
          ((window as unknown as { preloadErrors?: number }).preloadErrors ?? 0) + 1;
      });
    });
    await page.route(/\/assets\/TermsPage-[^/]+\.js$/, (route) => route.abort('connectionfailed'));
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid=rates-table]');
    await page.click('[data-testid=menu-button]');
    await page.locator('[data-testid=drawer]').getByRole('link', { name: 'قوانین و مقررات' }).click();
    await page.locator('[data-testid=error-page][data-kind=loadFailed]').waitFor();
    expect(await page.evaluate(() => (window as unknown as { preloadErrors?: number }).preloadErrors)).toBe(1);
    // The shell stays: the top bar and the breadcrumbs are still there.
    await expect(page.locator('[data-testid=menu-button]').isVisible()).resolves.toBe(true);
    expect(await page.locator('[data-testid=breadcrumbs]').textContent()).toContain('قوانین و مقررات');
    await page.close();
  });

  it('offers the change-password dialog to a signed-in person only, and validates it', async () => {
    const guest = await open('/', PHONE);
    await guest.click('[data-testid=user-menu]');
    await guest.getByRole('menuitem', { name: 'ورود' }).waitFor();
    expect(await guest.getByRole('menuitem', { name: 'تغییر رمز عبور' }).count()).toBe(0);
    await guest.close();

    const token = await loginByCode(server, '09170000003');
    const page = await browser.newPage({ viewport: PHONE });
    await keepSignedIn(page, token);
    await page.goto(`${server.url}/`);
    await page.click('[data-testid=user-menu]');
    await page.getByRole('menuitem', { name: 'تغییر رمز عبور' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Required').first().waitFor();
    await page.keyboard.press('Escape');
    await page.close();
  });

  it('builds breadcrumbs from the parent chain and from a desk and its category; an unknown desk is an error', async () => {
    const page = await open('/desks/toeflGeneralCpr');
    const crumbs = page.locator('[data-testid=breadcrumbs]');
    await crumbs.getByText('آزمون تافل').waitFor();
    expect(await crumbs.textContent()).toMatch(/خانه[\s\S]*آزمون‌های بین‌المللی[\s\S]*آزمون تافل/);
    expect(await page.title()).toContain('آزمون تافل');
    await page.goto(`${server.url}/request/termsAndConditions`);
    await crumbs.getByText('قوانین و مقررات').waitFor();
    expect(await crumbs.textContent()).toMatch(/خانه[\s\S]*قوانین و مقررات/);
    await page.goto(`${server.url}/desks/noSuchDesk`);
    await page.waitForURL(`${server.url}/errors`);
    await page.locator('[data-testid=error-page]').waitFor();
    await page.close();
  });

  it('lists a category’s desks and looks right on a phone and a laptop', async () => {
    for (const [name, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const page = await open('/services/embassies', viewport);
      await page.locator('[data-testid=desk-cards]').waitFor();
      expect(await page.locator('[data-testid=desk-cards] a').count()).toBe(5);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shoot(page, `services-${name}`);
      await page.close();
    }
  });
});
