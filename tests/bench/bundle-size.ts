/**
 * Gzip size of the JavaScript a built page loads first: its entry scripts and their modulepreloads, what an entry
 * imports at once (the web's entry is a small boot script whose one dynamic import is the app, after the first
 * paint), and every file those import statically, followed down.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// The minifier writes module names in any of the three quotes.
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'`]\.\/([\w.-]+\.js)["'`]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`]\.\/([\w.-]+\.js)["'`]\s*\)/g;

export function firstLoadJs(distDir: string, htmlFile = 'index.html'): { files: string[]; gzipBytes: number } {
  const html = readFileSync(path.join(distDir, htmlFile), 'utf8');
  const entries = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => m[1] as string);
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map(
    (m) => m[1] as string,
  );
  const files = new Set<string>();
  const visit = (ref: string, isEntry: boolean) => {
    if (files.has(ref)) return;
    files.add(ref);
    const source = readFileSync(path.join(distDir, ref.replace(/^\//, '')), 'utf8');
    const dir = path.posix.dirname(ref);
    const imports = [...source.matchAll(STATIC_IMPORT), ...(isEntry ? source.matchAll(DYNAMIC_IMPORT) : [])];
    for (const [, file] of imports) visit(path.posix.join(dir, file!), false);
  };
  for (const ref of entries) visit(ref, true);
  for (const ref of preloads) visit(ref, false);
  const gzipBytes = [...files].reduce(
    (sum, ref) => sum + gzipSync(readFileSync(path.join(distDir, ref.replace(/^\//, '')))).length,
    0,
  );
  return { files: [...files], gzipBytes };
}
