/** Debian's Chromium driven by playwright-core, with the flags this closed network needs. */
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export function launchBrowser(): Promise<Browser> {
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

/** As long as Playwright's `networkidle`: no request for this long counts as settled. */
const QUIET_MS = 500;

/**
 * A tab that moves between the app's routes in the app, as its links do (the router follows `popstate`), instead of
 * loading the whole app again for each address: a walk over every route then costs the routes, not as many starts of
 * the app. Playwright's `networkidle` has already fired after the first load and would not wait again, so the tab
 * counts the requests in flight itself and waits for the same quiet half second. `go` takes a path of `origin`.
 */
export function inAppNavigator(page: Page, origin: string): { go(address: string): Promise<void> } {
  const inFlight = new Set<unknown>();
  let lastChange = Date.now();
  const done = (request: unknown) => {
    inFlight.delete(request);
    lastChange = Date.now();
  };
  page.on('request', (request) => {
    inFlight.add(request);
    lastChange = Date.now();
  });
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  const quiet = async () => {
    for (;;) {
      const waited = Date.now() - lastChange;
      if (inFlight.size === 0 && waited >= QUIET_MS) return;
      await new Promise((resolve) => setTimeout(resolve, inFlight.size === 0 ? QUIET_MS - waited : 50));
    }
  };
  let loaded = false;
  return {
    async go(address: string) {
      // Quiet from now on: what the new route asks for starts after this (a redirect may change the address).
      lastChange = Date.now();
      if (loaded) {
        await page.evaluate((to) => {
          history.pushState(null, '', to);
          dispatchEvent(new PopStateEvent('popstate'));
        }, address);
      } else {
        await page.goto(origin + address);
        loaded = true;
      }
      await quiet();
      await noLoadingLeft(page);
    },
  };
}
