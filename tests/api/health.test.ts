/**
 * `/api/health` names each dependency (issue 33): the database, Redis when configured, the SMS driver, the gateway
 * and free disk, each with its state and latency; a side dependency down answers 200 "degraded" naming it, the
 * database down answers 503; outside services are reached at most once a minute however often health is asked;
 * `/api/health/live` says only that the process runs.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server';

const health = async (server: RunningServer) => {
  const res = await fetch(`${server.url}/api/health`);
  return { status: res.status, body: (await res.json()) as { result: boolean; msg: string; data: HealthData } };
};

interface HealthData {
  status: string;
  database: string;
  checks: Record<string, { state: string; latencyMs: number; detail: string }>;
}

describe('health per dependency', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ web: false });
  });
  afterAll(async () => server.stop());

  it('answers every dependency with its state and latency', async () => {
    const { status, body } = await health(server);
    expect(status).toBe(200);
    expect(body.data.status).toBe('ok');
    const expected = ['database', 'sms', 'gateway', 'disk', ...(process.env.TEST_REDIS_URL ? ['redis'] : [])];
    expect(Object.keys(body.data.checks).sort()).toEqual(expected.sort());
    for (const check of Object.values(body.data.checks)) {
      expect(check.state).toBe('ok');
      expect(Number.isInteger(check.latencyMs) && check.latencyMs >= 0).toBe(true);
    }
    expect(body.data.checks.disk?.detail).toMatch(/MiB free in DATA_DIR/);
    expect(body.data.database).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('answers liveness without checking anything', async () => {
    const res = await fetch(`${server.url}/api/health/live`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: true, msg: '', data: { live: true } });
  });
});

describe('outside services', () => {
  let gatewayHits = 0;
  let smsHits = 0;
  let fake: Server;
  let server: RunningServer;
  beforeAll(async () => {
    fake = createServer((req, res) => {
      if (req.url?.startsWith('/sms')) smsHits++;
      else gatewayHits++;
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const { port } = fake.address() as AddressInfo;
    server = await startServer({
      web: false,
      env: {
        PAYMENT_GATEWAY: 'zarinpal',
        ZARINPAL_MERCHANT_ID: '00000000-0000-0000-0000-000000000000',
        ZARINPAL_BASE_URL: `http://127.0.0.1:${port}/zarinpal`,
        SMS_DRIVER: 'kavenegar',
        KAVENEGAR_API_KEY: 'test-key',
        KAVENEGAR_TEMPLATE: 'login',
        // A port nothing listens on: the SMS provider cannot be reached.
        KAVENEGAR_BASE_URL: 'http://127.0.0.1:9/sms',
      },
    });
  });
  afterAll(async () => {
    await server.stop();
    await new Promise((resolve) => fake.close(resolve));
  });

  it('names an unreachable SMS provider and stays 200, degraded', async () => {
    const { status, body } = await health(server);
    expect(status).toBe(200);
    expect(body.result).toBe(true);
    expect(body.data.status).toBe('degraded');
    expect(body.data.checks.sms?.state).toBe('down');
    expect(body.data.checks.gateway).toMatchObject({ state: 'ok', detail: expect.stringContaining('HTTP 404') });
    expect(body.data.checks.database?.state).toBe('ok');
  });

  it('reaches the gateway at most once a minute however often health is asked', async () => {
    for (let i = 0; i < 5; i++) await health(server);
    await Promise.all(Array.from({ length: 5 }, () => health(server)));
    expect(gatewayHits).toBe(1);
    expect(smsHits).toBe(0);
  });
});

describe('the database down', () => {
  it('answers 503 with the report, and liveness still 200', async () => {
    const server = await startServer({ web: false });
    let closed = false;
    try {
      await server.app.database.close();
      closed = true;
      const { status, body } = await health(server);
      expect(status).toBe(503);
      expect(body.result).toBe(false);
      expect(body.msg).toBe('سرویس موقتا در دسترس نیست: پایگاه داده پاسخ نمی‌دهد.');
      expect(body.data.status).toBe('down');
      expect(body.data.checks.database?.state).toBe('down');
      expect(body.data.checks.disk?.state).toBe('ok');
      expect((await fetch(`${server.url}/api/health/live`)).status).toBe(200);
    } finally {
      await server.stop().catch((error: unknown) => {
        // The handle was closed on purpose; closing it again at stop may refuse.
        if (!closed) throw error;
      });
    }
  });
});

/** A TCP proxy in front of the real Redis, so a test can take Redis away from one server and give it back. */
async function redisProxy(target: URL) {
  const sockets = new Set<Socket>();
  let up = true;
  const proxy = createTcpServer((client) => {
    if (!up) return client.destroy();
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    /** Redis stops answering this server: open connections are cut and new ones refused. */
    stop() {
      up = false;
      for (const s of sockets) s.destroy();
    },
    start() {
      up = true;
    },
    close: () => new Promise((resolve) => proxy.close(resolve)),
  };
}

describe.skipIf(!process.env.TEST_REDIS_URL)('Redis down', () => {
  it(
    'is named in health (200, degraded) while the server keeps serving, and recovers',
    { timeout: 120_000 },
    async () => {
      const proxy = await redisProxy(new URL(process.env.TEST_REDIS_URL!));
      const server = await startServer({ web: false, env: { REDIS_URL: proxy.url } });
      try {
        expect((await health(server)).body.data.checks.redis?.state).toBe('ok');
        proxy.stop();
        const { status, body } = await health(server);
        expect(status).toBe(200);
        expect(body.data.status).toBe('degraded');
        expect(body.data.checks.redis?.state).toBe('down');
        expect(body.data.checks.database?.state).toBe('ok');
        // The public rates are served from the database while Redis is away.
        const rates = await fetch(`${server.url}/api/public/searchCurrencies`, { method: 'POST' });
        expect(rates.status).toBe(200);
        proxy.start();
        // Redis back: the next reconnection finds it; the limit only stops a hang on a busy machine.
        await expect.poll(async () => (await health(server)).body.data.status, { timeout: 90_000 }).toBe('ok');
      } finally {
        await server.stop();
        await proxy.close();
      }
    },
  );
});
