/**
 * A bounded in-memory cache in front of database reads, for rows read far more often than written (decision 016: a price
 * inquiry should not cost a query for the session and another for the wallet).
 *
 * Correctness rests on the writers: after a write commits, they `forget` the keys it changed (see db/after-commit.ts),
 * and other processes are told through `onForget`'s listener. A read that began before a forget of its key may hold
 * the old row, so its value is returned but not kept. `ttlMs` bounds how long a value is trusted anyway (a write
 * nobody announced: a hand edit of the database). With `ttlMs` 0 the cache is off and every get reads.
 */
export interface Loaded<V> {
  value: V;
  /** Kept no longer than this (shorter than the cache's own lifetime, e.g. a session that expires sooner). */
  maxAgeMs?: number;
  /** False: return it but do not keep it (say, "no such session", which anyone can ask for with random keys). */
  keep?: boolean;
}

interface Entry<V> {
  value: V;
  until: number;
}

export class ReadThroughCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  /** Counts forgets; a read that started at an epoch earlier than its key's last forget is stale. */
  private epoch = 0;
  private readonly forgottenAt = new Map<K, number>();
  /** The epoch of the last forget of every key (forgetAll, or the forgotten set outgrew its bound). */
  private floor = 0;
  private listener: ((keys: readonly K[] | 'all') => void) | null = null;

  constructor(
    private ttlMs = 0,
    private readonly maxEntries = 10_000,
  ) {}

  /** Turns the cache on (or off with 0): only where every writer's forget reaches it (one process, or Redis). */
  setLifetime(ttlMs: number): void {
    this.ttlMs = ttlMs;
    if (ttlMs === 0) this.forgetAll({ quiet: true });
  }

  /** Called after each forget not marked quiet: the place to tell other processes. */
  onForget(listener: (keys: readonly K[] | 'all') => void): void {
    this.listener = listener;
  }

  async get(key: K, load: () => Promise<Loaded<V>>): Promise<V> {
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (hit) this.entries.delete(key);
    const startedAt = this.epoch;
    const loaded = await load();
    const lifetime = Math.min(this.ttlMs, loaded.maxAgeMs ?? Infinity);
    const forgotten = Math.max(this.floor, this.forgottenAt.get(key) ?? 0);
    if (lifetime > 0 && loaded.keep !== false && forgotten <= startedAt) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
      this.entries.set(key, { value: loaded.value, until: performance.now() + lifetime });
    }
    return loaded.value;
  }

  forget(keys: readonly K[], options: { quiet?: boolean } = {}): void {
    if (keys.length === 0) return;
    this.epoch += 1;
    if (this.forgottenAt.size + keys.length > this.maxEntries) {
      this.forgottenAt.clear();
      this.floor = this.epoch;
    }
    for (const key of keys) {
      this.entries.delete(key);
      this.forgottenAt.set(key, this.epoch);
    }
    if (!options.quiet) this.listener?.(keys);
  }

  forgetAll(options: { quiet?: boolean } = {}): void {
    this.epoch += 1;
    this.floor = this.epoch;
    this.entries.clear();
    this.forgottenAt.clear();
    if (!options.quiet) this.listener?.('all');
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * One cache per database handle, created off on first use: writers that hold only a transaction reach the cache
 * of its root through `afterCommit`'s hook, and the app turns each on (`setLifetime`) where it is safe.
 */
export function cachePerDatabase<K, V>(): (db: object) => ReadThroughCache<K, V> {
  const caches = new WeakMap<object, ReadThroughCache<K, V>>();
  return (db) => {
    let cache = caches.get(db);
    if (!cache) {
      cache = new ReadThroughCache<K, V>();
      caches.set(db, cache);
    }
    return cache;
  };
}
