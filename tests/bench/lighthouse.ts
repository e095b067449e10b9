/**
 * Lighthouse's default mobile run (simulated slow 4G and a 4x slower CPU) on pages of the built app, against
 * Debian's Chromium (no network needed): performance, accessibility and best-practices scores, Largest Contentful
 * Paint, and the bytes each page transfers. The first page of a new visitor is `/`. Each page is audited
 * BENCH_LIGHTHOUSE_RUNS times (5), as Lighthouse advises for its variability, and the run with the median
 * performance score is reported (Lighthouse's own computeMedianRun picks by FCP and time to interactive, which
 * here chose the run with the least blocking time); a single run's blocking time varied from 186 to 1,236 ms on
 * one build of a desk page.
 */
import { writeFile } from 'node:fs/promises';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { signedInHintCookie } from '../../src/shared/signed-in-hint';
import { bearer, post, type RunningServer, startServer, verifiedCustomer } from '../support/server';

export interface PageFigures {
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  lcpMs: number;
  fcpMs: number;
  totalBlockingTimeMs: number;
  transferredBytes: number;
  /** How many runs the median was taken from, and the lowest and highest blocking time among them. */
  runs: number;
  totalBlockingTimeMsRange: [number, number];
  /** Lighthouse's benchmark index of the host during the median run: how fast this machine was then. */
  benchmarkIndex: number | null;
  /** Audited signed in as a customer with requests (the page's own data drawn), not as a guest. */
  signedIn: boolean;
}

const RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5));

const round = (n: number | undefined) => Math.round(n ?? 0);

/**
 * A customer as the signed-in pages see one: verified (so their notifications hold the approval) with three
 * requests waiting for payment, made through the API as the app makes them.
 */
export async function customerWithRequests(server: RunningServer): Promise<string> {
  const token = await verifiedCustomer(server, '09139990001', '0012345679');
  const data = async (res: Awaited<ReturnType<typeof post>>, what: string) => {
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.body.msg}`);
    return res.body.data as Record<string, unknown>;
  };
  const currencies = (await data(await post(server, '/api/public/searchCurrencies'), 'currencies')) as {
    items: Array<{ id: number; code: string }>;
  };
  const groups = (await data(await post(server, '/api/public/searchPaymentMethodGroups'), 'groups')) as {
    items: Array<{ id: number; isCash: boolean }>;
  };
  const form = {
    currency: currencies.items.find((c) => c.code === 'USD')!.id,
    requestedPaymentMethodGroup: groups.items.find((g) => !g.isCash)!.id,
  };
  for (const amount of [100, 250, 80]) {
    const desk = '/api/me/desks/toeflGeneralCpr';
    const quote = await data(await post(server, `${desk}/priceInquiry`, { ...form, amount }, bearer(token)), 'quote');
    const fields = {
      ...form,
      amount,
      quoteId: quote.quoteId,
      targetPageAddress: 'https://www.ets.org/toefl/pay',
      targetPageUsername: 'student1',
      targetPagePassword: 'secret',
    };
    await data(
      await post(server, `${desk}/requests`, fields, { ...bearer(token), 'idempotency-key': `bench-${amount}` }),
      'request',
    );
  }
  return token;
}

/**
 * Signs the browser in for a signed-in page's audit: the token in the origin's localStorage and the signed-in hint
 * cookie (set from a JSON
 * answer of the server, so no app asset is loaded), then the HTTP cache emptied, so the page is measured cold as a
 * returning customer's first visit of the day. Lighthouse then keeps storage (`disableStorageReset`).
 */
async function signIn(port: number, origin: string, token: string): Promise<void> {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/api/health`);
    // The token, and the hint cookie the app keeps beside it (src/shared/signed-in-hint.ts): a returning customer's
    // browser has both, so the server answers with the signed-in shell, not a guest's prerendered page.
    await page.evaluate(
      ({ t, cookie }) => {
        localStorage.setItem('token', t);
        document.cookie = cookie;
      },
      { t: token, cookie: signedInHintCookie(true, false) },
    );
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    await browser.disconnect();
  }
}

/** `signedIn` pages are audited as a customer with requests and notifications sees them; the rest as a guest. */
export async function benchLighthouse(
  paths: string[],
  signedIn: readonly string[] = [],
): Promise<Record<string, PageFigures>> {
  // Signing a customer in reads the SMS code from the server's log, which `warn` leaves out.
  const server = await startServer({ env: { LOG_LEVEL: signedIn.length > 0 ? 'info' : 'warn' } });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  const out: Record<string, PageFigures> = {};
  const token = signedIn.length > 0 ? await customerWithRequests(server) : null;
  try {
    for (const path of paths) {
      const asCustomer = token !== null && signedIn.includes(path);
      const audit = async () => {
        if (asCustomer) await signIn(chrome.port, server.url, token);
        return lighthouse(
          server.url + path,
          { port: chrome.port, output: 'json', logLevel: 'error', disableStorageReset: asCustomer },
          {
            extends: 'lighthouse:default',
            settings: { onlyCategories: ['performance', 'accessibility', 'best-practices'] },
          },
        );
      };
      const runs = [];
      for (let run = 0; run < RUNS; run++) {
        let result = await audit();
        // A trace Chromium failed to record (NO_NAVSTART, seen on a cold browser) says nothing about the page: again.
        for (let retry = 0; retry < 2 && result?.lhr.runtimeError; retry++) result = await audit();
        if (!result) throw new Error(`lighthouse gave no result for ${path}`);
        if (result.lhr.runtimeError) throw new Error(`lighthouse failed on ${path}: ${result.lhr.runtimeError.code}`);
        runs.push(result.lhr);
      }
      const blocking = runs.map((lhr) => round(lhr.audits['total-blocking-time']?.numericValue));
      const byScore = [...runs].sort(
        (a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0),
      );
      const median = byScore[Math.floor(byScore.length / 2)]!;
      const { categories, audits } = median;
      if (process.env.BENCH_LIGHTHOUSE_DUMP) {
        const file = `${process.env.BENCH_LIGHTHOUSE_DUMP}/${path.replaceAll('/', '_') || '_'}.json`;
        await writeFile(file, JSON.stringify(median));
      }
      if (process.env.BENCH_LIGHTHOUSE_DETAILS) {
        const items = (audits['total-byte-weight']?.details as { items?: Array<{ url: string; totalBytes: number }> })
          ?.items;
        for (const item of items ?? []) console.error(path, item.totalBytes, item.url);
      }
      out[path] = {
        performance: categories.performance?.score ?? null,
        accessibility: categories.accessibility?.score ?? null,
        bestPractices: categories['best-practices']?.score ?? null,
        lcpMs: round(audits['largest-contentful-paint']?.numericValue),
        fcpMs: round(audits['first-contentful-paint']?.numericValue),
        totalBlockingTimeMs: round(audits['total-blocking-time']?.numericValue),
        transferredBytes: round(audits['total-byte-weight']?.numericValue),
        runs: runs.length,
        totalBlockingTimeMsRange: [Math.min(...blocking), Math.max(...blocking)],
        benchmarkIndex: median.environment?.benchmarkIndex ?? null,
        signedIn: asCustomer,
      };
    }
  } finally {
    chrome.kill();
    await server.stop();
  }
  return out;
}

// `node --import tsx tests/bench/lighthouse.ts /path …`: the Lighthouse figures alone, on the web build in place;
// a path written `signed-in:/path` is audited signed in.
if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const paths = args.map((a) => a.replace(/^signed-in:/, ''));
  const signedIn = args.filter((a) => a.startsWith('signed-in:')).map((a) => a.replace(/^signed-in:/, ''));
  console.log(JSON.stringify(await benchLighthouse(paths.length ? paths : ['/'], signedIn), null, 2));
  process.exit(0);
}
