/**
 * `npm run bench`: figures written to tests/bench/results.json. Each figure is a ratio against a
 * baseline measured in the same run, because these machines are noisy.
 *   - first-page JS: gzip bytes the app's first page loads vs. a bare React + react-dom page built now;
 *     the same for a desk page (which also loads the form engine).
 *   - Lighthouse's mobile run (tests/bench/lighthouse.ts) on the home page, a service list, a desk page and the
 *     wallet: performance, accessibility, best practices, LCP, and the bytes the first page (/) transfers.
 *   - price inquiries per second vs. a bare Fastify JSON route, on the embedded database and on PostgreSQL (in a
 *     fresh process, tests/bench/fresh-process.ts).
 *   - keystrokes on a phone (tests/bench/typing.ts): a desk form typed key by key at 4× slower CPU, each key's
 *     interaction from the browser's Event Timing (median, p95, keys over one frame).
 *   - paid requests per second (quote + submit + pay from the wallet) with p50/p99, vs. price quotes alone.
 *   - real-time fan-out to N sockets: p50/p99 delivery, one process and two processes through Redis; a rate
 *     change with N open desk pages: how long until every page holds a quote at the new rate.
 */
import { rmSync, writeFileSync } from 'node:fs';
import prettier from 'prettier';
import path from 'node:path';
import { build } from 'vite';
import { buildBareReact, firstLoadJs } from './bundle-size';
import { inFreshProcess } from './fresh-process';
import type { benchPriceInquiry } from './http';
import { benchLighthouse } from './lighthouse';
import { benchPageJs } from './pages';
import type { benchPaidRequests } from './payments';
import { benchSockets } from './sockets';
import { benchTyping } from './typing';

const root = path.resolve(import.meta.dirname, '../..');
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
// The customer's own pages are measured signed in, as a customer with requests and notifications sees them.
const SIGNED_IN_PAGES = ['/request/myWallet', '/request/myRequests', '/notifications'];
const LIGHTHOUSE_PAGES = [
  '/',
  '/services/educational',
  '/desks/toeflGeneralCpr',
  '/request/myWallet',
  '/request/myRequests',
  '/notifications',
];

async function main(): Promise<void> {
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
  const app = firstLoadJs(path.join(root, 'dist/web'));
  const bareDir = await buildBareReact();
  const bare = firstLoadJs(bareDir);
  rmSync(bareDir, { recursive: true, force: true });
  const pages = await benchPageJs(['/', '/desks/uafCpr']);
  const ratio = (n: number) => Number((n / bare.gzipBytes).toFixed(2));
  const lighthouse = await benchLighthouse(LIGHTHOUSE_PAGES, SIGNED_IN_PAGES);

  const results = {
    measuredAt: new Date().toISOString(),
    firstPageJs: {
      appGzipBytes: app.gzipBytes,
      bareReactGzipBytes: bare.gzipBytes,
      ratio: ratio(app.gzipBytes),
      appFiles: app.files,
    },
    loadedInChromium: {
      dashboardGzipBytes: pages['/']?.gzipBytes,
      dashboardRatio: ratio(pages['/']?.gzipBytes ?? 0),
      deskPageGzipBytes: pages['/desks/uafCpr']?.gzipBytes,
      deskPageRatio: ratio(pages['/desks/uafCpr']?.gzipBytes ?? 0),
    },
    lighthouseMobile: lighthouse,
    firstPageTransferredBytes: lighthouse['/']?.transferredBytes,
    typingAt4xCpu: await benchTyping(),
    priceInquiry: await inFreshProcess<Awaited<ReturnType<typeof benchPriceInquiry>>>('price-inquiry-only.ts'),
    paidRequests: await inFreshProcess<Awaited<ReturnType<typeof benchPaidRequests>>>('paid-requests-only.ts'),
    realtime: await benchSockets(SOCKETS),
  };
  // Written as prettier writes it, so the repository's format check passes on the file as the bench left it.
  const file = path.join(import.meta.dirname, 'results.json');
  const style = await prettier.resolveConfig(file);
  writeFileSync(file, await prettier.format(JSON.stringify(results), { ...style, filepath: file }));
  console.log(JSON.stringify(results, null, 2));
}

await main();
process.exit(0);
