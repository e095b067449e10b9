/**
 * rjsf's core imports markdown-to-jsx for descriptions a uiSchema marks as markdown (`ui:enableMarkdownInDescription`),
 * which no form of ours does today. Imported as is, its 120 kB (unminified) are parsed with the form engine on every
 * desk page. This plugin hands rjsf's files our stand-in instead (src/web/components/form-engine/LazyMarkdown.tsx),
 * which loads the real component only when a description asks for it (issue 10: a desk page's blocking time).
 */
import path from 'node:path';
import type { Plugin } from 'vite';

export function lazyMarkdown(repoRoot: string): Plugin {
  const standIn = path.join(repoRoot, 'src/web/components/form-engine/LazyMarkdown.tsx');
  return {
    name: 'arzpay-lazy-markdown',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === 'markdown-to-jsx/react' && importer?.includes('/node_modules/@rjsf/')) return standIn;
      return null;
    },
  };
}
