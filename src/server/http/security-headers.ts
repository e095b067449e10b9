/**
 * Security headers on every response (docs/decisions/013-security-headers.md), through helmet.
 * The Content-Security-Policy is the web app's: scripts only from this origin, with neither 'unsafe-eval' (the
 * forms' validators are precompiled, decision 015) nor 'unsafe-inline'; styles
 * from this origin and inline (Radix Themes sets style attributes); the API and the live socket on this origin.
 * A route that sends its own policy (the sandbox bank's pages, storage files) keeps it: a header the route sets
 * replaces ours, which are only written to the raw response before the route runs.
 * API answers carry an API's smaller set (API_ANSWER_HEADERS below).
 * Strict-Transport-Security only when the request came over TLS (directly, or per X-Forwarded-Proto from a proxy
 * named in TRUST_PROXY): sent over plain HTTP it would be ignored at best and lock out a LAN address at worst.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  // 'self' covers the same origin's ws:/wss: too (CSP Level 3), which is where socket.io connects.
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const;

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The headers helmet sets with our options, read once by running its middleware against a recording response.
 * None depends on the request (no nonces; HSTS is added per request below), and walking helmet's chain of a dozen
 * middlewares on every answer cost a price inquiry about 5% of its time (decision 013, «Later»).
 */
function helmetHeaders(): { set: Array<[string, string]>; removed: string[] } {
  const applyHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: Object.fromEntries(Object.entries(CONTENT_SECURITY_POLICY).map(([k, v]) => [k, [...v]])),
    },
    // Set below, only over TLS.
    strictTransportSecurity: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // The bank's pages are a top-level navigation away; nothing here is embedded cross-origin.
    crossOriginEmbedderPolicy: false,
  });
  const set: Array<[string, string]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => set.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
  };
  let failure: unknown;
  applyHeaders({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return { set, removed };
}

const HELMET_HEADERS = helmetHeaders();
const SUBRESOURCE_HEADERS = ['x-content-type-options', 'cross-origin-resource-policy', 'referrer-policy'];
const DOCUMENT_ONLY_HEADERS = HELMET_HEADERS.set
  .map(([name]) => name.toLowerCase())
  .filter((name) => !SUBRESOURCE_HEADERS.includes(name));

/**
 * Leaves a built script, stylesheet or font (content-hashed under /assets/, served by the static plugin) only the
 * headers that concern a subresource: nosniff, the same-origin resource policy, and the referrer policy (a
 * stylesheet fetches fonts). Such a file is never a document: opened directly, a script or stylesheet is shown as
 * text (its type, with nosniff), so the policies that govern a document (CSP, framing, opener, the XSS and
 * download switches) say nothing there. ~500 bytes less on each of the ~60 files a first page loads over HTTP/1.1
 * (decision 013, «Later»). A missing asset's 404 keeps them all.
 */
export function keepSubresourceHeaders(res: { removeHeader(name: string): void }): void {
  for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name);
}

/**
 * What an API answer carries (OWASP's REST Security Cheat Sheet): JSON, never a document a browser renders, so the
 * policies that govern a page (its CSP's sources, the opener and origin-cluster policies, the DNS-prefetch, download
 * and XSS switches) say nothing there. Kept: a policy that allows nothing at all and no framing (an answer opened in
 * a tab loads nothing; none can be framed for drag-and-drop clickjacking), nosniff, the same-origin resource policy
 * (no cross-origin read of a customer's data into another site's process), the referrer policy (a payment callback
 * answers with a redirect), and `no-store`: a wallet or a profile is not kept in the browser's cache or a proxy's.
 * ~500 bytes less on every answer (decision 013, «Later»). A route that sets its own cache-control (the captcha) keeps it.
 * The headers shared with a page take helmet's values, configured once above.
 */
export const API_ANSWER_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ...HELMET_HEADERS.set.filter(([name]) => [...SUBRESOURCE_HEADERS, 'x-frame-options'].includes(name.toLowerCase())),
  ['cache-control', 'no-store'],
];

export async function registerSecurityHeaders(fastify: FastifyInstance): Promise<void> {
  const { set, removed } = HELMET_HEADERS;
  fastify.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    if (request.protocol === 'https') raw.setHeader('strict-transport-security', HSTS);
    for (const name of removed) raw.removeHeader(name);
    for (const [name, value] of request.url.startsWith('/api/') ? API_ANSWER_HEADERS : set) raw.setHeader(name, value);
    done();
  });
}
