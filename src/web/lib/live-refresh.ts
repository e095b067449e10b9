/**
 * How live events make queries fetch again (lib/realtime.ts): one change reaches a page as several events (a payment
 * sends purchase.changed and notification.created, and its HTTP answer arrives beside them), and each event made the
 * request's detail fetch again, the later cancelling the earlier: three fetches of the same thing. Events that arrive
 * within COALESCE_MS are refreshed together, each query once; and a query whose fetch started after the last event
 * concerning it arrived is left to finish, since the server sends an event after its change is committed, so that
 * fetch reads it.
 */
import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';

export const COALESCE_MS = 60;

export function liveRefresher(
  client: QueryClient,
  options: { coalesceMs?: number; now?: () => number } = {},
): (keys: Iterable<QueryKey>) => void {
  const coalesceMs = options.coalesceMs ?? COALESCE_MS;
  const now = options.now ?? (() => performance.now());
  /** When each query's fetch under way started (by query hash). */
  const fetchStartedAt = new Map<string, number>();
  client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'fetch') fetchStartedAt.set(event.query.queryHash, now());
    if (event.type === 'removed') fetchStartedAt.delete(event.query.queryHash);
  });
  /** The keys events asked for since the last flush, each with when the last event naming it arrived. */
  let pending: Map<string, { key: QueryKey; at: number }> | null = null;

  const flush = () => {
    const batch = pending;
    pending = null;
    if (!batch) return;
    // Each query with the last event that concerned it.
    const concerned = new Map<string, { query: Query; at: number }>();
    for (const { key: queryKey, at } of batch.values()) {
      for (const query of client.getQueryCache().findAll({ queryKey })) {
        const seen = concerned.get(query.queryHash);
        if (!seen || seen.at < at) concerned.set(query.queryHash, { query, at });
      }
    }
    const due = new Map<string, Query>();
    for (const [hash, { query, at }] of concerned) {
      const fresh = query.state.fetchStatus === 'fetching' && (fetchStartedAt.get(hash) ?? -1) >= at;
      if (!fresh) due.set(hash, query);
    }
    for (const query of due.values()) {
      const queryKey = query.queryKey;
      // A fetch already under way may have read the data before the change, and React Query lets a query that has no
      // data yet keep that answer rather than fetch again: it is cancelled first.
      void client
        .cancelQueries({ queryKey, exact: true })
        .then(() => client.invalidateQueries({ queryKey, exact: true }));
    }
  };

  return (keys) => {
    if (!pending) {
      pending = new Map();
      setTimeout(flush, coalesceMs);
    }
    const at = now();
    for (const key of keys) pending.set(JSON.stringify(key), { key, at });
  };
}
