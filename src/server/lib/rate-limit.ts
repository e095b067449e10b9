/**
 * Fixed-window rate limits and growing waits after failures, shared by every server process: in Redis when
 * REDIS_URL is set, otherwise in the database. Nothing is counted in process memory.
 */
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { DB } from '../db/database';

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult>;
}

export function redisRateLimiter(redis: Redis): RateLimiter {
  return {
    async hit(key, limit, windowSeconds) {
      const redisKey = `ratelimit:${key}`;
      const [[, count], [, ttl]] = (await redis
        .multi()
        .incr(redisKey)
        .expire(redisKey, windowSeconds, 'NX')
        .ttl(redisKey)
        .exec()) as [[null, number], [null, number], [null, number]];
      return { allowed: count <= limit, retryAfterSeconds: Math.max(1, ttl) };
    },
  };
}

export function databaseRateLimiter(db: DB): RateLimiter {
  return {
    async hit(key, limit, windowSeconds) {
      const nowMs = Date.now();
      const windowStartMs = Math.floor(nowMs / (windowSeconds * 1000)) * windowSeconds * 1000;
      const row = await db
        .insertInto('rateLimitHits')
        .values({ key, windowStart: new Date(windowStartMs), hits: 1 })
        .onConflict((oc) => oc.columns(['key', 'windowStart']).doUpdateSet({ hits: sql`rate_limit_hits.hits + 1` }))
        .returning('hits')
        .executeTakeFirstOrThrow();
      if (Math.random() < 0.01) {
        await db
          .deleteFrom('rateLimitHits')
          .where('windowStart', '<', new Date(nowMs - 86_400_000))
          .execute();
      }
      const retryAfterSeconds = Math.max(1, Math.ceil((windowStartMs + windowSeconds * 1000 - nowMs) / 1000));
      return { allowed: row.hits <= limit, retryAfterSeconds };
    },
  };
}

/**
 * Growing waits after repeated failures (wrong passwords), in the same two stores as the fixed windows above.
 * A key may fail `freeFailures` times at no cost; the next failure makes it wait `baseSeconds`, and each
 * further failure doubles the wait up to `maxSeconds`. A key with no failure for `forgetSeconds` (after its
 * wait ends) starts over.
 *
 * An attempt counts as a failure before it is checked, in one atomic step, so attempts sent in parallel
 * cannot all slip through before the count catches up; a success takes its own count back.
 */
export interface BackoffPolicy {
  freeFailures: number;
  baseSeconds: number;
  maxSeconds: number;
  forgetSeconds: number;
}

export interface BackoffTicket {
  /** False: refused, the key is still waiting (the attempt counted as a further failure and the wait grew). */
  allowed: boolean;
  /** Seconds from now before the key may try again should this attempt fail; 0 when it may try at once. */
  waitSeconds: number;
}

export interface FailureBackoff {
  attempt(key: string, policy: BackoffPolicy): Promise<BackoffTicket>;
  /** The attempt succeeded: `reset` forgets every failure of the key, otherwise only this attempt's is taken back. */
  succeeded(key: string, policy: BackoffPolicy, reset: boolean): Promise<void>;
}

/** The wait in milliseconds after `failures` failures (0 within the free ones). */
export function backoffWaitMs(failures: number, policy: BackoffPolicy): number {
  const over = failures - policy.freeFailures;
  if (over <= 0) return 0;
  return Math.min(policy.maxSeconds, policy.baseSeconds * 2 ** Math.min(over - 1, 30)) * 1000;
}

const ATTEMPT_SCRIPT = `
local now, free, base, max, forget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local state = redis.call('HMGET', KEYS[1], 'failures', 'lockedUntil')
local failures = (tonumber(state[1]) or 0) + 1
local allowed = 0
if (tonumber(state[2]) or 0) <= now then allowed = 1 end
local wait = 0
if failures > free then wait = math.min(max, base * 2 ^ math.min(failures - free - 1, 30)) end
local lockedUntil = 0
if wait > 0 then lockedUntil = now + wait end
redis.call('HSET', KEYS[1], 'failures', failures, 'lockedUntil', lockedUntil)
redis.call('PEXPIRE', KEYS[1], wait + forget)
return {allowed, wait}`;

const TAKE_BACK_SCRIPT = `
local failures = tonumber(redis.call('HGET', KEYS[1], 'failures'))
if not failures then return 0 end
failures = math.max(0, failures - 1)
if failures <= tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'failures', failures, 'lockedUntil', 0)
else
  redis.call('HSET', KEYS[1], 'failures', failures)
end
return 1`;

export function redisFailureBackoff(redis: Redis): FailureBackoff {
  return {
    async attempt(key, policy) {
      const [allowed, waitMs] = (await redis.eval(
        ATTEMPT_SCRIPT,
        1,
        `backoff:${key}`,
        Date.now(),
        policy.freeFailures,
        policy.baseSeconds * 1000,
        policy.maxSeconds * 1000,
        policy.forgetSeconds * 1000,
      )) as [number, number];
      return { allowed: allowed === 1, waitSeconds: Math.ceil(waitMs / 1000) };
    },
    async succeeded(key, policy, reset) {
      if (reset) await redis.del(`backoff:${key}`);
      else await redis.eval(TAKE_BACK_SCRIPT, 1, `backoff:${key}`, policy.freeFailures);
    },
  };
}

export function databaseFailureBackoff(db: DB): FailureBackoff {
  return {
    attempt: (key, policy) =>
      db.transaction().execute(async (trx) => {
        const now = Date.now();
        await trx
          .insertInto('failureCounters')
          .values({ key, failures: 0, lockedUntil: null, expiresAt: new Date(now) })
          .onConflict((oc) => oc.column('key').doNothing())
          .execute();
        const row = await trx
          .selectFrom('failureCounters')
          .selectAll()
          .where('key', '=', key)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const live = new Date(row.expiresAt).getTime() > now;
        const failures = (live ? row.failures : 0) + 1;
        const lockedUntilMs = live && row.lockedUntil ? new Date(row.lockedUntil).getTime() : 0;
        const waitMs = backoffWaitMs(failures, policy);
        await trx
          .updateTable('failureCounters')
          .set({
            failures,
            lockedUntil: waitMs > 0 ? new Date(now + waitMs) : null,
            expiresAt: new Date(now + waitMs + policy.forgetSeconds * 1000),
          })
          .where('key', '=', key)
          .execute();
        if (Math.random() < 0.01) {
          await trx
            .deleteFrom('failureCounters')
            .where('expiresAt', '<', new Date(now - 86_400_000))
            .execute();
        }
        return { allowed: lockedUntilMs <= now, waitSeconds: Math.ceil(waitMs / 1000) };
      }),
    async succeeded(key, policy, reset) {
      if (reset) {
        await db.deleteFrom('failureCounters').where('key', '=', key).execute();
        return;
      }
      await db
        .updateTable('failureCounters')
        .set({
          failures: sql`greatest(failure_counters.failures - 1, 0)`,
          lockedUntil: sql`case when failure_counters.failures - 1 <= ${policy.freeFailures} then null else failure_counters.locked_until end`,
        })
        .where('key', '=', key)
        .execute();
    },
  };
}
