/**
 * Preloads the fonts the first paint needs (issue 10), so the browser fetches them alongside the stylesheet instead
 * of after it: the Arabic-script Vazirmatn, and the Latin one, which every Persian page needs too (the space and
 * the Western punctuation are in its range). Both variable: every weight in use in one file. The Latin-extended file
 * loads on use (its @font-face has a unicode range and `font-display: swap`).
 */
import type { Plugin } from 'vite';

const PRELOADED = ['vazirmatn-arabic.woff2', 'vazirmatn-latin.woff2'];

export function fontPreload(): Plugin {
  return {
    name: 'arzpay-font-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const files = Object.values(ctx.bundle ?? {}).flatMap((output) =>
          output.type === 'asset' && output.originalFileNames.some((name) => PRELOADED.some((f) => name.endsWith(f)))
            ? [output.fileName]
            : [],
        );
        return files.map((file) => ({
          tag: 'link',
          attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${file}`, crossorigin: '' },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
