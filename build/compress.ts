/**
 * Precompression of the built web app (issue 10): every text file in the output gets a brotli (`.br`) and a gzip
 * (`.gz`) copy beside it, made once at build time at the highest levels, so the server sends the compressed copy
 * (@fastify/static `preCompressed`) instead of compressing on each request or sending the file raw.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Extensions of the files sent compressed; images and fonts (woff2 is already brotli inside) are not. */
export const TEXT_EXTENSIONS = ['.html', '.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.webmanifest'];

export function isTextAsset(file: string): boolean {
  return TEXT_EXTENSIONS.includes(path.extname(file).toLowerCase());
}

/** Writes `file.br` and `file.gz` for every text file under dir; returns the files compressed. */
export function precompressDir(dir: string): string[] {
  const done: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !isTextAsset(entry.name)) continue;
    // Build reports (.vite/) are read from disk, never served.
    if (path.relative(dir, entry.parentPath).split(path.sep).includes('.vite')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const raw = readFileSync(file);
    const br = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: statSync(file).size,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
    done.push(file);
  }
  return done;
}
