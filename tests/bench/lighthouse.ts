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
import { startServer } from '../support/server';

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
}

const RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5));

const round = (n: number | undefined) => Math.round(n ?? 0);

export async function benchLighthouse(paths: string[]): Promise<Record<string, PageFigures>> {
  const server = await startServer({ env: { LOG_LEVEL: 'warn' } });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  const out: Record<string, PageFigures> = {};
  try {
    for (const path of paths) {
      const audit = () =>
        lighthouse(
          server.url + path,
          { port: chrome.port, output: 'json', logLevel: 'error' },
          {
            extends: 'lighthouse:default',
            settings: { onlyCategories: ['performance', 'accessibility', 'best-practices'] },
          },
        );
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
      };
    }
  } finally {
    chrome.kill();
    await server.stop();
  }
  return out;
}

// `node --import tsx tests/bench/lighthouse.ts /path …`: the Lighthouse figures alone, on the web build in place.
if (import.meta.url === `file://${process.argv[1]}`) {
  const paths = process.argv.slice(2);
  console.log(JSON.stringify(await benchLighthouse(paths.length ? paths : ['/']), null, 2));
  process.exit(0);
}
