/** The Redis connection several processes share (rate limits, login back-off, word between processes). */
import { Redis } from 'ioredis';

export class RedisUnavailableError extends Error {}

export async function connectRedis(url: string, keyPrefix: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5000, keyPrefix });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const where = new URL(url);
    throw new RedisUnavailableError(
      `cannot connect to Redis at ${where.hostname}:${where.port || 6379}: ${(error as Error).message}`,
    );
  }
  return redis;
}
