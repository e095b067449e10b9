/**
 * The web under a strict Content-Security-Policy (issue 12; decisions 013 and 015): script-src has neither
 * 'unsafe-inline' nor 'unsafe-eval', so the forms must validate with precompiled code. Chromium opens the home page,
 * a desk page (invalid input, its Persian messages), the profile and a staff entry form, and any CSP violation
 * (`securitypolicyviolation`) or console error fails the test. The build itself is read too: no JavaScript file it
 * serves carries Ajv's compiler or builds code from strings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_REPORT, type ChunkReport } from '../../build/chunk-report';
import { DESKTOP, launchBrowser, PHONE } from '../support/browser';
import { loginAdmin, loginByCode, type RunningServer, startServer, verifiedCustomer, webDir } from '../support/server';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A context signed in with `token` (or a guest's) whose pages record CSP violations and console errors. */
async function watchedContext(token: string | null, viewport = PHONE) {
  const context = await browser.newContext({ viewport });
  // Not in a new page's first about:blank, which has no storage (and would report that as a page error).
  if (token)
    await context.addInitScript((t) => location.protocol.startsWith('http') && localStorage.setItem('token', t), token);
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const seen = ((window as unknown as { cspViolations?: string[] }).cspViolations ??= []);
      seen.push(`${e.effectiveDirective} ${e.blockedURI}`);
    });
  });
  const problems: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  };
  context.on('page', watch);
  /** Every violation and console error seen so far, the open pages' recorded violations included. */
  const seen = async (context: BrowserContext) => {
    const violations = await Promise.all(
      context.pages().map((p) => p.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations)),
    );
    return [
      ...problems,
      ...violations
        .flat()
        .filter(Boolean)
        .map((v) => `violation: ${v}`),
    ];
  };
  return { context, seen: () => seen(context) };
}

const fieldError = (page: Page, field: string) => page.locator(`[data-field=${field}] [role=alert]`);

describe('a strict Content-Security-Policy', () => {
  it('is what every page is served with', async () => {
    const res = await fetch(`${server.url}/desks/uafCpr`);
    const policy = res.headers.get('content-security-policy') ?? '';
    const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src '));
    expect(scriptSrc?.trim()).toBe("script-src 'self'");
  });

  it('lets the home page, a desk form, the profile and a staff entry form run and validate, with no violation', async () => {
    // The home page, as a guest.
    const guest = await watchedContext(null);
    const home = await guest.context.newPage();
    await home.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    expect(await guest.seen()).toEqual([]);
    await guest.context.close();

    // A desk page: wrong values get the form's Persian messages, from the precompiled validators.
    const customer = await watchedContext(await verifiedCustomer(server, '09131112233', '0499370899'));
    const desk = await customer.context.newPage();
    await desk.goto(`${server.url}/desks/uafCpr`);
    await desk.getByTestId('desk-page').waitFor();
    await desk.locator('#root_amount').pressSequentially('abc');
    await fieldError(desk, 'amount').getByText('مبلغ، معتبر نیست.').waitFor();
    await desk.getByTestId('submit-missing').getByText('ارز را انتخاب نمایید.').waitFor();
    // A submit is refused while the form has problems.
    expect(await desk.getByTestId('submit-request').isDisabled()).toBe(true);
    await desk.locator('#root_amount').press('Enter');
    await desk.getByTestId('submit-missing').getByText('ارز را انتخاب نمایید.').waitFor();
    expect(await customer.seen()).toEqual([]);
    await customer.context.close();

    // The profile of a customer not yet verified: the national code's shared rule, in Persian.
    const newcomer = await watchedContext(await loginByCode(server, '09131112244'));
    const profile = await newcomer.context.newPage();
    await profile.goto(`${server.url}/request/myProfile`);
    await profile.getByTestId('i-understand').click();
    await profile.locator('#profile_nationalCode').pressSequentially('1111111111');
    await profile.locator('[role=alert]', { hasText: 'کد ملی صحیح نیست.' }).waitFor();
    await profile.locator('#profile_firstName').pressSequentially('Maryam');
    await profile.locator('#profile_firstName').press('Tab');
    await profile
      .locator('[role=alert]')
      .filter({ hasText: /[\u0600-\u06FF]/ })
      .nth(1)
      .waitFor();
    expect(await profile.getByTestId('save-profile').isDisabled()).toBe(true);
    expect(await newcomer.seen()).toEqual([]);
    await newcomer.context.close();

    // A staff entry form: a currency's rate left empty says so in Persian, and nothing is saved.
    const staff = await watchedContext(await loginAdmin(server), DESKTOP);
    const currencies = await staff.context.newPage();
    await currencies.goto(`${server.url}/management/currencies`);
    await currencies.getByTestId('edit-GBP').click();
    const rate = currencies.locator('#currency_rate');
    await rate.click();
    await rate.press('ControlOrMeta+a');
    await rate.press('Backspace');
    await rate.press('Tab');
    await currencies.getByTestId('save-currency').click();
    await currencies
      .locator('[role=alert]')
      .filter({ hasText: /[\u0600-\u06FF]/ })
      .first()
      .waitFor();
    expect(await currencies.getByText('ارز ذخیره شد.').count()).toBe(0);
    expect(await staff.seen()).toEqual([]);
    await staff.context.close();
  });
});

describe('the built scripts', () => {
  const report = () => JSON.parse(readFileSync(path.join(webDir, CHUNK_REPORT), 'utf8')) as ChunkReport;
  // Ajv's runtime helpers (dist/runtime) are what precompiled code calls; everything else of Ajv is its compiler.
  const COMPILER = [
    /^npm:ajv\/(?!dist\/runtime\/)/,
    /^npm:@rjsf\/validator-ajv8\/lib\/(?:validator|customizeValidator|createAjvInstance|compileSchemaValidators)/,
    /^src\/shared\/validation\/(?:ajv|standalone)\.ts$/,
  ];

  it('carry no part of Ajv’s compiler', () => {
    const found = Object.entries(report()).flatMap(([file, { modules }]) =>
      Object.keys(modules)
        .filter((m) => COMPILER.some((c) => c.test(m)))
        .map((m) => `${file}: ${m}`),
    );
    expect(found).toEqual([]);
    // The desk forms do validate: the precompiled validator's runtime is in the build.
    const all = Object.values(report()).flatMap(({ modules }) => Object.keys(modules));
    expect(all).toContain('npm:@rjsf/validator-ajv8/lib/precompiledValidator.js');
  });

  it('build no code from strings, the form validators written by the build included', () => {
    const scripts = ['assets', 'form-validators'].flatMap((dir) =>
      readdirSync(path.join(webDir, dir))
        .filter((f) => f.endsWith('.js'))
        .map((f) => path.join(dir, f)),
    );
    expect(scripts.filter((f) => f.startsWith('form-validators')).length).toBeGreaterThan(0);
    const offenders = scripts.filter((f) => /new Function\b|\beval\(/.test(readFileSync(path.join(webDir, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
