/**
 * What each public page loads (issue 10), told by structure rather than timing: the chunk files Chromium fetched,
 * looked up in the build's chunk report (build/chunk-report.ts: the source modules in each chunk). The home page
 * must not load the form engine (rjsf), Ajv, xlsx or the management area.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_REPORT, type ChunkReport } from '../../build/chunk-report';
import { launchBrowser, PHONE } from '../support/browser';
import { type RunningServer, startServer, webDir } from '../support/server';

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
async function modulesLoaded(urlPath: string): Promise<string[]> {
  const page = await browser.newPage({ viewport: PHONE });
  const scripts: string[] = [];
  page.on('response', (res) => {
    const { pathname } = new URL(res.url());
    if (pathname.endsWith('.js')) scripts.push(pathname.slice(1));
  });
  await page.goto(server.url + urlPath, { waitUntil: 'networkidle' });
  await page.close();
  expect(scripts.length).toBeGreaterThan(0);
  return scripts.flatMap((file) => {
    const chunk = report[file];
    if (!chunk) throw new Error(`${file} is not in the build's chunk report`);
    return Object.keys(chunk.modules);
  });
}

const FORM_ENGINE = /^npm:@rjsf\//;
const AJV = /^npm:ajv\//;
const XLSX = /^npm:xlsx\//;
const MANAGEMENT = /^src\/web\/features\/management\//;

describe('first load', () => {
  it('/ loads neither the form engine, Ajv, xlsx nor the management area', async () => {
    const modules = await modulesLoaded('/');
    expect(modules.some((m) => m.startsWith('src/web/features/dashboard/'))).toBe(true);
    for (const unwanted of [FORM_ENGINE, AJV, XLSX, MANAGEMENT]) {
      expect(modules.filter((m) => unwanted.test(m))).toEqual([]);
    }
  });

  it('a service list loads no form engine, Ajv, xlsx or management area either', async () => {
    const modules = await modulesLoaded('/services/educational');
    for (const unwanted of [FORM_ENGINE, AJV, XLSX, MANAGEMENT]) {
      expect(modules.filter((m) => unwanted.test(m))).toEqual([]);
    }
  });

  it("paints a prerendered page before it asks for the app's scripts", async () => {
    const start = Object.keys(report).find((file) => 'src/web/start.tsx' in report[file]!.modules);
    expect(start).toBeDefined();
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(server.url + '/services/educational', { waitUntil: 'networkidle' });
    const { paint, scriptFetch } = await page.evaluate((file) => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      const script = performance.getEntriesByType('resource').find((e) => e.name.endsWith(`/${file}`));
      return { paint: fcp?.startTime ?? null, scriptFetch: script?.startTime ?? null };
    }, start!);
    await page.close();
    expect(paint).not.toBeNull();
    expect(scriptFetch).not.toBeNull();
    expect(scriptFetch!).toBeGreaterThanOrEqual(paint!);
  });

  it('answers a tap on the menu made before the scripts had run, once they have, and only once', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/start-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(server.url + '/', { waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'باز کردن منو' }).click();
    // Nothing can answer yet: the drawer's scripts are held back.
    await page.waitForTimeout(300);
    expect(await page.getByTestId('drawer').count()).toBe(0);
    release();
    await page.getByTestId('drawer').waitFor();
    // Replayed once: a second click would have closed it again.
    await page.waitForTimeout(500);
    expect(await page.getByTestId('drawer').isVisible()).toBe(true);
    await page.close();
  });
});
