/**
 * What an end-to-end test file shares, the e2e twin of `withMoneyServer` (tests/support/money.ts): a server of its
 * own on a real database, one Chromium, the money helpers ready, and browser contexts per role and size made on
 * demand and closed with the file. The helpers a person's steps need more than once (a signed-in page, picking an
 * option of a form's select) live here once.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { keepSignedIn, launchBrowser, PHONE, WAIT_MS } from './browser';
import { type Customer, type MoneyHelpers, moneyHelpers } from './money';
import { loginAdmin, type RunningServer, staffWithActions, startServer } from './server';

export type Viewport = { width: number; height: number };

export { WAIT_MS } from './browser';

export interface E2e {
  server: RunningServer;
  browser: Browser;
  money: MoneyHelpers;
  /** The administrator's token (logged in once per file). */
  adminToken(): Promise<string>;
  /** A new verified customer with a wallet (money helpers). */
  customer(): Promise<Customer>;
  /** A new staff member holding exactly `actions`: their token. */
  staff(actions: string[]): Promise<string>;
  /** A new browser context at `viewport` (a phone by default), signed in with `token` when given. */
  signedInContext(token: string | null, viewport?: Viewport, options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A new tab of a new context at `viewport`, signed in with `token` when given (null: a guest). */
  signedIn(token: string | null, viewport?: Viewport, options?: BrowserContextOptions): Promise<Page>;
}

/**
 * The preamble of an e2e file: `options` as startServer takes them; `ready` runs once the server and browser are up,
 * for what the file keeps. Returns the file's handle, usable from its tests and hooks on.
 */
export function withE2eServer(
  options: Parameters<typeof startServer>[0] = {},
  ready?: (t: E2e) => void | Promise<void>,
  /** How long starting may take, in milliseconds (vitest's hook timeout when absent). */
  timeout?: number,
): E2e {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let money: MoneyHelpers | undefined;
  let admin: Promise<string> | undefined;
  const contexts: BrowserContext[] = [];
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the e2e ${what} is not up yet: use it in a test or hook`);
    return value;
  };
  const t: E2e = {
    get server() {
      return need(server, 'server');
    },
    get browser() {
      return need(browser, 'browser');
    },
    get money() {
      return need(money, 'money helpers');
    },
    adminToken() {
      admin ??= loginAdmin(t.server);
      return admin;
    },
    customer() {
      return t.money.customer();
    },
    async staff(actions) {
      return (await staffWithActions(t.server, actions)).token;
    },
    async signedInContext(token, viewport = PHONE, contextOptions = {}) {
      const context = await t.browser.newContext({ viewport, ...contextOptions });
      // Waits are for events; on a machine shared with other runs they get more than Playwright's 30 s default.
      context.setDefaultTimeout(WAIT_MS);
      contexts.push(context);
      if (token) await keepSignedIn(context, token);
      return context;
    },
    async signedIn(token, viewport = PHONE, contextOptions = {}) {
      return (await t.signedInContext(token, viewport, contextOptions)).newPage();
    },
  };
  beforeAll(async () => {
    server = await startServer(options);
    browser = await launchBrowser();
    money = moneyHelpers(server);
    await money.ready();
    await ready?.(t);
  }, timeout);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });
  return t;
}

/**
 * Picks `option` in a select of a form (rjsf with the app's theme): `field` is the field's name in the form's root
 * (`#root_<field>`) or a CSS selector of the select's button (starting with `#` or `[`). Waits for the list to close,
 * as a person sees the choice made.
 */
export async function choose(page: Page, field: string, option: string | RegExp): Promise<void> {
  const selector = /^[#[.]/.test(field) ? field : `#root_${field}`;
  await page.locator(selector).click();
  await page.getByRole('option', { name: option }).first().click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

/**
 * Collects the page's console errors and uncaught errors from now on (the array fills as they come). With `network`,
 * a failed load is judged by what failed instead of Chromium's console line for it: an API's 4xx is the server's
 * answer, which the page shows; a 5xx, or a 4xx for anything else (a script, a picture), is an error, with its address.
 */
export function watchErrors(page: Page, { network = false } = {}): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (network && m.text().startsWith('Failed to load resource:')) return;
    errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  if (network) {
    page.on('response', (r) => {
      const api = new URL(r.url()).pathname.startsWith('/api/');
      if (r.status() >= 500 || (r.status() >= 400 && !api)) errors.push(`${r.status()} ${r.url()}`);
    });
  }
  return errors;
}
