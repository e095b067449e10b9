/**
 * Which source modules went into each built JavaScript chunk, written to `.vite/chunks.json` in the output
 * (not served: the server answers nothing under a dot directory's files it does not know, and tests read the file
 * from disk). Tests use it to tell what a page loads from the chunk files it fetched (tests/e2e/first-load.test.ts),
 * and it is the place to look when a chunk grows: each module with the bytes it adds.
 */
import path from 'node:path';
import type { Plugin } from 'vite';

export interface ChunkReport {
  [file: string]: { modules: Record<string, number> };
}

export const CHUNK_REPORT = '.vite/chunks.json';

/** A module id as a short name: `npm:<package>/<file>` for dependencies, else the path from the repository. */
export function moduleName(id: string, root: string): string {
  const clean = id.replace(/^\0/, '').split('?')[0] ?? id;
  const nm = clean.lastIndexOf('/node_modules/');
  if (nm >= 0) return `npm:${clean.slice(nm + '/node_modules/'.length)}`;
  return path.isAbsolute(clean) ? path.relative(root, clean) : clean;
}

export function chunkReport(repoRoot: string): Plugin {
  return {
    name: 'arzpay-chunk-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (this.environment?.config.consumer === 'server') return;
      const report: ChunkReport = {};
      for (const [file, output] of Object.entries(bundle)) {
        if (output.type !== 'chunk') continue;
        const modules: Record<string, number> = {};
        for (const [id, info] of Object.entries(output.modules))
          modules[moduleName(id, repoRoot)] = info.renderedLength;
        report[file] = { modules };
      }
      this.emitFile({ type: 'asset', fileName: CHUNK_REPORT, source: `${JSON.stringify(report, null, 1)}\n` });
    },
  };
}
