/**
 * A test instance says so (issue 29, decision 023), in real Chromium with the sandbox bank as the gateway: the
 * banner «درگاه آزمایشی: پولی جابه‌جا نمی‌شود» is on every page a guest, a customer and staff open, at 390x844 and
 * 1366x768, right to left, in its own space at the top (the header and the page below it, nothing over it), readable;
 * it stays through the app's own navigation; the staff's collections list and its CSV export call a sandbox payment
 * test money; and the withdrawal dialog warns that the instance takes no real payments.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPersianDigits } from '../../src/shared/format';
import { AA_TEXT, contrastRatio } from '../../src/shared/color/contrast';
import { ibanMod97 } from '../../src/shared/iban';
import { DESKTOP, keepSignedIn, launchBrowser, PHONE, settled, takeScreenshots } from '../support/browser';
import { type Customer, moneyHelpers } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const BANNER_TEXT = 'درگاه آزمایشی: پولی جابه‌جا نمی‌شود';
const TEST_MONEY = 'آنلاین، پول آزمایشی';
type Visitor = 'guest' | 'customer' | 'staff';

let server: RunningServer;
let browser: Browser;
let customer: Customer;
let adminToken: string;
let withdrawalId: number;
const contexts: BrowserContext[] = [];

/** A valid IBAN of Bank Mellat (012) for account number `n`. */
function iban(n: number): string {
  const account = String(n).padStart(19, '0');
  const check = 98 - ibanMod97(`IR00012${account}`);
  return `IR${String(check).padStart(2, '0')}012${account}`;
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const money = moneyHelpers(server);
  await money.ready();
  customer = await money.customer();
  adminToken = await loginAdmin(server);
  const admin = bearer(adminToken);

  // A request paid at the sandbox bank: a collection of test money.
  const purchase = await money.request(customer, 20);
  const paying = await money.payOk(customer, purchase.id);
  await money.payAtSandboxBank(customer, paying.gatewayUrl!);

  // A withdrawal waiting for staff: an approved account of the customer's and money in the wallet.
  const saved = await post(
    server,
    '/api/me/saveUserBankAccount',
    { iban: iban(4242), ownerName: 'سارا کریمی' },
    bearer(customer.token),
  );
  expect(saved.status, saved.body.msg).toBe(200);
  const accountId = (saved.body.data as { id: number }).id;
  const task = await server.app.database.db
    .selectFrom('tasks')
    .select('id')
    .where('userBankAccountId', '=', accountId)
    .executeTakeFirstOrThrow();
  expect((await post(server, '/api/sys/fetchApproveUbaOwnerTaskData', { taskId: task.id }, admin)).status).toBe(200);
  const approved = await post(server, '/api/sys/approveUserBankAccountOwnership', { taskId: task.id }, admin);
  expect(approved.status, approved.body.msg).toBe(200);
  await money.deposit(customer, 3_000_000);
  const withdrawal = await post(
    server,
    '/api/me/requestWithdrawal',
    { bankAccount: accountId, amount: 2_000_000 },
    { ...bearer(customer.token), 'idempotency-key': `test-instance-${process.pid}` },
  );
  expect(withdrawal.status, withdrawal.body.msg).toBe(200);
  withdrawalId = (withdrawal.body.data as { id: number }).id;
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

async function pageAs(visitor: Visitor, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  contexts.push(context);
  if (visitor === 'customer') await keepSignedIn(context, customer.token);
  if (visitor === 'staff') await keepSignedIn(context, adminToken);
  return context.newPage();
}

const hex = (rgb: string) =>
  `#${(rgb.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')}`;

/** The banner on the page now: there, whole, first at the top, covered by nothing and covering nothing, readable. */
async function expectBanner(page: Page, where: string): Promise<void> {
  const banner = page.locator('#test-instance-banner');
  await banner.waitFor({ state: 'visible' });
  expect(await banner.innerText(), where).toBe(BANNER_TEXT);
  await page.locator('.app-header').waitFor();
  await page.locator('#main, .app-main').first().waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  const seen = await page.evaluate(() => {
    const element = document.getElementById('test-instance-banner')!;
    const box = element.getBoundingClientRect();
    const header = document.querySelector('.app-header')!.getBoundingClientRect();
    const main = document.querySelector('.app-main')!.getBoundingClientRect();
    const style = getComputedStyle(element);
    return {
      top: box.top,
      bottom: box.bottom,
      left: box.left,
      right: box.right,
      headerTop: header.top,
      mainTop: main.top,
      // Whatever is drawn at the banner's middle and near each end: the banner itself (true), else what covers it.
      onTop: [0.05, 0.5, 0.95].map((x) => {
        const hit = document.elementFromPoint(box.left + box.width * x, box.top + box.height / 2);
        return hit === element || element.contains(hit) ? true : (hit?.outerHTML.slice(0, 200) ?? 'nothing');
      }),
      width: innerWidth,
      // The banner's text wraps within it (the page's own width is the page's business).
      overflows: element.scrollWidth > element.clientWidth,
      direction: style.direction,
      color: style.color,
      background: style.backgroundColor,
      fontSize: parseFloat(style.fontSize),
      firstInBody: document.body.firstElementChild === element,
    };
  });
  expect(seen.firstInBody, where).toBe(true);
  expect(seen.top, where).toBe(0);
  expect([seen.left, seen.right], where).toEqual([0, seen.width]);
  expect(seen.bottom, where).toBeGreaterThan(20);
  expect(seen.headerTop, where).toBeGreaterThanOrEqual(seen.bottom - 0.5);
  expect(seen.mainTop, where).toBeGreaterThanOrEqual(seen.bottom - 0.5);
  expect(seen.onTop, where).toEqual([true, true, true]);
  expect(seen.overflows, where).toBe(false);
  expect(seen.direction, where).toBe('rtl');
  expect(seen.fontSize, where).toBeGreaterThanOrEqual(14);
  expect(contrastRatio(hex(seen.color), hex(seen.background)), where).toBeGreaterThanOrEqual(AA_TEXT);
}

const PAGES: Record<Visitor, string[]> = {
  guest: ['/', '/desks/toeflGeneralCpr', '/request/myWallet', '/login'],
  customer: ['/', '/request/myWallet', '/request/myRequests'],
  staff: ['/management', '/management/collections', '/management/withdrawals'],
};

describe('with the sandbox bank', () => {
  for (const [size, viewport] of [
    ['390x844', PHONE],
    ['1366x768', DESKTOP],
  ] as const) {
    for (const visitor of ['guest', 'customer', 'staff'] as const) {
      it(`shows the banner on every page a ${visitor} opens at ${size}`, async () => {
        const page = await pageAs(visitor, viewport);
        for (const urlPath of PAGES[visitor]) {
          await page.goto(server.url + urlPath);
          await settled(page);
          await expectBanner(page, `${visitor} ${size} ${urlPath}`);
        }
        if (takeScreenshots) {
          await page.goto(server.url + PAGES[visitor][0]!);
          await settled(page);
          await page.screenshot({ path: path.join(shots, `test-instance-${visitor}-${size}.png`) });
        }
      });
    }
  }

  it("keeps the banner through the app's own navigation", async () => {
    const page = await pageAs('guest', PHONE);
    await page.goto(`${server.url}/`);
    await settled(page);
    await page.locator('a[href="/services/educational"]:visible').first().click();
    await page.waitForURL(/\/services\/educational$/);
    await expectBanner(page, 'after navigating to a category');
    expect(await page.locator('#test-instance-banner').count()).toBe(1);
  });

  it('marks the sandbox payment as test money in the collections list and its CSV export', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await pageAs('staff', viewport);
      await page.goto(`${server.url}/management/collections`);
      const row = page.getByTestId('collections-row').filter({ hasText: TEST_MONEY });
      await row.first().waitFor();
      expect(await row.count()).toBe(1);
      expect(await row.first().getByText(TEST_MONEY).isVisible()).toBe(true);
      if (viewport === DESKTOP) {
        const download = page.waitForEvent('download');
        await page.getByRole('button', { name: 'خروجی' }).click();
        await page.getByRole('menuitem', { name: 'CSV' }).click();
        const file = await (await download).path();
        const csv = readFileSync(file, 'utf8');
        expect(csv.split('\n')[0]).toContain('نوع');
        expect(csv).toContain(TEST_MONEY);
        if (takeScreenshots) {
          await page.screenshot({ path: path.join(shots, 'test-instance-collections-1366x768.png'), fullPage: true });
        }
      }
    }
  });

  it('warns in the withdrawal dialog that the instance takes no real payments', async () => {
    const page = await pageAs('staff', DESKTOP);
    await page.goto(`${server.url}/management/withdrawals`);
    for (const button of [`withdrawal-done-${withdrawalId}`, `withdrawal-refuse-${withdrawalId}`]) {
      await page.getByTestId(button).click();
      const dialog = page.getByTestId('withdrawal-dialog');
      await dialog.waitFor();
      const warning = dialog.getByTestId('withdrawal-test-instance');
      expect(await warning.isVisible()).toBe(true);
      expect(await warning.innerText()).toContain('این نسخهٔ آزمایشی ارزپی است و پرداخت واقعی نمی‌گیرد');
      // The withdrawal's number is read in Persian digits, like every number outside the IBAN.
      expect(await dialog.innerText()).toContain(`برداشت شماره ${toPersianDigits(withdrawalId)} از`);
      if (takeScreenshots && button.startsWith('withdrawal-done')) {
        await page.screenshot({ path: path.join(shots, 'test-instance-withdrawal-dialog.png') });
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
  });
});
