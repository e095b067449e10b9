/**
 * Gzip size of the JavaScript a built page loads first: its entry scripts and their modulepreloads, what an entry
 * imports at once (the web's entry is a small boot script whose one dynamic import is the app, after the first
 * paint), and every file those import statically, followed down.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

// The minifier writes module names in any of the three quotes.
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'`]\.\/([\w.-]+\.js)["'`]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`]\.\/([\w.-]+\.js)["'`]\s*\)/g;

export function firstLoadJs(
  distDir: string,
  htmlFile = 'index.html',
  level = 6,
): { files: string[]; gzipBytes: number } {
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
    (sum, ref) => sum + gzipSync(readFileSync(path.join(distDir, ref.replace(/^\//, ''))), { level }).length,
    0,
  );
  return { files: [...files], gzipBytes };
}

/** A page of React and react-dom alone (tests/bench/bare-react), built now into a temporary folder: the baseline. */
export async function buildBareReact(): Promise<string> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'bare-react-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    root: path.join(import.meta.dirname, 'bare-react'),
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}
