/**
 * Whether the page is past hydration: false while the build's prerender draws it (app/prerender.tsx) and while the
 * browser hydrates that HTML, true from the render after (and at once in a page drawn in the browser alone). A part
 * that must not be prerendered (a desk's form: it waits on the form engine and on the signed-in user) shows a stand-in
 * until then, the same on both sides, so the hydrated HTML matches.
 */
import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
