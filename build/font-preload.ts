/**
 * Preloads the font the first paint needs (issue 10): the Arabic-script Vazirmatn, variable (every weight in one
 * file), so the browser fetches it alongside the stylesheet instead of after it. The Latin and Latin-extended files
 * load on use (their @font-face rules have unicode ranges and `font-display: swap`).
 */
import type { Plugin } from 'vite';

const PRELOADED = ['vazirmatn-arabic-wght-normal.woff2'];

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
