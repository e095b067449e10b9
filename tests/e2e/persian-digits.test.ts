/**
 * Persian digits everywhere a person reads a number (issue 13): every route of the route table, and an unknown
 * address, at 390x844 and 1366x768, as a guest, a customer with a paid request, a receipt and a deposit, and the
 * administrator; with the drawer open once per role and size. Fails on any Latin digit in visible text outside
 * the one list of exceptions (shared/format/latin.ts: inputs, and elements marked Latin by nature), naming the
 * route and the text; and on any placeholder (the example in an empty field) not marked Latin by nature. For staff,
 * the same check on their dialogs, open (a task, a request, a rate, an offline deposit), at both sizes. The same walk finds the test instance's banner (decision 023: these servers take payments at
 * the sandbox bank) on every one of those pages, at both sizes and for every role.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATIN_ATTRIBUTE, LATIN_EXEMPT } from '../../src/shared/format/latin';
import { routes } from '../../src/web/lib/routes';
import { DESKTOP, inAppNavigator, keepSignedIn, launchBrowser, PHONE, settled } from '../support/browser';
import { type Customer, moneyHelpers } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;
let browser: Browser;
let customer: Customer;
let adminToken: string;
let collectionId: number;
let verificationCode: string;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const money = moneyHelpers(server);
  await money.ready();
  adminToken = await loginAdmin(server);
  customer = await money.customer();
  // A request paid at the bank (a collection and its receipt), a deposit, and a request waiting for payment.
  const paid = await money.request(customer, 120);
  const paying = await money.payOk(customer, paid.id);
  await money.payAtSandboxBank(customer, paying.gatewayUrl!);
  const detail = await money.purchaseOf(customer, paid.id);
  collectionId = detail.payments.find((p) => p.collectionId !== null)!.collectionId!;
  const receipt = await post(server, '/api/me/fetchCollection', { collection: collectionId }, bearer(customer.token));
  verificationCode = (receipt.body.data as { verificationCode: string }).verificationCode;
  await money.deposit(customer, 2_500_000);
  await money.request(customer, 35);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Each route's address with its parameters filled with things that exist. */
function addresses(): string[] {
  const params: Record<string, string> = {
    id: '',
    desk: 'toeflGeneralCpr',
    category: 'internationalExams',
  };
  return [
    ...routes.map((r) =>
      r.path.replace(/:(\w+)/g, (_, key: string) => {
        if (key === 'id') return String(r.name === 'receipt' ? collectionId : customer.userId);
        if (key === 'code') return verificationCode;
        return params[key] ?? '';
      }),
    ),
    '/no-such-page/here',
  ];
}

/**
 * Visible text nodes holding a Latin digit outside the exceptions, with a little context, and visible fields whose
 * placeholder (the example of what to type) holds one outside text Latin by nature; and how many hold Persian ones.
 */
function latinDigits(page: Page): Promise<{ found: string[]; persian: number }> {
  return page.evaluate(
    ([exempt, latinByNature]) => {
      const found: string[] = [];
      let persian = 0;
      for (const field of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
        'input[placeholder], textarea[placeholder]',
      )) {
        if (!/[0-9]/.test(field.placeholder) || field.closest(latinByNature)) continue;
        if (!field.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
        found.push(`placeholder of ${field.id || field.name || field.tagName.toLowerCase()}: ${field.placeholder}`);
      }
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode as Text;
        if (/[۰-۹]/.test(node.data)) persian++;
        if (!/[0-9]/.test(node.data)) continue;
        const element = node.parentElement;
        if (!element || element.closest(exempt)) continue;
        if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        if (range.getClientRects().length === 0) continue;
        const where = element.closest('[data-testid]')?.getAttribute('data-testid') ?? element.tagName.toLowerCase();
        found.push(`${where}: ${node.data.trim().slice(0, 80)}`);
      }
      return { found, persian };
    },
    [LATIN_EXEMPT, `[${LATIN_ATTRIBUTE}]`] as const,
  );
}

/** Staff dialogs, each opened on its page by the first of its buttons: a task, a request, a rate, an offline deposit. */
const STAFF_DIALOGS: Array<[string, string]> = [
  ['/management/tasks', '[data-testid^=open-task-]'],
  ['/management/requests', '[data-testid=open-request]'],
  ['/management/currencies', '[data-testid=edit-USD]'],
  ['/management/collections', '[data-testid=open-pay-offline]'],
];

const roles = ['guest', 'customer', 'staff'] as const;
const sizes = { phone: PHONE, desktop: DESKTOP } as const;

describe('Persian digits on every screen', () => {
  for (const role of roles) {
    for (const [sizeName, viewport] of Object.entries(sizes)) {
      it(`${role} at ${sizeName}: no Latin digit in visible text outside the exceptions`, async () => {
        const context = await browser.newContext({ viewport });
        const token = role === 'customer' ? customer.token : role === 'staff' ? adminToken : null;
        if (token) {
          await keepSignedIn(context, token);
        }
        const page = await context.newPage();
        const problems: string[] = [];
        let persian = 0;
        const tab = inAppNavigator(page, server.url);
        for (const address of addresses()) {
          await tab.go(address);
          const seen = await latinDigits(page);
          for (const text of seen.found) problems.push(`${address} → ${text}`);
          if (!(await page.locator('#test-instance-banner').isVisible())) problems.push(`${address} → no test banner`);
          persian += seen.persian;
        }
        // The drawer, once, on the home page.
        await tab.go('/');
        await page.getByTestId('menu-button').click();
        await page.getByTestId('drawer').waitFor();
        await settled(page);
        for (const text of (await latinDigits(page)).found) problems.push(`drawer → ${text}`);
        await page.keyboard.press('Escape');
        await page.getByTestId('drawer').waitFor({ state: 'detached' });
        // Staff dialogs, open, at both sizes.
        if (role === 'staff') {
          for (const [address, opener] of STAFF_DIALOGS) {
            await tab.go(address);
            const button = page.locator(opener).first();
            await button.waitFor();
            await button.click();
            const dialog = page.getByRole('dialog');
            await dialog.waitFor();
            await settled(page);
            const seen = await latinDigits(page);
            for (const text of seen.found) problems.push(`${address} dialog → ${text}`);
            persian += seen.persian;
            await page.keyboard.press('Escape');
            await dialog.waitFor({ state: 'detached' });
          }
        }
        await context.close();
        expect(problems, problems.join('\n')).toEqual([]);
        // The pages were really drawn with their numbers (rates, prices, dates), not checked while loading.
        expect(persian).toBeGreaterThan(role === 'guest' ? 20 : 60);
      }, 240_000);
    }
  }

  it('has something to check: the customer really has a receipt and a wallet with money', async () => {
    const wallet = await post(server, '/api/accounting/userBalance', {}, bearer(customer.token));
    expect((wallet.body.data as { balance: number }).balance).toBeGreaterThan(0);
    expect(collectionId).toBeGreaterThan(0);
  });
});
