/** Debian's Chromium driven by playwright-core, with the flags this closed network needs. */
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * The worker's one Chromium, kept on globalThis so the next file of the same vitest worker (isolate: false) finds
 * it; launched again when it went away. Playwright kills it when the worker process exits.
 */
const SHARED = Symbol.for('arzpay.tests.sharedChromium');
type WithShared = { [SHARED]?: Promise<Browser> };

async function sharedChromium(): Promise<Browser> {
  const holder = globalThis as WithShared;
  const current = await holder[SHARED]?.catch(() => undefined);
  if (current?.isConnected()) return current;
  const launched = launchChromium();
  holder[SHARED] = launched;
  return launched;
}

/**
 * A browser for one test file. Inside a vitest worker it is a handle on the worker's one Chromium, shared by the
 * files the worker runs one after another (starting Chromium for each of 47 files cost a second or more each):
 * `newContext` and `newPage` open contexts of the file's own, `contexts()` lists those, and `close()` closes them,
 * leaving Chromium to the next file. Contexts share nothing (cookies, storage, cache), so files stay apart as
 * before. Elsewhere (a bench run) it is a Chromium of its own.
 */
/**
 * How long a wait for something a person sees may take before the test fails (vitest's e2e limit is larger): every
 * context of a test's browser waits this long, so a busy machine slows a test down rather than failing it.
 */
export const WAIT_MS = 90_000;

export async function launchBrowser(): Promise<Browser> {
  if (!process.env.VITEST) return launchChromium();
  const browser = await sharedChromium();
  const own = new Set<BrowserContext>();
  const newContext: Browser['newContext'] = async (options) => {
    const context = await browser.newContext(options);
    context.setDefaultTimeout(WAIT_MS);
    own.add(context);
    context.once('close', () => own.delete(context));
    return context;
  };
  const handle: Partial<Browser> = {
    newContext,
    // As Browser.newPage: a page in a context of its own, which closes with the page.
    async newPage(options) {
      const context = await newContext(options);
      const page = await context.newPage();
      page.once('close', () => void context.close().catch(() => undefined));
      return page;
    },
    contexts: () => [...own],
    async close() {
      await Promise.all([...own].map((context) => context.close().catch(() => undefined)));
    },
  };
  return new Proxy(browser, {
    get(target, name) {
      if (Object.hasOwn(handle, name)) return handle[name as keyof Browser];
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Off in the e2e smoke run on PGlite (tests/run.ts): the whole suite's run on PostgreSQL takes the same pictures,
 * and a picture is kept to be looked at once. A picture taken because a test failed is taken in both.
 */
export const takeScreenshots = process.env.TEST_SCREENSHOTS !== 'off';

export const PHONE = { width: 390, height: 844 };

/**
 * Every page of `target` starts signed in with `token`, as after a log-in on this device; a page that logged out or
 * in as someone else since keeps what it stored.
 */
export async function keepSignedIn(target: BrowserContext | Page, token: string): Promise<void> {
  await target.addInitScript((t) => {
    if (!localStorage.getItem('token')) localStorage.setItem('token', t);
  }, token);
}
export const DESKTOP = { width: 1366, height: 768 };

/**
 * Waits until no finite CSS animation or transition on the page is running (a drawer sliding in, a dialog
 * fading), so a screenshot shows the settled page. Endless ones (a spinner) do not count.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** Waits until the page has settled: no request in flight, no skeleton or spinner left (at most 3 s for those). */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await noLoadingLeft(page);
}

async function noLoadingLeft(page: Page): Promise<void> {
  await page
    .waitForFunction(() => !document.querySelector('.rt-Skeleton, .rt-Spinner, [aria-busy=true]'), undefined, {
      timeout: 3_000,
    })
    .catch(() => undefined);
}

/**
 * Waits until the app says it has settled on the address it shows (`data-settled`, src/web/lib/settled-mark.ts:
 * no API call, query, mutation or page chunk coming, a frame after the last ended) and no other load (a chunk, a
 * picture, a font) is in flight: what a person waits for, instead of half a second of network silence per page.
 */
async function appSettled(page: Page, inFlight: ReadonlySet<unknown>): Promise<void> {
  for (;;) {
    await page.waitForFunction(() => document.documentElement.dataset.settled === location.pathname + location.search);
    if (inFlight.size === 0) return;
    // What the app does not count ends soon (the browser's own loads): then the mark is asked again.
    while (inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A tab that moves between the app's routes in the app, as its links do (the router follows `popstate`), instead of
 * loading the whole app again for each address: a walk over every route then costs the routes, not as many starts of
 * the app. After each move it waits until the app has settled on the new address (`appSettled`). `go` takes a path
 * of `origin`.
 */
export function inAppNavigator(page: Page, origin: string): { go(address: string): Promise<void> } {
  const inFlight = new Set<unknown>();
  const done = (request: unknown) => inFlight.delete(request);
  page.on('request', (request) => inFlight.add(request));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  let loaded = false;
  return {
    async go(address: string) {
      if (loaded) {
        await page.evaluate((to) => {
          history.pushState(null, '', to);
          dispatchEvent(new PopStateEvent('popstate'));
        }, address);
      } else {
        await page.goto(origin + address);
        await page.evaluate(() => document.fonts.ready.then(() => undefined));
        loaded = true;
      }
      await appSettled(page, inFlight);
      await noLoadingLeft(page);
    },
  };
}
