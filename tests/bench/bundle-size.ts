/** Gzip size of the JavaScript a built page loads first: its entry scripts and their modulepreloads. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export function firstLoadJs(distDir: string, htmlFile = 'index.html'): { files: string[]; gzipBytes: number } {
  const html = readFileSync(path.join(distDir, htmlFile), 'utf8');
  const refs = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => m[1] as string);
  const files = [...new Set(refs)];
  const gzipBytes = files.reduce(
    (sum, ref) => sum + gzipSync(readFileSync(path.join(distDir, ref.replace(/^\//, '')))).length,
    0,
  );
  return { files, gzipBytes };
}
