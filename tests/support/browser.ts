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
  await page
    .waitForFunction(() => !document.querySelector('.rt-Skeleton, .rt-Spinner, [aria-busy=true]'), undefined, {
      timeout: 3_000,
    })
    .catch(() => undefined);
}
