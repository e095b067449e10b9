import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { chunkReport } from './build/chunk-report';
import { precompressDir } from './build/compress';
import { fontPreload } from './build/font-preload';
import { lazyMarkdown } from './build/lazy-markdown';
import { writePageRoutes } from './build/page-routes';
import { writeFormValidators } from './build/form-validators';
import { prerenderPages } from './build/prerender';
import { radixIconsPerFile } from './build/radix-icons-per-file';
import { reactRouterProduction } from './build/react-router-production';
import { tooltipProviderAtUse } from './build/tooltip-provider-at-use';
import { trimEntryStylesheets } from './build/trim-stylesheet';

/** Whether the build under way failed (set by the post-build plugin's hooks below). */
let buildFailed = false;

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

// The web app lives in src/web; the server serves dist/web in production.
export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [
    react(),
    reactRouterProduction(),
    lazyMarkdown(import.meta.dirname),
    radixIconsPerFile(),
    tooltipProviderAtUse(),
    fontPreload(),
    chunkReport(import.meta.dirname),
    {
      // After the bundle is written: each desk's precompiled form validators (build/form-validators.ts), the entry
      // stylesheet trimmed to the rules the scripts can use (build/trim-stylesheet.ts), the route paths (build/page-routes.ts), the public pages
      // prerendered (build/prerender.ts), then a brotli and a gzip copy of every text file (build/compress.ts).
      name: 'arzpay-postbuild',
      apply: 'build',
      buildStart() {
        buildFailed = false;
      },
      buildEnd(error) {
        buildFailed ||= Boolean(error);
      },
      renderError() {
        buildFailed = true;
      },
      closeBundle: {
        order: 'post',
        sequential: true,
        async handler() {
          // A failed build has nothing to post-process: its own error is the one to see.
          if (buildFailed || this.environment?.config.consumer === 'server') return;
          const outDir = path.resolve(this.environment.config.root, this.environment.config.build.outDir);
          writeFormValidators(import.meta.dirname, outDir);
          writePageRoutes(outDir);
          trimEntryStylesheets(outDir);
          await prerenderPages(import.meta.dirname, outDir);
          precompressDir(outDir);
        },
      },
    },
  ],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    // No <link rel=modulepreload> inserted for a dynamic import's dependencies: in Lighthouse's mobile run, vite's
    // helper inserting them cost 100+ ms of main thread on a 4x slower CPU (the boot's import of the app alone lists
    // 17 files), and the blocking time fell from 140–280 ms to 20–240 ms with the helper off. The browser still
    // fetches a chunk's static imports in parallel once it has the chunk; a lazy page whose chunks import chunks
    // takes a round trip per level instead (issue 10).
    modulePreload: false,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/storage': apiTarget,
      '/form-validators': apiTarget,
      '/broadcasting': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
});
