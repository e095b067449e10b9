/**
 * What rjsf gets for `markdown-to-jsx/react` (build/lazy-markdown.ts): the same `Markdown` component, loaded on first
 * use. Until it has loaded, the text shows as it is written.
 */
import { type ComponentProps, lazy, Suspense } from 'react';
import type { Markdown as RealMarkdown } from 'markdown-to-jsx/react';

const Loaded = lazy(() => import('markdown-to-jsx/react').then((module) => ({ default: module.Markdown })));

export function Markdown(props: ComponentProps<typeof RealMarkdown>) {
  return (
    <Suspense
      fallback={<span data-testid={(props as { 'data-testid'?: string })['data-testid']}>{props.children}</span>}
    >
      <Loaded {...props} />
    </Suspense>
  );
}
