/**
 * The one page walk (issues 12, 13, 29, 42; decision 036): every route of the web app's route table
 * (src/web/lib/routes.ts, read here, so a page added later is walked too) and an unknown address, as a guest, a
 * customer with a paid request, a receipt, a deposit and a withdrawal, and the administrator, at 390x844 and
 * 1366x768. Each visit runs every page check once:
 * - the page's HTTP status (200 for a route, 404 for the unknown address), its HTML carrying the test banner;
 * - right to left; the test instance's banner (decision 023: these servers take payments at the sandbox bank) there,
 *   whole, first at the top, covered by nothing and covering nothing, readable;
 * - no Latin digit in visible text outside the one list of exceptions (shared/format/latin.ts), and no placeholder
 *   with one not marked Latin by nature;
 * - axe-core: no serious or critical violation, on the page and, where a person of that kind works (a guest and a
 *   customer on public pages, a customer on the customer's pages, the administrator on the staff pages, at the
 *   desktop size), on every dialog it opens (each distinct `aria-haspopup="dialog"` trigger, the drawer's included),
 *   with the same digit check in each;
 * - for staff, the digit check on their dialogs, open (a task, a request, a rate, an offline deposit), at both sizes;
 * - no console error and no uncaught error in the page.
 * And once per role and size, the drawer's digits. Every class drawn on those pages and dialogs must have kept its
 * rules in the trimmed stylesheet. One test per route and visitor, so a finding names its page; each visitor keeps one
 * tab across routes, moving in the app as its links do, and the six visitors walk side by side. Every axe finding is
 * also written to tests/artifacts/axe-findings.json, and the seconds each part of the visits took, summed over the
 * visitors, to tests/artifacts/page-walk-times.json (where to look when the walk grows slow).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/web/lib/routes';
import { builtScripts, classUsage } from '../../build/trim-stylesheet';
import { animationsDone, DESKTOP, inAppNavigator, PHONE, settled, takeScreenshots } from '../support/browser';
import { watchErrors, withE2eServer } from '../support/e2e';
import { type Customer, testIban } from '../support/money';
import { type AxeFinding, classNames, expectBanner, latinDigits, seriousViolations } from '../support/page-checks';
import { bearer, post, webDir } from '../support/server';

const artifacts = path.resolve(import.meta.dirname, '../artifacts');
const shots = path.join(artifacts, 'screenshots');
type Role = 'guest' | 'customer' | 'staff';
type Size = 'phone' | 'desktop';
const SIZES: Record<Size, { width: number; height: number }> = { phone: PHONE, desktop: DESKTOP };

let customer: Customer;
let adminToken: string;
let collectionId: number;
/** The value of each route parameter, by route name and parameter. */
let params: Record<string, Record<string, string>>;

const e2e = withE2eServer(
  {},
  async ({ server, money }) => {
    adminToken = await e2e.adminToken();
    customer = await money.customer();
    // Something on every page: a request paid at the sandbox bank (a collection, a receipt, a staff task), one paid
    // from the wallet, one waiting for payment with a payment link, a deposit and a withdrawal waiting for staff.
    const online = await money.request(customer, 30);
    const paying = await money.payOk(customer, online.id);
    await money.payAtSandboxBank(customer, paying.gatewayUrl!);
    await money.paidRequest(customer, 10);
    // One carried out by staff, whose proof letter is a page of its own.
    const finished = await money.paidRequest(customer, 20);
    const task = await server.app.database.db
      .selectFrom('tasks')
      .select('id')
      .where('purchaseId', '=', finished.id)
      .executeTakeFirstOrThrow();
    await post(server, '/api/sys/fetchFulfilmentTaskData', { taskId: task.id }, bearer(adminToken));
    const done = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: finished.id, realPrice: finished.expectedPrice, currencyPaymentReference: 'ETS-2026-0042' },
      bearer(adminToken),
    );
    expect(done.status, done.body.msg).toBe(200);
    const waiting = await money.request(customer, 5);
    const link = await post(server, '/api/me/createPaymentLink', { purchase: waiting.id }, bearer(customer.token));
    expect(link.status, link.body.msg).toBe(200);
    await money.deposit(customer, 2_500_000);
    await money.withdrawalWaiting(customer, adminToken, testIban(4242));
    const detail = await money.purchaseOf(customer, online.id);
    collectionId = detail.payments.find((p) => p.collectionId !== null)!.collectionId!;
    const receipt = await post(server, '/api/me/fetchCollection', { collection: collectionId }, bearer(customer.token));
    const catalogue = (await post(server, '/api/public/fetchCatalogue')).body.data as {
      desks: Array<{ identifier: string; underConstruction?: boolean }>;
    };
    params = {
      customerWallet: { id: String(customer.userId) },
      receipt: { id: String(collectionId) },
      proofLetter: { id: String(finished.id) },
      desk: { desk: 'toeflGeneralCpr' },
      underConstructionDesk: {
        desk: catalogue.desks.find((d) => d.underConstruction)?.identifier ?? 'toeflGeneralCpr',
      },
      servicesCategory: { category: 'educational' },
      verifyReceipt: { code: (receipt.body.data as { verificationCode: string }).verificationCode },
      payLink: { token: (link.body.data as { token: string }).token },
    };
  },
  300_000,
);

const walk = [
  ...routes.map((r) => ({ name: r.name, path: r.path, access: r.access as string })),
  { name: 'notFound', path: '/no/such/page', access: 'public' },
];

/** The address of a route with its parameters filled in; a parameter this test does not know fails the test. */
function addressOf(route: { name: string; path: string }): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[route.name]?.[name];
    if (value === undefined) throw new Error(`no value for :${name} of route ${route.name}: add one to params`);
    return value;
  });
}

/** Who works on each kind of route: there, at the desktop size, their dialogs are opened and checked by axe too. */
const worksOn = (access: string): Role[] =>
  access === 'public' ? ['guest', 'customer'] : access === 'guest' ? ['guest'] : ['staff'];

/** Staff dialogs, each opened on its page by the first of its buttons: a task, a request, a rate, an offline deposit. */
const STAFF_DIALOGS: Record<string, string> = {
  '/management/tasks': '[data-testid^=open-task-]',
  '/management/requests': '[data-testid=open-request]',
  '/management/currencies': '[data-testid=edit-USD]',
  '/management/collections': '[data-testid=open-pay-offline]',
};

interface Visitor {
  context: BrowserContext;
  page: Page;
  tab: ReturnType<typeof inAppNavigator>;
  errors: string[];
  /** How many text nodes held Persian digits, over the walk. */
  persian: number;
}
const visitors = new Map<string, Promise<Visitor>>();

/** The visitor's one tab, signed in once, kept across routes as a person's tab would be. */
function visitor(role: Role, size: Size): Promise<Visitor> {
  const key = `${role}@${size}`;
  let open = visitors.get(key);
  if (!open) {
    open = (async () => {
      const token = role === 'customer' ? customer.token : role === 'staff' ? adminToken : null;
      const context = await e2e.signedInContext(token, SIZES[size], { locale: 'fa-IR' });
      const page = await context.newPage();
      const errors = watchErrors(page, { network: true });
      return { context, page, tab: inAppNavigator(page, e2e.server.url), errors, persian: 0 };
    })();
    visitors.set(key, open);
  }
  return open;
}

interface Finding extends AxeFinding {
  page: string;
  as: string;
  dialog: string | null;
}
const allFindings: Finding[] = [];
let dialogsChecked = 0;
/** Every class name seen on a page or an open dialog, and where first; checked against the trimmed stylesheet. */
const classesSeen = new Map<string, string>();
/** Route visits made, for the count the walk must reach (every address once per visitor). */
let visits = 0;
/** Milliseconds spent in each part of the visits, summed over the six visitors walking side by side. */
const spent: Record<string, number> = {};

async function timed<T>(part: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    spent[part] = (spent[part] ?? 0) + Date.now() - started;
  }
}

async function collectClasses(page: Page, where: string): Promise<void> {
  for (const name of await classNames(page)) if (!classesSeen.has(name)) classesSeen.set(name, where);
}

/**
 * Opens each distinct dialog trigger of the page in turn (at most 8), runs axe and the digit check on the open dialog,
 * and closes it.
 */
async function dialogChecks(page: Page, where: string, as: string, digits: string[]): Promise<Finding[]> {
  const found: Finding[] = [];
  const triggers = page.locator('[aria-haspopup="dialog"]:visible');
  const seen = new Set<string>();
  const count = await triggers.count();
  for (let i = 0; i < count && seen.size < 8; i++) {
    const trigger = triggers.nth(i);
    const name = ((await trigger.getAttribute('aria-label')) ?? (await trigger.innerText()).trim()) || `#${i}`;
    if (seen.has(name)) continue;
    seen.add(name);
    // What a person waits for: the dialog open (the drawer loads lazily, slowly on a busy machine), then closed.
    const dialog = page.locator('[role=dialog]:visible, [role=alertdialog]:visible').first();
    await timed('dialog open', async () => {
      await trigger.click();
      await dialog.waitFor();
      await settled(page);
      await animationsDone(page);
    });
    for (const f of await timed('dialog axe', () => seriousViolations(page))) {
      found.push({ ...f, page: where, as, dialog: name });
    }
    for (const text of (await latinDigits(page)).found) digits.push(`dialog ${name} → ${text}`);
    await collectClasses(page, `${where} (${as}), dialog ${name}`);
    dialogsChecked += 1;
    await timed('dialog close', async () => {
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await animationsDone(page);
    });
  }
  return found;
}

afterAll(() => {
  mkdirSync(artifacts, { recursive: true });
  writeFileSync(
    path.join(artifacts, 'axe-findings.json'),
    JSON.stringify({ dialogsChecked, findings: allFindings }, null, 2),
  );
  const seconds = Object.fromEntries(Object.entries(spent).map(([part, ms]) => [part, Math.round(ms / 100) / 10]));
  writeFileSync(path.join(artifacts, 'page-walk-times.json'), JSON.stringify({ visits, seconds }, null, 2));
});

// Six visitors walk side by side, each on its one tab, route after route (the desktop ones, which open dialogs too,
// first); each visit is a test of its own.
const VISITORS = (['desktop', 'phone'] as const).flatMap((size) =>
  (['staff', 'customer', 'guest'] as const).map((role) => ({ role, size, as: `${role} at ${size}` })),
);

describe('every page, once per role and size: status, banner, digits, axe, console', () => {
  for (const { role, size, as } of VISITORS) {
    describe.concurrent(as, () => {
      for (const route of walk) {
        it.sequential(
          `${route.path} as ${as}`,
          async () => {
            const v = await visitor(role, size);
            const { page } = v;
            const address = addressOf(route);
            v.errors.length = 0;
            // What the server answers for the address itself: the page's status, with the banner in it.
            const answer = await timed('status', () => v.context.request.get(e2e.server.url + address));
            expect(answer.status(), address).toBe(route.name === 'notFound' ? 404 : 200);
            expect(await answer.text(), address).toContain('id="test-instance-banner"');
            await timed('navigation', async () => {
              await v.tab.go(address);
              await animationsDone(page);
            });
            const where = `${address} (${as})`;
            expect(await page.getAttribute('html', 'dir'), where).toBe('rtl');
            await timed('banner', () => expectBanner(page, where));
            const digits = await timed('digits', () => latinDigits(page));
            v.persian += digits.persian;
            const problems = digits.found.map((text) => `digits → ${text}`);
            await collectClasses(page, where);
            const findings: Finding[] = (await timed('axe', () => seriousViolations(page))).map((f) => ({
              ...f,
              page: address,
              as,
              dialog: null,
            }));
            if (size === 'desktop' && worksOn(route.access).includes(role)) {
              findings.push(...(await dialogChecks(page, address, as, problems)));
            }
            const opener = STAFF_DIALOGS[address];
            if (role === 'staff' && opener) {
              const button = page.locator(opener).first();
              await button.waitFor();
              await button.click();
              const dialog = page.getByRole('dialog');
              await dialog.waitFor();
              await settled(page);
              const seen = await latinDigits(page);
              for (const text of seen.found) problems.push(`staff dialog → ${text}`);
              v.persian += seen.persian;
              await page.keyboard.press('Escape');
              await dialog.waitFor({ state: 'detached' });
            }
            allFindings.push(...findings);
            expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
            expect(problems, problems.join('\n')).toEqual([]);
            expect(v.errors, `console errors on ${where}`).toEqual([]);
            visits += 1;
            if (takeScreenshots && route.name === 'dashboard') {
              const { width, height } = SIZES[size];
              await page.screenshot({ path: path.join(shots, `test-instance-${role}-${width}x${height}.png`) });
            }
          },
          180_000,
        );
      }

      it.sequential(
        `the drawer as ${as}: no Latin digit`,
        async () => {
          const { page, tab } = await visitor(role, size);
          await tab.go('/');
          await page.getByTestId('menu-button').click();
          await page.getByTestId('drawer').waitFor();
          await settled(page);
          const found = (await latinDigits(page)).found;
          await page.keyboard.press('Escape');
          await page.getByTestId('drawer').waitFor({ state: 'detached' });
          expect(found, found.join('\n')).toEqual([]);
        },
        180_000,
      );
    });
  }
});

describe('what the walk saw', () => {
  it('visited every address once per visitor (42 addresses × 6 visitors = 252 when the walk was made one)', () => {
    console.log(`page walk: ${visits} visits, ${walk.length} addresses × ${VISITORS.length} visitors`);
    expect(walk.length).toBeGreaterThanOrEqual(42);
    expect(visits).toBe(walk.length * VISITORS.length);
  });

  it('the pages were really drawn with their numbers (rates, prices, dates), not checked while loading', async () => {
    for (const { role, size, as } of VISITORS) {
      expect((await visitor(role, size)).persian, as).toBeGreaterThan(role === 'guest' ? 20 : 60);
    }
  });

  it('has something to check: the customer really has a receipt and a wallet with money', async () => {
    const wallet = await post(e2e.server, '/api/accounting/userBalance', {}, bearer(customer.token));
    expect((wallet.body.data as { balance: number }).balance).toBeGreaterThan(0);
    expect(collectionId).toBeGreaterThan(0);
  });

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
