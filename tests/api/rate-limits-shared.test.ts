/**
 * Rate limits are shared through Redis (issue 12, decision 017): two server instances, each with its own embedded
 * database, one Redis and one key prefix, spend one count — of log-in codes per mobile number, and of wrong passwords
 * per address. Runs when TEST_REDIS_URL is set (`npm test` sets it from REDIS_URL in the PostgreSQL run; CI sets it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, type RunningServer, startServer } from '../support/server';

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('rate limits across two server instances sharing Redis', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
  });

  const env = {
    // Separate databases: whatever both see can only come from Redis.
    DATABASE_URL: 'memory://',
    REDIS_URL: redisUrl!,
    REDIS_KEY_PREFIX: `shared-limits-${process.pid}-${Date.now()}:`,
    SMS_LIMIT_PER_MOBILE: '3',
    SMS_LIMIT_PER_IP: '1000',
    LOGIN_FAILURES_PER_IP: '2',
    LOGIN_FAILURES_PER_ACCOUNT: '1000',
  };
  beforeAll(async () => {
    servers.push(await startServer({ web: false, env }));
    servers.push(await startServer({ web: false, env }));
  }, 300_000);

  it('counts code requests and wrong passwords once for both', async () => {
    const [one, two] = servers as [RunningServer, RunningServer];

    const mobileNo = '09127770001';
    for (const server of [one, one, two]) {
      const sent = await post(server, '/api/public/sendMobileValidationCode', { mobileNo });
      expect(sent.status, sent.body.msg).toBe(200);
    }
    const fourth = await post(two, '/api/public/sendMobileValidationCode', { mobileNo });
    expect(fourth.status).toBe(429);
    expect(fourth.body.msg).toMatch(/[\u0600-\u06FF]/);
    const onOne = await post(one, '/api/public/sendMobileValidationCode', { mobileNo });
    expect(onOne.status).toBe(429);

    const wrong = { username: '09127770002', password: 'not-the-password' };
    for (const server of [one, two]) {
      const res = await post(server, '/api/me/loginByPassword', wrong);
      expect(res.status, res.body.msg).not.toBe(429);
    }
    const third = await fetch(`${one.url}/api/me/loginByPassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(wrong),
    });
    const answer = (await third.json()) as { msg: string };
    // Free failures spent on both instances: the next attempt, on either, waits.
    expect(third.status, answer.msg).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
