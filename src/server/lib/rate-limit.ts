/**
 * Fixed-window rate limiting shared by every server process: in Redis when REDIS_URL is set,
 * otherwise in the database. Nothing is counted in process memory.
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
