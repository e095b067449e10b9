/**
 * The web app served by the API's own server: its files (the build's output) and, for a page path nothing else
 * answers, its prerendered page or the history fallback (index.html).
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { keepSubresourceHeaders } from './security-headers';
import { type MarkedPage, pageEncoding } from './test-instance';
import { msg } from './messages';
import { hasSignedInHint } from '../../shared/signed-in-hint';

/**
 * Whether an unknown path may be a page of the web app, which its router resolves from index.html. API and
 * storage paths are not, nor assets: anything under /assets/ or whose last segment has a file extension
 * (`.js`, `.map`, `.png`, `.woff2`, …; no page path has one). A missing asset is a 404, never the HTML page.
 */
function isPageRoute(url: string): boolean {
  const pathname = url.split(/[?#]/, 1)[0] ?? '';
  if (pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/storage/')) return false;
  if (pathname.startsWith('/assets/')) return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !/\.[A-Za-z0-9]{1,10}$/.test(last);
}

/**
 * The public pages the build prerendered (build/prerender.ts writes `pages/<path>.html`, `/` as pages/index.html),
 * by page path: the history fallback sends one of these when the path has one, else the empty index.html.
 */
export function prerenderedPages(webDir: string, folder: 'pages' | 'frames' = 'pages'): Map<string, string> {
  const dir = path.join(webDir, folder);
  const pages = new Map<string, string>();
  if (!existsSync(dir)) return pages;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = path.relative(webDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    const page = file.slice(folder.length, -'.html'.length);
    pages.set(page === '/index' ? '/' : page, file);
  }
  return pages;
}

/**
 * The customer pages' signed-in frames (build/prerender.ts writes `frames/<path>.html`): what a browser holding a
 * session gets for such a page instead of the empty shell, its heading drawn before any script runs.
 */
export const signedInFrames = (webDir: string) => prerenderedPages(webDir, 'frames');
/**
 * The not-found handler: a page path of the web app gets its prerendered page or the history fallback (the web
 * app's router decides what the path shows); anything else the 404 envelope in Persian.
 */
export function installWebFallback(
  fastify: FastifyInstance,
  webIndex: string | null,
  pages: Map<string, string>,
  /** While the sandbox bank is the gateway: each page with the test instance's banner (http/test-instance.ts). */
  marked: ((file: string) => MarkedPage) | null,
  /** Whether a path is a route of the web app (http/page-routes.ts); any other answers its page with 404. */
  isKnownPage: ((pathname: string) => boolean) | null = null,
  /** Signed-in frames by path (signedInFrames). */
  frames: Map<string, string> = new Map(),
): void {
  fastify.setNotFoundHandler((request, reply) => {
    if (webIndex && isPageRoute(request.url) && (request.method === 'GET' || request.method === 'HEAD')) {
      // A prerendered public page, else the history fallback: the web app's router decides what the path shows.
      // Prerendered pages are drawn for a guest: a browser holding a session (the hint cookie) gets the page's
      // signed-in frame where it has one, else the empty shell, and its own page is drawn there without a guest's
      // page showing first.
      const pathname = (request.url.split(/[?#]/, 1)[0] ?? '/').replace(/(.)\/+$/, '$1');
      const signedIn = hasSignedInHint(request.headers.cookie);
      const frame = frames.get(pathname);
      // Either makes the answer depend on the cookie.
      const prerendered = pages.get(pathname) ?? frame;
      const file = (signedIn ? frame : pages.get(pathname)) ?? 'index.html';
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
      if (isKnownPage && !isKnownPage(pathname)) reply.status(404);
      if (!marked) {
        if (prerendered) reply.header('vary', 'Cookie');
        return reply.sendFile(file);
      }
      // A test instance's page: the build's compressed copies are of the page without the banner, so its own.
      const page = marked(file);
      const encoding = pageEncoding(request.headers['accept-encoding']);
      reply.header('vary', prerendered ? 'Cookie, Accept-Encoding' : 'Accept-Encoding');
      if (encoding) reply.header('content-encoding', encoding);
      return reply.send(encoding ? page[encoding] : page.html);
    }
    return reply.status(404).send({ result: false, msg: msg('http.notFound'), data: null });
  });
}

/** The web app's files (the build's output), with their caching: hashed assets for a year, the rest revalidated. */
export async function registerWebFiles(fastify: FastifyInstance, webDir: string): Promise<void> {
  await fastify.register(fastifyStatic, {
    root: webDir,
    wildcard: false,
    // `/` is a page like the others: the not-found handler sends its prerendered file.
    index: false,
    // The build writes a brotli and a gzip copy of every text file (build/compress.ts); the one the client
    // accepts is sent, with Vary: Accept-Encoding.
    preCompressed: true,
    setHeaders: (res, filePath) => {
      // Files under assets/ carry a content hash in their name: cached for a year and never revalidated.
      // Everything else (the HTML pages, the favicon, images) is revalidated on each use.
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (immutable && /\.(?:js|css|woff2)(?:\.br|\.gz)?$/.test(filePath)) keepSubresourceHeaders(res.raw);
    },
  });
}
