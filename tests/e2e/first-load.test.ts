/**
 * What each public page loads (issue 10), told by structure rather than timing: the chunk files Chromium fetched,
 * looked up in the build's chunk report (build/chunk-report.ts: the source modules in each chunk). The home page
 * must not load the form engine (rjsf), Ajv, xlsx or the management area.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_REPORT, type ChunkReport } from '../../build/chunk-report';
import { animationsDone, keepSignedIn, launchBrowser, PHONE } from '../support/browser';
import { loginByCode, type RunningServer, startServer, webDir } from '../support/server';
import { watchErrors, WAIT_MS } from '../support/e2e';
import { signedInHintCookie } from '../../src/shared/signed-in-hint';

let server: RunningServer;
let browser: Browser;
let report: ChunkReport;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  report = JSON.parse(readFileSync(path.join(webDir, CHUNK_REPORT), 'utf8')) as ChunkReport;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The source modules of every script the page at urlPath loaded, until the network was quiet. */
/**
 * The modules of every script `urlPath` fetched. `shown`: a selector of what the page draws once its lazy parts
 * ran; on a busy machine the network can sit idle for half a second while a large chunk is still being parsed,
 * before the chunks it asks for next, so "network idle" alone is not "loaded".
 */
async function modulesLoaded(urlPath: string, shown?: string, awaited?: string): Promise<string[]> {
  const page = await browser.newPage({ viewport: PHONE });
  const scripts: string[] = [];
  page.on('response', (res) => {
    const { pathname } = new URL(res.url());
    if (pathname.endsWith('.js')) scripts.push(pathname.slice(1));
  });
  // A prerendered page starts its app after painting: on a busy machine the network can be quiet before then, so
  // the chunk holding the page's own module (`awaited`) is waited for as it arrives.
  const arrived = awaited
    ? page.waitForResponse((res) =>
        Object.keys(report[new URL(res.url()).pathname.slice(1)]?.modules ?? {}).some((m) => m.startsWith(awaited)),
      )
    : null;
  await page.goto(server.url + urlPath, { waitUntil: 'networkidle' });
  await arrived;
  if (shown) await page.locator(shown).first().waitFor();
  await page.close();
  expect(scripts.length).toBeGreaterThan(0);
  // A desk's precompiled validators are the build's own output, not a bundle chunk (build/form-validators.ts).
  return scripts.flatMap((file) => {
    if (file.startsWith('form-validators/')) return [];
    const chunk = report[file];
    if (!chunk) throw new Error(`${file} is not in the build's chunk report`);
    return Object.keys(chunk.modules);
  });
}

const FORM_ENGINE = /^npm:@rjsf\//;
const AJV = /^npm:ajv\//;
const XLSX = /^npm:xlsx\//;
/** Ajv itself, not the two runtime helpers a precompiled validator calls. */
const AJV_COMPILER = /^npm:ajv\/(?!dist\/runtime\/)/;
const MANAGEMENT = /^src\/web\/features\/management\//;
/** uPlot and the rate chart's panel load only when a customer opens a chart (issue 35). */
const RATE_CHART = /^npm:uplot\/|^src\/web\/features\/dashboard\/Rate/;

/** The browser of a customer who signed in on an earlier visit: their token stored, and the hint cookie beside it. */
async function signInReturning(page: Page, token: string): Promise<void> {
  await keepSignedIn(page, token);
  const [name, value] = signedInHintCookie(true, false).split(';')[0]!.split('=');
  await page.context().addCookies([{ name: name!, value: value!, url: server.url }]);
}

describe('first load', () => {
  it('/ loads neither the form engine, Ajv, xlsx nor the management area', async () => {
    const modules = await modulesLoaded('/', undefined, 'src/web/features/dashboard/');
    expect(modules.some((m) => m.startsWith('src/web/features/dashboard/'))).toBe(true);
    for (const unwanted of [FORM_ENGINE, AJV, XLSX, MANAGEMENT, RATE_CHART]) {
      expect(modules.filter((m) => unwanted.test(m))).toEqual([]);
    }
    // Icons come one module each (build/radix-icons-per-file.ts): the shell's, not the form engine's or a table's.
    expect(modules).toContain('virtual:radix-icon/HamburgerMenuIcon');
    expect(modules.filter((m) => m.startsWith('npm:@radix-ui/react-icons/'))).toEqual([]);
    expect(modules).not.toContain('virtual:radix-icon/TrashIcon');
    expect(modules).not.toContain('virtual:radix-icon/MagnifyingGlassIcon');
  });

  it('/ draws its text in Vazirmatn from the two cut font files, preloaded', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    const fonts: Array<{ file: string; bytes: number }> = [];
    page.on('response', async (res) => {
      const { pathname } = new URL(res.url());
      if (pathname.endsWith('.woff2')) fonts.push({ file: pathname, bytes: (await res.body()).length });
    });
    await page.goto(server.url + '/', { waitUntil: 'networkidle' });
    const drawn = await page.evaluate(async () => {
      await document.fonts.ready;
      const heading = document.querySelector('h1, h2')!;
      return {
        family: getComputedStyle(heading).fontFamily,
        persian: document.fonts.check(`700 16px "Vazirmatn Variable"`, 'پرداخت‌های ارزی'),
        loaded: [...document.fonts].filter((f) => f.family === 'Vazirmatn Variable' && f.status === 'loaded').length,
        preloaded: [...document.querySelectorAll('link[rel="preload"][as="font"]')].map((l) => l.getAttribute('href')),
      };
    });
    await page.close();
    expect(drawn.family).toContain('Vazirmatn Variable');
    expect(drawn.persian).toBe(true);
    expect(drawn.loaded).toBe(2);
    expect(fonts.map((f) => f.file).sort()).toEqual([...drawn.preloaded].sort());
    expect(fonts.map((f) => f.file).every((file) => /\/vazirmatn-(arabic|latin)-[\w-]+\.woff2$/.test(file))).toBe(true);
    // Cut to Persian and Latin-1 in weights 400–700 (codegen/fonts.ts): 50 kB where the whole files were 82 kB.
    expect(fonts.reduce((sum, f) => sum + f.bytes, 0)).toBeLessThan(55_000);
  });

  it('a service list loads no form engine, Ajv, xlsx or management area either', async () => {
    const modules = await modulesLoaded('/services/educational');
    for (const unwanted of [FORM_ENGINE, AJV, XLSX, MANAGEMENT]) {
      expect(modules.filter((m) => unwanted.test(m))).toEqual([]);
    }
  });

  it('a desk page loads the form engine, without the markdown renderer no description of ours asks for', async () => {
    const modules = await modulesLoaded('/desks/uafCpr', '#root_currency');
    expect(modules.some((m) => FORM_ENGINE.test(m))).toBe(true);
    expect(modules).toContain('src/web/components/form-engine/LazyMarkdown.tsx');
    expect(modules.filter((m) => m.startsWith('npm:markdown-to-jsx/'))).toEqual([]);
    for (const unwanted of [AJV_COMPILER, XLSX, MANAGEMENT]) {
      expect(modules.filter((m) => unwanted.test(m))).toEqual([]);
    }
  });

  it.each([
    ['/services/educational', false],
    ['/request/myWallet', false],
    ['/request/myRequests', true],
  ])(
    "paints a prerendered page (%s, signed in: %s) before it asks for the app's scripts",
    async (urlPath, signedIn) => {
      const start = Object.keys(report).find((file) => 'src/web/start.tsx' in report[file]!.modules);
      expect(start).toBeDefined();
      const page = await browser.newPage({ viewport: PHONE });
      // A returning customer gets their page's signed-in frame, painted first as well.
      if (signedIn) await signInReturning(page, await loginByCode(server, '09127770009'));
      await page.goto(server.url + urlPath, { waitUntil: 'networkidle' });
      const { paint, scriptFetch } = await page.evaluate((file) => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0];
        const script = performance.getEntriesByType('resource').find((e) => e.name.endsWith(`/${file}`));
        return { paint: fcp?.startTime ?? null, scriptFetch: script?.startTime ?? null };
      }, start!);
      expect(paint).not.toBeNull();
      expect(scriptFetch).not.toBeNull();
      expect(scriptFetch!).toBeGreaterThanOrEqual(paint!);
      if (signedIn) expect(await page.evaluate(() => document.body.innerText)).toContain('درخواست‌های من');
      await page.close();
    },
  );

  it("sends someone signed in their page's frame or the empty shell, never a guest's page, and the guest's page again after log-out", async () => {
    const mobileNo = '09127770001';
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const guestPrompt = 'کاربری در سیستم وارد نشده است.';
    const documentOf = async (urlPath: string) => await (await page.goto(server.url + urlPath))!.text();

    // A guest's wallet page comes drawn, with the log-in.
    expect(await documentOf('/request/myWallet')).toContain(guestPrompt);
    await page.getByRole('button', { name: 'ورود' }).last().click();
    await page.locator('#login-mobile').pressSequentially(mobileNo);
    await page.getByTestId('send-code').click();
    await expect.poll(() => server.lastSmsCode(mobileNo), { timeout: WAIT_MS }).not.toBeNull();
    await page.locator('#login-code').pressSequentially(server.lastSmsCode(mobileNo)!);
    await page.getByTestId('login-by-code').click();
    await page.getByTestId('wallet-balance').waitFor();

    // Signed in: the server sends the empty shell, and the customer's own page is drawn in it; a page of theirs
    // comes as its signed-in frame (its heading, their page on its way), which the app draws over.
    for (const urlPath of ['/desks/toeflGeneralCpr', '/']) {
      const html = await documentOf(urlPath);
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toContain(guestPrompt);
    }
    const frame = await documentOf('/request/myWallet');
    expect(frame).toContain('<div id="root" data-signed-in-frame="">');
    expect(frame).toMatch(/<h1[^>]*>موجودی مالی من<\/h1>/);
    expect(frame).not.toContain(guestPrompt);
    const errors = watchErrors(page);
    await page.goto(server.url + '/request/myWallet');
    await page.getByTestId('wallet-balance').waitFor();
    expect(await page.getByText(guestPrompt).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'موجودی مالی من', level: 1 }).count()).toBe(1);
    expect(await page.getByTestId('signed-in-loading').count()).toBe(0);
    // The notifications' frame says what the page holds under its heading, and the page keeps that line where the
    // frame drew it (it is the page's largest text at first paint; the list and its buttons arrive under it). The
    // app's start script is held until the frame's line is measured: the app draws over the frame, and a line
    // measured while it did so is either the app's or gone.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const startChunk = /\/assets\/start-[\w-]+\.js$/;
    await page.route(startChunk, async (route) => {
      await held;
      await route.continue();
    });
    const notifications = await documentOf('/notifications');
    const line = /<p[^>]*data-testid="page-description"[^>]*>([^<]+)<\/p>/.exec(notifications)?.[1];
    expect(line).toContain('با پیامک');
    const frameBox = await page.getByTestId('page-description').boundingBox();
    expect(frameBox).not.toBeNull();
    release();
    await page.getByTestId('notifications-empty').waitFor();
    await page.unroute(startChunk);
    expect(await page.getByTestId('page-description').textContent()).toBe(line);
    expect(await page.getByTestId('page-description').boundingBox()).toEqual(frameBox);
    expect(errors).toEqual([]);

    // Logged out: a guest's pages again.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'خروج' }).click();
    await page.waitForURL(server.url + '/');
    expect(await documentOf('/request/myWallet')).toContain(guestPrompt);
    await page.getByText(guestPrompt).waitFor();
    await context.close();
  });

  it("sets the hint for a browser signed in before it existed, which gets its page's frame from then on", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    await keepSignedIn(context, await loginByCode(server, '09127770002'));
    const page = await context.newPage();
    // This first answer is the guest's page; the boot clears it and draws the customer's own.
    expect(await (await page.goto(server.url + '/request/myWallet'))!.text()).toContain('<div id="root"><');
    await page.getByTestId('wallet-balance').waitFor();
    expect((await context.cookies()).some((c) => c.name === 'arzpay_signed_in' && c.value === '1')).toBe(true);
    expect(await (await page.goto(server.url + '/request/myWallet'))!.text()).toContain(
      '<div id="root" data-signed-in-frame="">',
    );
    await page.getByTestId('wallet-balance').waitFor();
    await context.close();
  });

  it('answers a tap on the menu made before the scripts had run, once they have, and only once', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const startAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.route(/\/assets\/start-[\w-]+\.js$/, async (route) => {
      asked();
      await held;
      await route.continue();
    });
    await page.goto(server.url + '/', { waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'باز کردن منو' }).click();
    // Nothing can answer yet: the app's start script was asked for and is held back.
    await startAsked;
    expect(await page.getByTestId('drawer').count()).toBe(0);
    release();
    await page.getByTestId('drawer').waitFor();
    // Replayed once: a second click would have closed it again while it slid in; it has settled, open.
    await animationsDone(page);
    expect(await page.getByTestId('drawer').isVisible()).toBe(true);
    await page.close();
  });

  it("answers a tap on a page's own button made while the page's chunk was still loading, once it has", async () => {
    const page = await browser.newPage({ viewport: PHONE });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const chunkAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.route(/\/assets\/MyWalletPage-[\w-]+\.js$/, async (route) => {
      asked();
      await held;
      await route.continue();
    });
    const appStarted = page.waitForResponse(/\/assets\/start-[\w-]+\.js$/);
    await page.goto(server.url + '/request/myWallet', { waitUntil: 'domcontentloaded' });
    await appStarted;
    // The app runs, but the page's part of it cannot hydrate yet: React alone would drop this tap.
    await page.getByRole('button', { name: 'ورود' }).click();
    // Nothing can answer yet: the page's chunk was asked for and is held back.
    await chunkAsked;
    expect(await page.locator('#login-mobile').count()).toBe(0);
    release();
    await page.locator('#login-mobile').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(1);
    await page.close();
  });
});
