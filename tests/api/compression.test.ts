/**
 * Compression and caching of the built web app (issue 10): every text file the build wrote is served brotli-
 * compressed to a client that accepts brotli, gzip-compressed to one that accepts only gzip (both made at build
 * time, build/compress.ts), with Vary: Accept-Encoding; hashed assets are immutable for a year, HTML is revalidated,
 * the history fallback's HTML included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTextAsset } from '../../build/compress';
import { type RunningServer, startServer, webDir } from '../support/server';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET that leaves the body as sent (fetch would decompress it and hide the encoding). */
function rawGet(urlPath: string, acceptEncoding: string, cookie?: string): Promise<Raw> {
  const headers = { 'accept-encoding': acceptEncoding, ...(cookie ? { cookie } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.get(`${server.url}${urlPath}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** The text files a client can ask for: everything the build wrote, less the compressed copies and build reports. */
function servedTextFiles(): string[] {
  return readdirSync(webDir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && isTextAsset(e.name))
    .map((e) => path.relative(webDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((file) => !file.split('/').some((part) => part.startsWith('.')));
}

describe('compressed and cached static files', () => {
  it('serves every text file of the build brotli-compressed to a client that accepts brotli', async () => {
    const files = servedTextFiles();
    expect(files.filter((f) => f.startsWith('assets/') && f.endsWith('.js')).length).toBeGreaterThan(10);
    expect(files.some((f) => f.endsWith('.css'))).toBe(true);
    for (const file of files) {
      const res = await rawGet(`/${file}`, 'gzip, deflate, br');
      expect(res.status, file).toBe(200);
      expect(res.headers['content-encoding'], file).toBe('br');
      expect(res.headers.vary, file).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(res.body).equals(readFileSync(path.join(webDir, file))), file).toBe(true);
    }
  });

  it('serves gzip to a client that accepts only gzip, and the file as it is to one that accepts nothing', async () => {
    const [script] = servedTextFiles().filter((f) => f.startsWith('assets/') && f.endsWith('.js'));
    const gzip = await rawGet(`/${script}`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(readFileSync(path.join(webDir, script!)))).toBe(true);
    const plain = await rawGet(`/${script}`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(readFileSync(path.join(webDir, script!)))).toBe(true);
  });

  it('makes hashed assets immutable for a year', async () => {
    const assets = servedTextFiles().filter((f) => f.startsWith('assets/'));
    for (const file of assets.slice(0, 5)) {
      const res = await rawGet(`/${file}`, 'br');
      expect(res.headers['cache-control'], file).toBe('public, max-age=31536000, immutable');
    }
  });

  it.each(['/', '/request/myWallet', '/services/educational', '/desks/toeflGeneralCpr', '/management/tasks'])(
    'sends the HTML page at %s compressed and revalidated on each use',
    async (urlPath) => {
      const res = await rawGet(urlPath, 'gzip, deflate, br');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(res.body).toString('utf8')).toContain('<div id="root">');
    },
  );
});

describe('prerendered public pages', () => {
  it.each([
    ['/', 'پرداخت ارزی، با ریال'],
    ['/services/educational', 'پرداخت هزینه‌های دانشگاه'],
    ['/desks/toeflGeneralCpr', 'آزمون تافل'],
  ])('%s arrives drawn, with no inline script', async (urlPath, text) => {
    const html = brotliDecompressSync((await rawGet(urlPath, 'br')).body).toString('utf8');
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toContain(text);
    // The CSP runs no inline script: only the module scripts by address, and the catalogue as JSON data.
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
    expect(inline.every((attrs) => /type="application\/json"/.test(attrs ?? ''))).toBe(true);
  });

  it("a customer's own page arrives as a guest sees it: what it is, and the log-in", async () => {
    const html = brotliDecompressSync((await rawGet('/request/myWallet', 'br')).body).toString('utf8');
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toContain('موجودی مالی من');
    expect(root).toContain('کاربری در سیستم وارد نشده است.');
  });

  it('a page with no prerendered file gets the empty shell', async () => {
    const html = brotliDecompressSync((await rawGet('/request/receipts/7', 'br')).body).toString('utf8');
    expect(html).toContain('<div id="root"></div>');
  });

  it("a customer's own page, to a browser with the signed-in hint, arrives as its signed-in frame: its heading on the way, never a log-in", async () => {
    for (const [urlPath, heading] of [
      ['/request/myRequests', 'درخواست‌های من'],
      ['/request/myWallet', 'موجودی مالی من'],
      ['/notifications', 'اعلان‌ها'],
    ] as const) {
      const res = await rawGet(urlPath, 'br', 'arzpay_signed_in=1');
      expect(res.status).toBe(200);
      expect(String(res.headers.vary)).toMatch(/cookie/i);
      const html = brotliDecompressSync(res.body).toString('utf8');
      const root = html.slice(html.indexOf('<div id="root" data-signed-in-frame="">'));
      expect(root).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      expect(root).toContain('data-testid="signed-in-loading"');
      expect(root).not.toContain('کاربری در سیستم وارد نشده است.');
      // No data beside it: the app draws the page anew over the frame rather than hydrating it.
      expect(html).not.toContain('id="prerender-data"');
    }
    // A guest gets what it got before: the notifications have no guest page, so the empty shell.
    const guest = brotliDecompressSync((await rawGet('/notifications', 'br')).body).toString('utf8');
    expect(guest).toContain('<div id="root"></div>');
  });

  it.each(['/', '/desks/toeflGeneralCpr', '/request/termsAndConditions'])(
    '%s: a browser with the signed-in hint gets the empty shell, and caches are told the page varies by cookie',
    async (urlPath) => {
      const guest = await rawGet(urlPath, 'br');
      expect(String(guest.headers.vary)).toMatch(/cookie/i);
      expect(String(guest.headers.vary)).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(guest.body).toString('utf8')).not.toContain('<div id="root"></div>');
      // Among other cookies, in any order.
      for (const cookie of ['arzpay_signed_in=1', 'theme=dark; arzpay_signed_in=1', 'arzpay_signed_in=1;x=2']) {
        const signedIn = await rawGet(urlPath, 'br', cookie);
        expect(signedIn.status).toBe(200);
        expect(String(signedIn.headers.vary)).toMatch(/cookie/i);
        expect(signedIn.headers['cache-control']).toBe('no-cache');
        expect(brotliDecompressSync(signedIn.body).toString('utf8')).toContain('<div id="root"></div>');
      }
      // Anything else is no hint.
      for (const cookie of ['arzpay_signed_in=0', 'arzpay_signed_in=', 'xarzpay_signed_in=1', 'arzpay_signed_in=11']) {
        const other = await rawGet(urlPath, 'br', cookie);
        expect(brotliDecompressSync(other.body).toString('utf8')).not.toContain('<div id="root"></div>');
      }
    },
  );
});

/** A POST of a JSON body that leaves the answer as sent. */
function rawPost(urlPath: string, body: unknown, acceptEncoding: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.url}${urlPath}`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('compressed API answers', () => {
  it('sends a large answer (the catalogue) in brotli, or gzip, and the same JSON either way', async () => {
    const plain = await rawPost('/api/public/fetchCatalogue', {}, 'identity');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(10_000);
    const br = await rawPost('/api/public/fetchCatalogue', {}, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
    const gzip = await rawPost('/api/public/fetchCatalogue', {}, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
  });

  it('sends a small answer, and a Persian error, as they are', async () => {
    const small = await rawPost('/api/public/searchCurrencies', { page: 1, perPage: 1 }, 'br');
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    const refused = await rawPost('/api/public/searchCurrencies', { page: 1e20 }, 'br');
    expect(refused.status).toBe(400);
    const answer = JSON.parse(
      (refused.headers['content-encoding'] === 'br' ? brotliDecompressSync(refused.body) : refused.body).toString(
        'utf8',
      ),
    ) as { msg: string };
    expect(answer.msg).toMatch(/[\u0600-\u06FF]/);
  });
});
