/**
 * The client's address behind a proxy (issue 15, point 1): X-Forwarded-For is believed only from the proxies
 * TRUST_PROXY names, so a client cannot dodge the per-address limit by writing the header itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { type RunningServer, startServer } from '../support/server';

/** Fixed windows start on the clock: a day-long one is not crossed while a test runs. */
const DAY = '86400';

/** 45 code requests for 45 numbers, each claiming another address, from this one process. */
async function requestCodes(server: RunningServer, forwardedFor: (i: number) => string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 45; i++) {
    const res = await fetch(`${server.url}/api/public/sendMobileValidationCode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor(i) },
      body: JSON.stringify({ mobileNo: `0936${String(1_000_000 + i)}` }),
    });
    statuses.push(res.status);
  }
  return statuses;
}

describe('without TRUST_PROXY (the default)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ web: false, env: { SMS_LIMIT_PER_IP: '10', SMS_LIMIT_WINDOW_SECONDS: DAY } });
  });
  afterAll(async () => server?.stop());

  it('ignores forged X-Forwarded-For: 45 made-up addresses from one client hit the per-address limit', async () => {
    const statuses = await requestCodes(server, (i) => `203.0.113.${i + 1}`);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual(Array(35).fill(429));
  });
});

describe('with TRUST_PROXY naming the proxy', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      web: false,
      env: { SMS_LIMIT_PER_IP: '10', SMS_LIMIT_WINDOW_SECONDS: DAY, TRUST_PROXY: '127.0.0.1' },
    });
  });
  afterAll(async () => server?.stop());

  it('takes the client address from the header the proxy adds', async () => {
    // Each customer behind the proxy has an address of their own, so none is held back by the others.
    const distinct = await requestCodes(server, (i) => `198.51.100.${i + 1}`);
    expect(distinct).toEqual(Array(45).fill(200));
    // One customer is still one address: the limit applies to it, whatever the client wrote before it.
    const one = await requestCodes(server, (i) => `192.0.2.${i}, 198.51.200.7`);
    expect(one.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(one.slice(10)).toEqual(Array(35).fill(429));
  });
});

describe('TRUST_PROXY configuration', () => {
  it('is off by default and takes proxy addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 172.16.0.0/12,::1' }).trustProxy).toEqual([
      '10.0.0.5',
      '172.16.0.0/12',
      '::1',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
  });

  it('refuses trusting any sender, hop counts and bad addresses with one line naming TRUST_PROXY', () => {
    for (const bad of ['true', '2', 'nginx', '10.0.0.0/33', '10.0.0.1,,10.0.0.2', '300.1.1.1']) {
      let error: unknown;
      try {
        loadConfig({ TRUST_PROXY: bad });
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^TRUST_PROXY must be /);
      expect((error as Error).message).not.toContain('\n');
    }
  });
});
