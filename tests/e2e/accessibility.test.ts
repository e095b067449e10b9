/**
 * Accessibility (issue 12): axe-core (@axe-core/playwright) on every page of the web app's route table
 * (src/web/lib/routes.ts, read here, so a page added later is walked too) in RTL, as each kind of person who can open
 * it — a guest and a customer on public pages, a customer on the customer's pages, the administrator on the staff
 * pages — and on every dialog those pages open (each distinct `aria-haspopup="dialog"` trigger, which Radix sets on
 * every dialog trigger, the drawer's included), plus the not-found page. No serious or critical violation may be
 * found. One test per route and visitor, so a finding names its page; every finding is also written to
 * tests/artifacts/axe-findings.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/web/lib/routes';
import { animationsDone, DESKTOP, inAppNavigator, keepSignedIn, launchBrowser, settled } from '../support/browser';
import { type Customer, moneyHelpers } from '../support/money';
import { builtScripts, classUsage } from '../../build/trim-stylesheet';
import { bearer, loginAdmin, post, type RunningServer, startServer, webDir } from '../support/server';

const artifacts = path.resolve(import.meta.dirname, '../artifacts');
type Visitor = 'guest' | 'customer' | 'admin';
let server: RunningServer;
let browser: Browser;
let tokens: Record<Visitor, string | null>;
let customer: Customer;
/** The value of each route parameter, by route name and parameter. */
let params: Record<string, Record<string, string>>;
const contexts = new Map<Visitor, BrowserContext>();
const pages = new Map<Visitor, { page: Page; tab: ReturnType<typeof inAppNavigator> }>();

interface Finding {
  page: string;
  as: Visitor;
  dialog: string | null;
  rule: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}
const allFindings: Finding[] = [];
let dialogsChecked = 0;
/** Every class name seen on a page or an open dialog, and where first; checked against the trimmed stylesheet. */
const classesSeen = new Map<string, string>();

async function collectClasses(page: Page, where: string): Promise<void> {
  const names = await page.evaluate(() => [
    ...new Set([...document.querySelectorAll('*')].flatMap((e) => [...e.classList])),
  ]);
  for (const name of names) if (!classesSeen.has(name)) classesSeen.set(name, where);
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const money = moneyHelpers(server);
  await money.ready();
  customer = await money.customer();
  tokens = { guest: null, customer: customer.token, admin: await loginAdmin(server) };
  // Something on every page: a request paid at the sandbox bank (a collection, a receipt, a staff task), one paid
  // from the wallet and one waiting for payment, with a payment link.
  const online = await money.request(customer, 30);
  const paying = await money.payOk(customer, online.id);
  await money.payAtSandboxBank(customer, paying.gatewayUrl!);
  await money.paidRequest(customer, 10);
  const waiting = await money.request(customer, 5);
  // A payment link for the request waiting for payment (the public /pay/:token page shows it).
  const link = await post(server, '/api/me/createPaymentLink', { purchase: waiting.id }, bearer(customer.token));
  expect(link.status, link.body.msg).toBe(200);
  const detail = await money.purchaseOf(customer, online.id);
  const collectionId = detail.payments.find((p) => p.collectionId !== null)?.collectionId;
  expect(collectionId).toBeTruthy();
  const catalogue = (await post(server, '/api/public/fetchCatalogue')).body.data as {
    desks: Array<{ identifier: string; underConstruction?: boolean }>;
  };
  params = {
    customerWallet: { id: String(customer.userId) },
    receipt: { id: String(collectionId) },
    desk: { desk: 'toeflGeneralCpr' },
    underConstructionDesk: {
      desk: catalogue.desks.find((d) => d.underConstruction)?.identifier ?? 'toeflGeneralCpr',
    },
    servicesCategory: { category: 'educational' },
    verifyReceipt: { code: await verificationCodeOf(collectionId!) },
    payLink: { token: (link.body.data as { token: string }).token },
  };
}, 300_000);

/** The verification code of the customer's receipt (the public /verify/:code page shows it). */
async function verificationCodeOf(collection: number): Promise<string> {
  const res = await post(server, '/api/me/fetchCollection', { collection }, bearer(customer.token));
  return (res.body.data as { verificationCode: string }).verificationCode;
}

afterAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  writeFileSync(
    path.join(artifacts, 'axe-findings.json'),
    JSON.stringify({ dialogsChecked, findings: allFindings }, null, 2),
  );
  for (const context of contexts.values()) await context.close();
  await browser?.close();
  await server?.stop();
});

/** The address of a route with its parameters filled in; a parameter this test does not know fails the test. */
function addressOf(route: { name: string; path: string }): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[route.name]?.[name];
    if (value === undefined) throw new Error(`no value for :${name} of route ${route.name}: add one to params`);
    return value;
  });
}

/** One tab per visitor, kept across routes as a person's tab would be, moving between them in the app. */
async function tabOf(as: Visitor): Promise<{ page: Page; tab: ReturnType<typeof inAppNavigator> }> {
  let open = pages.get(as);
  if (!open) {
    const context = await browser.newContext({ viewport: DESKTOP, locale: 'fa-IR' });
    const token = tokens[as];
    if (token) await keepSignedIn(context, token);
    contexts.set(as, context);
    const page = await context.newPage();
    open = { page, tab: inAppNavigator(page, server.url) };
    pages.set(as, open);
  }
  return open;
}

async function violations(page: Page, label: string, as: Visitor, dialog: string | null): Promise<Finding[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      page: label,
      as,
      dialog,
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
}

/** Opens each distinct dialog trigger of the page in turn (at most 8), checks the open dialog, and closes it. */
async function dialogFindings(page: Page, label: string, as: Visitor): Promise<Finding[]> {
  const found: Finding[] = [];
  const triggers = page.locator('[aria-haspopup="dialog"]:visible');
  const seen = new Set<string>();
  const count = await triggers.count();
  for (let i = 0; i < count && seen.size < 8; i++) {
    const trigger = triggers.nth(i);
    const name = ((await trigger.getAttribute('aria-label')) ?? (await trigger.innerText()).trim()) || `#${i}`;
    if (seen.has(name)) continue;
    seen.add(name);
    await trigger.click();
    const dialog = page.locator('[role=dialog]:visible, [role=alertdialog]:visible').first();
    const opened = await dialog.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (!opened) continue;
    await settled(page);
    await animationsDone(page);
    found.push(...(await violations(page, label, as, name)));
    await collectClasses(page, `${label} (${as}), dialog ${name}`);
    dialogsChecked += 1;
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    await animationsDone(page);
  }
  return found;
}

/** Who opens each kind of route. */
const visitorsOf = (access: string): Visitor[] =>
  access === 'public'
    ? ['guest', 'customer']
    : access === 'guest'
      ? ['guest']
      : access === 'login'
        ? ['customer']
        : ['admin'];

const walk = [
  ...routes.map((r) => ({ name: r.name, path: r.path, access: r.access as string })),
  { name: 'notFound', path: '/no/such/page', access: 'public' },
];

describe('accessibility (axe-core, RTL, 1366x768)', () => {
  for (const route of walk) {
    for (const as of visitorsOf(route.access)) {
      it(`${route.path} as ${as}: no serious or critical violation, dialogs included`, async () => {
        const { page, tab } = await tabOf(as);
        const address = addressOf(route);
        await tab.go(address);
        await animationsDone(page);
        expect(await page.getAttribute('html', 'dir'), address).toBe('rtl');
        await collectClasses(page, `${address} (${as})`);
        const found = [...(await violations(page, address, as, null)), ...(await dialogFindings(page, address, as))];
        allFindings.push(...found);
        expect(found, JSON.stringify(found, null, 2)).toEqual([]);
      }, 120_000);
    }
  }

  it('opened dialogs, not only pages', () => {
    expect(dialogsChecked).toBeGreaterThan(5);
  });

  // The build trims the stylesheet to the classes its scripts can produce (build/trim-stylesheet.ts); a class drawn
  // on any page or dialog walked above whose rules were trimmed would be a page drawn without its styles.
  it('every class drawn on those pages and dialogs kept its rules in the trimmed stylesheet', () => {
    const kept = classUsage(builtScripts(webDir));
    expect(classesSeen.size).toBeGreaterThan(100);
    const trimmed = [...classesSeen].filter(([name]) => !kept(name)).map(([name, where]) => `${name} on ${where}`);
    expect(trimmed).toEqual([]);
  });
});
