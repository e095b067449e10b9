/**
 * Security headers (issue 12; docs/decisions/013-security-headers.md) on an API answer, a built asset, the web
 * app's HTML page (also at a page path the web's router resolves), a 404, and the sandbox bank's page, which keeps
 * its own stricter policy. Strict-Transport-Security only over TLS: here through a trusted proxy's
 * X-Forwarded-Proto.
 */
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalogue } from '../../src/server/modules/desks/catalogue';
import { effectiveForm } from '../../src/shared/catalogue';
import { formValidatorKey } from '../../src/shared/validation/validator-key';
import { createPaymentGateway } from '../../src/server/modules/payments/choose-gateway';
import { bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: '127.0.0.1' } });
});

afterAll(async () => {
  await server?.stop();
});

function directives(policy: string | null): Map<string, string[]> {
  return new Map(
    (policy ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

function expectEveryResponseHeaders(res: Response): void {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-powered-by')).toBeNull();
  expect(res.headers.get('server')).toBeNull();
  // Plain HTTP, no proxy saying otherwise.
  expect(res.headers.get('strict-transport-security')).toBeNull();
}

/** An API answer: a policy allowing nothing, no framing, not stored (OWASP's REST Security Cheat Sheet). */
function expectApiAnswerPolicy(res: Response): void {
  const csp = directives(res.headers.get('content-security-policy'));
  expect([...csp.keys()].sort()).toEqual(['default-src', 'frame-ancestors']);
  expect(csp.get('default-src')).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(res.headers.get('cache-control')).toBe('no-store');
  // A page's policies: an answer is never a page (~500 bytes less on each).
  for (const name of [
    'cross-origin-opener-policy',
    'origin-agent-cluster',
    'x-dns-prefetch-control',
    'x-xss-protection',
  ])
    expect(res.headers.get(name), name).toBeNull();
}

function expectWebPolicy(res: Response): void {
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp.get('default-src')).toEqual(["'self'"]);
  // Only this origin's files: the forms validate with precompiled code (decision 015), so neither 'unsafe-eval'
  // nor 'unsafe-inline'.
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('script-src-attr')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('connect-src')).toEqual(["'self'"]);
  expect(csp.has('upgrade-insecure-requests')).toBe(false);
}

describe('security headers', () => {
  it('on an API answer', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expectEveryResponseHeaders(res);
    expectApiAnswerPolicy(res);
  });

  it('on an API error', async () => {
    for (const [path, status] of [
      ['/api/me/fetchUserData', 401],
      ['/api/no-such-operation', 404],
    ] as const) {
      const res = await fetch(server.url + path, { method: 'POST' });
      expect(res.status).toBe(status);
      expectEveryResponseHeaders(res);
      expectApiAnswerPolicy(res);
    }
  });

  it("keeps a route's own cache-control on an API answer (the captcha image)", async () => {
    const captcha = await post(server, '/api/public/createCaptcha');
    const res = await fetch(server.url + (captcha.body.data as { url: string }).url);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expectEveryResponseHeaders(res);
  });

  it('on the HTML page, at / and at a page path', async () => {
    for (const page of ['/', '/request/myRequests']) {
      const res = await fetch(server.url + page);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expectEveryResponseHeaders(res);
      expectWebPolicy(res);
    }
  });

  it("on a built script, stylesheet or font: a subresource's, without a document's policies", async () => {
    const webDir = server.app.config.webDir;
    const files = readdirSync(path.join(webDir, 'assets'));
    for (const ext of ['.js', '.css', '.woff2']) {
      const asset = files.find((f) => f.endsWith(ext));
      for (const encoding of ['br', 'identity']) {
        const res = await fetch(`${server.url}/assets/${asset}`, { headers: { 'accept-encoding': encoding } });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
        expect(res.headers.get('referrer-policy')).toBe('no-referrer');
        expect(res.headers.get('x-powered-by')).toBeNull();
        // Never a document (a script or stylesheet opened directly is shown as text): ~500 bytes less per file.
        expect(res.headers.get('content-security-policy')).toBeNull();
        expect(res.headers.get('x-frame-options')).toBeNull();
      }
    }
  });

  it('on an image, which a browser may open as a document', async () => {
    const res = await fetch(`${server.url}/favicon.svg`);
    expect(res.status).toBe(200);
    expectEveryResponseHeaders(res);
    expectWebPolicy(res);
  });

  it("on a form's precompiled validators: the build's, and the server's for a draft its check passed", async () => {
    const catalogue = Catalogue.load(path.resolve(import.meta.dirname, '../../schemas'));
    const built = formValidatorKey(catalogue.snapshot.deskForm('uafCpr')!.schema);
    const res = await fetch(`${server.url}/form-validators/${built}.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^(?:text|application)\/javascript/);
    expect(await res.text()).toContain('export default function (require)');
    expectEveryResponseHeaders(res);

    // A draft of a desk with another caption has no module until the editor's check has passed it.
    const desk = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../schemas/catalogue/desks/uafCpr.json'), 'utf8'),
    );
    const draft = { ...desk, comps: { amount: { caption: 'مبلغ به ارز' } } };
    const form = catalogue.forms.find((f) => f.formType === draft.formType)!;
    const key = formValidatorKey(effectiveForm(draft, form).schema);
    expect(key).not.toBe(built);
    const before = await fetch(`${server.url}/form-validators/${key}.js`);
    expect(before.status).toBe(404);
    expect(((await before.json()) as { msg: string }).msg).toMatch(/[\u0600-\u06FF]/);
    const checked = await post(
      server,
      '/api/sys/checkCatalogueEntry',
      { kind: 'desk', document: draft },
      bearer(await loginAdmin(server)),
    );
    expect(checked.body.data).toEqual({ problems: [] });
    const made = await fetch(`${server.url}/form-validators/${key}.js`);
    expect(made.status).toBe(200);
    expect(made.headers.get('content-type')).toMatch(/^(?:text|application)\/javascript/);
    expect(await made.text()).toContain('مبلغ به ارز');
    expectEveryResponseHeaders(made);
    expect((await fetch(`${server.url}/form-validators/not-a-key.js`)).status).toBe(404);
  });

  it('on a 404', async () => {
    for (const missing of ['/assets/no-such-file.js', '/no-such-page.png']) {
      const res = await fetch(server.url + missing);
      expect(res.status).toBe(404);
      expectEveryResponseHeaders(res);
      expectWebPolicy(res);
    }
  });

  it("leaves the sandbox bank's page its own stricter policy", async () => {
    const bank = createPaymentGateway(server.app.config, () => server.url);
    const created = await bank.createPayment({
      amount: 1_250_000,
      callbackUrl: 'https://shop.example/api/public/payments/callback/tok42',
      description: 'پرداخت آزمایشی',
      payer: { mobileNo: '09121234567', nationalCode: '0012345679' },
    });
    const res = await fetch(new URL(created.redirectUrl, server.url));
    expect(res.status).toBe(200);
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')?.[0]).toMatch(/^'nonce-/);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends Strict-Transport-Security only over TLS (a trusted proxy says https)', async () => {
    const res = await fetch(`${server.url}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const plain = await fetch(`${server.url}/api/health`, { headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });
});

/** Writes raw bytes to the server and reads the whole answer until it closes the connection. */
function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve(answer) : reject(error),
    );
    socket.write(bytes);
  });
}

function parseRaw(answer: string): { status: number; headers: Map<string, string>; body: string } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as const),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('answers written before a request is parsed', () => {
  const cases: Array<[string, string, number, string]> = [
    [
      'headers past the limit',
      `GET /api/public/metaData HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(70_000)}\r\n\r\n`,
      431,
      'نشانی یا سرآیندهای درخواست بیش از حد طولانی است.',
    ],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'اطلاعات ارسال‌شده معتبر نیست.'],
  ];
  it.each(cases)(
    '%s: the Persian envelope, with the headers every answer carries',
    async (_name, bytes, status, text) => {
      const answer = parseRaw(await rawExchange(bytes));
      expect(answer.status).toBe(status);
      expect(JSON.parse(answer.body)).toEqual({ result: false, msg: text, data: null });
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(directives(answer.headers.get('content-security-policy') ?? null).get('frame-ancestors')).toEqual([
        "'none'",
      ]);
      expect(answer.headers.get('x-powered-by')).toBeUndefined();
      expect(answer.headers.get('server')).toBeUndefined();
    },
  );
});
