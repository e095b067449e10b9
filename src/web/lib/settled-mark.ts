/**
 * The page's "settled" mark: `data-settled` on <html> holds the address shown (path and query) once the page of that
 * address has been drawn (`pageShown`, from the shell: the router renders a move in a transition, which keeps the old
 * page on screen while the new one loads) and nothing the app asked for is still coming: no API call in flight, no
 * query fetching, no mutation running, no page chunk loading, still so a frame and a task after the last of them
 * ended, so what its answer started (the next query of a chain, a page's chunk) has started too. It is what a person waits for, and what the end-to-end tests wait for
 * instead of half a second of network silence on every page (tests/support/browser.ts `inAppNavigator`).
 */
import type { QueryClient } from '@tanstack/react-query';
import { subscribeInFlight } from './api-client';

let chunksLoading = 0;
let shown: string | null = null;
let recheck: () => void = () => undefined;

/** The shell says which address (path and query) the page it draws belongs to, once that page is on screen. */
export function pageShown(address: string): void {
  shown = address;
  recheck();
}

/** Counts a chunk load (a lazily loaded page) as something coming until it ends. */
export function trackLoad<T>(load: Promise<T>): Promise<T> {
  chunksLoading += 1;
  recheck();
  const done = () => {
    chunksLoading -= 1;
    recheck();
  };
  load.then(done, done);
  return load;
}

/**
 * Keeps the mark from now on; `onNavigation` subscribes to the router's changes of address. Returns the function
 * that stops it.
 */
export function keepSettledMark(client: QueryClient, onNavigation: (listener: () => void) => () => void): () => void {
  const html = document.documentElement;
  let apiCalls = 0;
  let frame = 0;
  let task: ReturnType<typeof setTimeout> | undefined;
  const busy = () => apiCalls > 0 || chunksLoading > 0 || client.isFetching() > 0 || client.isMutating() > 0;
  const here = () => location.pathname + location.search;
  recheck = () => {
    cancelAnimationFrame(frame);
    clearTimeout(task);
    if (busy() || shown !== here()) {
      delete html.dataset.settled;
      return;
    }
    if (html.dataset.settled === here()) return;
    frame = requestAnimationFrame(() => {
      task = setTimeout(() => {
        if (!busy() && shown === here()) html.dataset.settled = here();
      }, 0);
    });
  };
  const stops = [
    subscribeInFlight((n) => {
      apiCalls = n;
      recheck();
    }),
    client.getQueryCache().subscribe(() => recheck()),
    client.getMutationCache().subscribe(() => recheck()),
    onNavigation(() => recheck()),
  ];
  recheck();
  return () => {
    for (const stop of stops) stop();
    cancelAnimationFrame(frame);
    clearTimeout(task);
    recheck = () => undefined;
  };
}
