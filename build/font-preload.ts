/**
 * Preloads the fonts the first paint needs (issue 10): the Arabic-script Vazirmatn in the regular and bold weights
 * (body text and headings), so the browser fetches them alongside the stylesheet instead of after it. The other
 * weights and the Latin subset load on use (their @font-face rules have unicode ranges and `font-display: swap`).
 */
import type { Plugin } from 'vite';

const PRELOADED = ['vazirmatn-arabic-400-normal.woff2', 'vazirmatn-arabic-700-normal.woff2'];

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
