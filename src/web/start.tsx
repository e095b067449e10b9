/**
 * Starts the app (main.tsx loads this after the first paint): hydrates a prerendered public page, or draws the app
 * anew.
 *
 * In steps, each its own task, so that no one of them holds a slow phone's main thread for long: React's DOM
 * renderer and the app's modules are asked for together but each is evaluated as it arrives (the two took one task
 * of 300–500 ms at a 4× slower CPU); the router reads the route table in the next task; the first render, in slices
 * (a transition), after that.
 */
import { StrictMode, startTransition } from 'react';
import { reactListensToClicks } from './lib/early-clicks';
import { nextTask } from './lib/idle';

const client = import('react-dom/client');
const appModule = import('./app/App');
const root = document.getElementById('root') as HTMLElement;

async function start() {
  const { App, prepareRouter } = await appModule;
  await nextTask();
  prepareRouter();
  const { createRoot, hydrateRoot } = await client;
  await nextTask();
  const { queryClient } = await import('./lib/query');
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  // A prerendered public page (build/prerender.ts) carries the catalogue it was drawn with: a guest's browser
  // hydrates that HTML with the same data (marked stale, so the live catalogue is fetched right after). Someone
  // signed in sees other things (their menu, their name): main.tsx has emptied #root for them, or left their page's
  // signed-in frame there (which carries no data), so theirs is drawn anew, over the frame.
  // Both as a transition: React then works in slices and lets the browser answer input between them, where a default
  // update would hold the main thread for the whole first render (a long task a slow phone feels).
  const prerendered = document.getElementById('prerender-data');
  if (prerendered && root.firstChild) {
    queryClient.setQueryData(['catalogue'], JSON.parse(prerendered.textContent ?? 'null'), { updatedAt: 0 });
    reactListensToClicks();
    startTransition(() => void hydrateRoot(root, app));
  } else {
    const reactRoot = createRoot(root);
    startTransition(() => reactRoot.render(app));
  }
}

void start();
