/** Runs a task once the page is idle (after the first render); returns a cancel function. */
export function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 3000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 1200);
  return () => window.clearTimeout(id);
}

/** How long work kept for after the first screen waits for it at most (a page whose data is slow to come). */
export const FIRST_SCREEN_WAIT_MS = 4000;

/**
 * Runs a task after the first screen: once the page has settled (lib/settled-mark.ts: drawn, nothing it asked for
 * still coming), or FIRST_SCREEN_WAIT_MS at the latest, and then when the browser is idle. Returns a cancel function.
 */
export function afterFirstScreen(task: () => void, maxWaitMs = FIRST_SCREEN_WAIT_MS): () => void {
  const html = document.documentElement;
  let cancelIdle: (() => void) | null = null;
  let observer: MutationObserver | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const go = () => {
    if (cancelIdle) return;
    observer?.disconnect();
    clearTimeout(timer);
    cancelIdle = whenIdle(task);
  };
  if (html.hasAttribute('data-settled')) go();
  else {
    observer = new MutationObserver(() => {
      if (html.hasAttribute('data-settled')) go();
    });
    observer.observe(html, { attributes: true, attributeFilter: ['data-settled'] });
    timer = setTimeout(go, maxWaitMs);
  }
  return () => {
    observer?.disconnect();
    clearTimeout(timer);
    cancelIdle?.();
    cancelIdle = () => undefined;
  };
}
