/**
 * Build-time prerender of the public pages (decision 015; build/prerender.ts runs it): the same routes and components
 * as in the browser, as a guest sees them, on a static router, with the catalogue already in the query cache. The
 * browser hydrates this HTML (main.tsx) instead of drawing the page from nothing once the scripts have run.
 */
import './ssr-globals';
import { prerenderToNodeStream } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { documentTitle } from '../components/shell/Breadcrumbs';
import { routeAt } from '../lib/current-route';
import { queryClient } from '../lib/query';
import type { CatalogueData } from '../lib/queries/catalogue';
import { storedTokenAtom } from '../lib/session';
import { store } from '../lib/store';
import { AppProviders, appRoutes } from './App';

/** Where the prerendered page puts the catalogue it was drawn with; main.tsx reads it back before hydrating. */
export const PRERENDER_DATA_ID = 'prerender-data';

/** The page's tab title, as the browser's Breadcrumbs sets it once the app runs. */
export function titleOf(url: string, catalogue: CatalogueData): string {
  return documentTitle(routeAt(url), catalogue);
}

/**
 * The page as a guest sees it or, with `signedIn`, the frame a returning customer's browser draws first: the app as
 * it is before their person is read (a session held, not yet confirmed), which is also the first thing the app draws
 * for them, so nothing moves when it takes over.
 */
export async function renderPage(url: string, catalogue: CatalogueData, signedIn = false): Promise<string> {
  store.set(storedTokenAtom, signedIn ? 'signed-in-frame' : null);
  try {
    // The first pass loads the page's lazy modules; the second, with nothing left to wait for, writes every part in
    // place. (A part that waited is written apart with an inline script to move it, which the CSP refuses.)
    await renderOnce(url, catalogue);
    const html = await renderOnce(url, catalogue);
    if (html.includes('<script')) throw new Error(`prerendering ${url} left an inline script`);
    return html;
  } finally {
    store.set(storedTokenAtom, null);
  }
}

async function renderOnce(url: string, catalogue: CatalogueData): Promise<string> {
  queryClient.setQueryData(['catalogue'], catalogue);
  const handler = createStaticHandler(appRoutes);
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error(`${url} redirects: it is not a page to prerender`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <AppProviders>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
    { onError: (error) => void errors.push(error) },
  );
  // A part that failed would be left to the browser with an inline script, which the CSP refuses: fail the build.
  if (errors.length > 0) throw new AggregateError(errors, `prerendering ${url} failed: ${String(errors[0])}`);
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
