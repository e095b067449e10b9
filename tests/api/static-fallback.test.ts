/**
 * The web app's history fallback: page paths get index.html, while a missing asset (anything under /assets/, or a
 * last segment with a file extension) is a 404 with a Persian message, never the HTML page. A path that is no route
 * of the web app (page-routes.json, written by the build) gets the same page with status 404.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server';

const webDir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-web-'));
let server: RunningServer;

beforeAll(async () => {
  // A tiny stand-in for the built web app: the fallback only needs index.html and one real asset.
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>arzpay-test-page</title>');
  writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1);');
  writeFileSync(
    path.join(webDir, 'page-routes.json'),
    JSON.stringify(['/', '/request/myRequests', '/desks/:desk', '/management/tasks']),
  );
  server = await startServer({ web: false, env: { WEB_DIR: webDir } });
});
afterAll(async () => {
  await server?.stop();
  rmSync(webDir, { recursive: true, force: true });
});

const get = (urlPath: string, method = 'GET') => fetch(server.url + urlPath, { method });

describe('history fallback and missing assets', () => {
  it.each([
    '/assets/missing-abc123.js.map',
    '/assets/missing.js',
    '/assets/missing.css',
    '/assets/fonts/vazirmatn.woff2',
    '/assets/no-extension',
    '/favicon.ico',
    '/img/categories/missing.svg',
    '/img/logo.png',
    '/missing.css?v=2',
    '/desks/missing.js',
  ])('answers 404 for the missing asset %s', async (urlPath) => {
    const res = await get(urlPath);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await res.json()) as { result: boolean; msg: string };
    expect(body.result).toBe(false);
    expect(body.msg).toMatch(/[\u0600-\u06FF]/);
  });

  it('answers HEAD for a missing asset with 404 too', async () => {
    expect((await get('/assets/missing.js.map', 'HEAD')).status).toBe(404);
  });

  it.each([
    '/',
    '/request/myRequests',
    '/request/myRequests/',
    '/desks/ucasGeneralCpr',
    '/management/tasks?page=2&file=a.png',
  ])('serves index.html for the page path %s', async (urlPath) => {
    const res = await get(urlPath);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toContain('arzpay-test-page');
  });

  it.each(['/nowhere', '/testaki', '/desks/a/b', '/management/nothing?x=1'])(
    'serves the same page with status 404 for %s, which is no route of the web app',
    async (urlPath) => {
      const res = await get(urlPath);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toContain('arzpay-test-page');
    },
  );

  it('still serves an existing asset', async () => {
    const res = await get('/assets/app-abc123.js');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('console.log(1);');
  });

  it('keeps unknown API paths a JSON 404', async () => {
    const res = await get('/api/me/nothingHere');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { result: boolean }).result).toBe(false);
  });
});
