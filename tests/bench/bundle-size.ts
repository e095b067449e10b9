/**
 * Gzip size of the JavaScript a built page loads first: its entry scripts, their modulepreloads, and what the entry
 * imports at once (the web's entry is a small boot script that imports the app after the first paint; the files it
 * loads with it are the `__vite__mapDeps` list at its top).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export function firstLoadJs(distDir: string, htmlFile = 'index.html'): { files: string[]; gzipBytes: number } {
  const html = readFileSync(path.join(distDir, htmlFile), 'utf8');
  const refs = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => m[1] as string);
  for (const entry of [...refs]) {
    const source = readFileSync(path.join(distDir, entry.replace(/^\//, '')), 'utf8');
    const deps = /__vite__mapDeps=[^[]*\[([^\]]*)\]/.exec(source)?.[1] ?? '';
    for (const [, file] of deps.matchAll(/"([^"]+\.js)"/g)) refs.push(`/${file}`);
  }
  const files = [...new Set(refs)];
  const gzipBytes = files.reduce(
    (sum, ref) => sum + gzipSync(readFileSync(path.join(distDir, ref.replace(/^\//, '')))).length,
    0,
  );
  return { files, gzipBytes };
}
