/**
 * `npm run bench`: figures written to tests/bench/results.json. Each figure is a ratio against a
 * baseline measured in the same run, because these machines are noisy.
 *   - first-page JS: gzip bytes the app's first page loads vs. a bare React + react-dom page built now.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { firstLoadJs } from './bundle-size';

const root = path.resolve(import.meta.dirname, '../..');

async function buildBareReact(): Promise<string> {
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

async function main(): Promise<void> {
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
  const app = firstLoadJs(path.join(root, 'dist/web'));
  const bareDir = await buildBareReact();
  const bare = firstLoadJs(bareDir);
  rmSync(bareDir, { recursive: true, force: true });

  const results = {
    measuredAt: new Date().toISOString(),
    firstPageJs: {
      appGzipBytes: app.gzipBytes,
      bareReactGzipBytes: bare.gzipBytes,
      ratio: Number((app.gzipBytes / bare.gzipBytes).toFixed(2)),
      appFiles: app.files,
    },
  };
  writeFileSync(path.join(import.meta.dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
}

await main();
