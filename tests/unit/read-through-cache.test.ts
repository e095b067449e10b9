import { describe, expect, it, vi } from 'vitest';
import { ReadThroughCache } from '../../src/server/lib/read-through-cache';

const counting = () => {
  let reads = 0;
  return {
    load:
      (value: string, extra: { maxAgeMs?: number; keep?: boolean } = {}) =>
      async () => {
        reads += 1;
        return { value, ...extra };
      },
    get reads() {
      return reads;
    },
  };
};

describe('ReadThroughCache', () => {
  it('reads every time while off, and once while on', async () => {
    const cache = new ReadThroughCache<number, string>();
    const source = counting();
    await cache.get(1, source.load('a'));
    await cache.get(1, source.load('a'));
    expect(source.reads).toBe(2);
    cache.setLifetime(60_000);
    await cache.get(1, source.load('a'));
    expect(await cache.get(1, source.load('b'))).toBe('a');
    expect(source.reads).toBe(3);
  });

  it('reads again after its lifetime, or after the shorter one a value brought', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const cache = new ReadThroughCache<number, string>(1_000);
      const source = counting();
      await cache.get(1, source.load('a'));
      await cache.get(2, source.load('b', { maxAgeMs: 100 }));
      vi.advanceTimersByTime(150);
      expect(await cache.get(1, source.load('a2'))).toBe('a');
      expect(await cache.get(2, source.load('b2'))).toBe('b2');
      vi.advanceTimersByTime(1_000);
      expect(await cache.get(1, source.load('a3'))).toBe('a3');
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not keep what a value asks not to keep, nor a value already past its end', async () => {
    const cache = new ReadThroughCache<number, string>(60_000);
    const source = counting();
    await cache.get(1, source.load('gone', { keep: false }));
    await cache.get(2, source.load('expired', { maxAgeMs: -5 }));
    expect(cache.size).toBe(0);
  });

  it('does not keep a read that a forget of its key, or of every key, overtook', async () => {
    const cache = new ReadThroughCache<number, string>(60_000);
    const stale = await cache.get(1, async () => {
      cache.forget([1]);
      return { value: 'old' };
    });
    expect(stale).toBe('old');
    expect(cache.size).toBe(0);
    await cache.get(2, async () => {
      cache.forgetAll();
      return { value: 'old' };
    });
    expect(cache.size).toBe(0);
    // A forget of another key does not concern this read.
    await cache.get(3, async () => {
      cache.forget([4]);
      return { value: 'kept' };
    });
    expect(await cache.get(3, async () => ({ value: 'read again' }))).toBe('kept');
  });

  it('still refuses an overtaken read after the record of forgotten keys outgrew its bound', async () => {
    const cache = new ReadThroughCache<number, string>(60_000, 3);
    await cache.get(1, async () => {
      cache.forget([1, 2, 3, 4]);
      return { value: 'old' };
    });
    expect(cache.size).toBe(0);
  });

  it('keeps at most its bound, dropping the oldest', async () => {
    const cache = new ReadThroughCache<number, string>(60_000, 2);
    await cache.get(1, async () => ({ value: 'one' }));
    await cache.get(2, async () => ({ value: 'two' }));
    await cache.get(3, async () => ({ value: 'three' }));
    expect(cache.size).toBe(2);
    expect(await cache.get(1, async () => ({ value: 'one again' }))).toBe('one again');
    expect(await cache.get(3, async () => ({ value: 'three again' }))).toBe('three');
  });

  it('tells its listener of each forget unless asked to keep quiet', async () => {
    const cache = new ReadThroughCache<number, string>(60_000);
    const heard: Array<readonly number[] | 'all'> = [];
    cache.onForget((keys) => heard.push(keys));
    cache.forget([1, 2]);
    cache.forget([]);
    cache.forgetAll();
    cache.forget([3], { quiet: true });
    cache.forgetAll({ quiet: true });
    expect(heard).toEqual([[1, 2], 'all']);
  });

  it('forgets everything when turned off', async () => {
    const cache = new ReadThroughCache<number, string>(60_000);
    await cache.get(1, async () => ({ value: 'one' }));
    cache.setLifetime(0);
    expect(cache.size).toBe(0);
    expect(await cache.get(1, async () => ({ value: 'fresh' }))).toBe('fresh');
    expect(cache.size).toBe(0);
  });
});
