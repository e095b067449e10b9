/**
 * Keyboard alone (issue 12): a customer logs in with an SMS code, fills and submits a desk request and pays it
 * from the wallet using only keyboard.press and keyboard.type — no click, no fill — and every control reached on
 * the way shows where the focus is (an outline or a focus ring on it or on its field's frame).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepSignedIn, launchBrowser, PHONE } from '../support/browser';
import { moneyHelpers, nationalCodeFor } from '../support/money';
import { bearer, loginByCode, post, type RunningServer, startServer, verifiedCustomer } from '../support/server';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Whether the focused element, or the frame around it (three levels up), draws a visible focus indicator. */
function focusVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    let el: Element | null = document.activeElement;
    for (let i = 0; el && i < 4; i++, el = el.parentElement) {
      const style = getComputedStyle(el);
      if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return true;
      if (style.boxShadow && style.boxShadow !== 'none') return true;
    }
    return false;
  });
}

const focusedMatches = (page: Page, selector: string) =>
  page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

/** Presses Tab until the focus is on `selector`, checking the focus is visible at each stop on the way. */
async function tabTo(page: Page, selector: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate(() => {
      const el = document.activeElement;
      return el ? `${el.tagName.toLowerCase()}#${el.id}[${el.getAttribute('data-testid') ?? ''}]` : '';
    });
    if (where !== 'body#[]') expect(await focusVisible(page), `focus visible on ${where}`).toBe(true);
    if (await focusedMatches(page, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Opens the focused choice with the keyboard and moves to the option whose text includes `text`. */
async function chooseByKeyboard(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Enter');
  await page.getByRole('option').first().waitFor();
  for (let i = 0; i < 40; i++) {
    const current = await page.evaluate(() => document.activeElement?.textContent ?? '');
    if (current.includes(text)) break;
    await page.keyboard.press('ArrowDown');
  }
  expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(text);
  await page.keyboard.press('Enter');
  await page.getByRole('option').first().waitFor({ state: 'hidden' });
}

describe('keyboard alone', () => {
  it('logs in with a code, submits a desk request and pays it from the wallet', async () => {
    const mobileNo = '09128880001';
    const nationalCode = nationalCodeFor(777);
    // An approved customer with money in the wallet, whose browser is not signed in.
    const token = await verifiedCustomer(server, mobileNo, nationalCode);
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as { id: number };
    const money = moneyHelpers(server);
    await money.ready();
    await money.deposit({ token, userId: me.id, nationalCode }, 200_000_000);

    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.locator('#login-mobile').waitFor();

    // Log-in with a code.
    await tabTo(page, '#login-mobile');
    await page.keyboard.type(mobileNo);
    await tabTo(page, '[data-testid=send-code]');
    const sent = server.logs.filter((l) => l.msg === 'sms').length;
    await page.keyboard.press('Enter');
    await expect.poll(() => server.logs.filter((l) => l.msg === 'sms').length).toBe(sent + 1);
    await tabTo(page, '#login-code');
    await page.keyboard.type(server.lastSmsCode(mobileNo)!);
    await tabTo(page, '[data-testid=login-by-code]');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/`);

    // A desk request.
    await page.goto(`${server.url}/desks/toeflGeneralCpr`);
    await page.getByTestId('desk-page').waitFor();
    await tabTo(page, '#root_currency');
    await chooseByKeyboard(page, 'دلار آمریکا');
    await tabTo(page, '#root_amount');
    await page.keyboard.type('25');
    await tabTo(page, '#root_requestedPaymentMethodGroup');
    await chooseByKeyboard(page, 'کارت اعتباری بین‌المللی');
    await tabTo(page, '#root_targetPageAddress');
    await page.keyboard.type('https://ets.example.org');
    await tabTo(page, '#root_targetPageUsername');
    await page.keyboard.type('student');
    await tabTo(page, '#root_targetPagePassword');
    await page.keyboard.type('keyboard-secret');
    await page.getByTestId('price-summary').waitFor();
    await tabTo(page, '[data-testid=confirm-price]');
    await page.keyboard.press('Space');
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid=submit-request]')?.disabled,
    );
    await tabTo(page, '[data-testid=submit-request]');
    await page.keyboard.press('Enter');
    await page.getByTestId('pay-step').waitFor();
    const id = Number(new URL(page.url()).searchParams.get('purchase'));
    expect(id).toBeGreaterThan(0);

    // Paying from the wallet.
    expect(await page.getByTestId('pay-purchase').textContent()).toContain('پرداخت از کیف پول');
    await tabTo(page, '[data-testid=pay-purchase]');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/request/myRequests?purchase=${id}&payment=success`);
    await page.getByTestId('request-detail').getByTestId('request-state').getByText('پرداخت شده').waitFor();
    await context.close();
  }, 300_000);

  it("keeps the focus on the user menu's button while the menu loads, and the menu then opens from it", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    await keepSignedIn(context, await loginByCode(server, '09128880002'));
    const page = await context.newPage();
    // The menu's own chunk (it loads once the page is idle) is held back until the button has the focus.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let menuUrl = '';
    await page.route(/\/assets\/UserMenu-[\w-]+\.js$/, async (route) => {
      menuUrl = route.request().url();
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}/services/educational`);
    await page.getByTestId('user-menu').waitFor();
    await tabTo(page, '[data-testid=user-menu]');
    const menuLoaded = page.waitForEvent('requestfinished', (r) => r.url() === menuUrl);
    release();
    await menuLoaded;
    // The menu's module has run (importing it again settles once it has), and so has the app's swap waiting on it.
    // (A string, so the test's own bundler leaves the page's import() alone.)
    await page.evaluate(`import(${JSON.stringify(menuUrl)}).then(() => undefined)`);
    expect(await focusedMatches(page, '[data-testid=user-menu]')).toBe(true);
    expect(await focusVisible(page)).toBe(true);

    await page.keyboard.press('Enter');
    await page.getByTestId('user-menu-content').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('user-menu-content').waitFor({ state: 'hidden' });
    expect(await focusedMatches(page, '[data-testid=user-menu]')).toBe(true);
    expect(await focusVisible(page)).toBe(true);
    await context.close();
  }, 120_000);
});
