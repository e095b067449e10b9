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
});
