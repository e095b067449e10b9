/**
 * Security headers on every response (issue 12; docs/decisions/013-security-headers.md), through helmet.
 * The Content-Security-Policy is the web app's: scripts only from this origin, with neither 'unsafe-eval' (the
 * forms' validators are precompiled, decision 015) nor 'unsafe-inline'; styles
 * from this origin and inline (Radix Themes sets style attributes); the API and the live socket on this origin.
 * A route that sends its own policy (the sandbox bank's pages, storage files) keeps it: a header the route sets
 * replaces helmet's, which is only written to the raw response before the route runs.
 * Strict-Transport-Security only when the request came over TLS (directly, or per X-Forwarded-Proto from a proxy
 * named in TRUST_PROXY): sent over plain HTTP it would be ignored at best and lock out a LAN address at worst.
 */
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

export async function registerSecurityHeaders(fastify: FastifyInstance): Promise<void> {
  // Built once: @fastify/helmet built helmet's middleware anew on every request (parsing the policy each time),
  // which cost a price inquiry about a tenth of its time (issue 10).
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
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    applyHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
}
