/**
 * A test instance says so (decision 023). While the sandbox bank is the gateway, every HTML page the
 * server sends carries the mark: `data-test-instance="sandbox"` on `<html>` (src/shared/test-instance.ts), which the web reads
 * (src/web/lib/test-instance.ts), and a banner as the body's first element, outside the app's root, so a prerendered
 * page shows it in its first paint, React never draws over it, and it stays on every page the app then shows.
 * Its look is `.test-instance-banner` in the web's stylesheet: in the flow at the top, taking its own space.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { escapeHtml } from '../../shared/escape-html';
import { TEST_INSTANCE_ATTRIBUTE, TEST_INSTANCE_VALUE } from '../../shared/test-instance';
import { msg } from './messages';

/** The page with the test instance's mark and banner; a page without `<html>` or `<body>` is left as it is there. */
export function markTestInstance(html: string): string {
  const banner =
    `<p id="test-instance-banner" class="test-instance-banner" role="status">` +
    `${escapeHtml(msg('testInstance.banner'))}</p>`;
  return html
    .replace(/<html\b/i, `<html ${TEST_INSTANCE_ATTRIBUTE}="${TEST_INSTANCE_VALUE}"`)
    .replace(/<body\b[^>]*>/i, (body) => `${body}${banner}`);
}

/** A marked page as it is sent: its text, and its brotli and gzip copies for clients that accept them. */
export interface MarkedPage {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The built HTML pages of `webDir`, marked and compressed once (as the build compresses the pages it writes:
 * build/compress.ts), and again when a file changes (a new build under a running server). Paths are the history
 * fallback's, relative to `webDir`. The fallback is not a route, so the compression plugin does not see it.
 */
export function markedPages(webDir: string): (file: string) => MarkedPage {
  const cache = new Map<string, { mtimeMs: number; page: MarkedPage }>();
  return (file) => {
    const full = path.join(webDir, file);
    const { mtimeMs } = statSync(full);
    const cached = cache.get(file);
    if (cached && cached.mtimeMs === mtimeMs) return cached.page;
    const html = Buffer.from(markTestInstance(readFileSync(full, 'utf8')));
    const page = {
      html,
      br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: gzipSync(html, { level: 9 }),
    };
    cache.set(file, { mtimeMs, page });
    return page;
  };
}

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, else none (q=0 refuses one). */
export function pageEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const quality = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    quality.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const accepts = (name: string) => (quality.get(name) ?? quality.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}
