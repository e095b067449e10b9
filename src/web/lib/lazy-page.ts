/** Lazily loaded pages: a chunk that fails to load dispatches `preload-error` on window and shows the error page. */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { trackLoad } from './settled-mark';

export const PRELOAD_ERROR_EVENT = 'preload-error';

/** Thrown in place of the page when its chunk could not be loaded (offline, or a deploy replaced it). */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
}

export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyExoticComponent<ComponentType> {
  return lazy(() =>
    trackLoad(load()).catch((cause: unknown) => {
      window.dispatchEvent(new CustomEvent(PRELOAD_ERROR_EVENT, { detail: cause }));
      throw new ChunkLoadError(cause instanceof Error ? cause.message : String(cause));
    }),
  );
}
