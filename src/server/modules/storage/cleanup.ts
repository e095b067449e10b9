/**
 * Runs the clean-up of uploads nothing names at start and then every hour. The timer is unref'd, so it never
 * keeps a process alive; stop() ends it and waits for a run in progress, before the database closes. With
 * several processes each runs it; removing a file twice is harmless.
 */
import type { FastifyBaseLogger } from 'fastify';

export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

export function scheduleCleanup(
  run: () => Promise<string[]>,
  log: FastifyBaseLogger,
  intervalMs = CLEANUP_INTERVAL_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = run()
      .then((removed) => {
        if (removed.length > 0) log.info({ removed: removed.length }, 'removed uploads attached to nothing');
      })
      .catch((error: unknown) => log.error({ err: error }, 'upload clean-up failed'))
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
