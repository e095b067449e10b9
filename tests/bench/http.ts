/**
 * Price inquiries per second under autocannon, against a bare Fastify JSON route started in the same run: on the
 * embedded database, and on PostgreSQL when BENCH_DATABASE_URL names a database of its own (the run empties it),
 * with Redis when REDIS_URL is set, as several processes on PostgreSQL run (without it a process keeps no sessions
 * or balances in memory, decision 022).
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { loginByCode, startServer } from '../support/server';

const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 8);

async function run(opts: autocannon.Options): Promise<number> {
  const result = await autocannon({ connections: 20, duration: SECONDS, ...opts });
  return Math.round(result.requests.average);
}

async function bareFastifyRps(): Promise<number> {
  const bare = Fastify({ logger: false });
  bare.post('/bare', async () => ({ result: true, msg: '', data: { ok: 1 } }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const address = bare.server.address() as { port: number };
  try {
    return await run({
      url: `http://127.0.0.1:${address.port}/bare`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
  } finally {
    await bare.close();
  }
}

async function inquiryRps(): Promise<{ database: string; redis: boolean; priceInquiryRps: number }> {
  const server = await startServer({ web: false });
  try {
    const token = await loginByCode(server, '09129990000');
    const list = async <T>(path: string) =>
      (
        (await (
          await fetch(`${server.url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          })
        ).json()) as { data: { items: T[] } }
      ).data.items;
    const currencies = await list<{ id: number; code: string }>('/api/public/searchCurrencies');
    const groups = await list<{ id: number; isCash: boolean }>('/api/public/searchPaymentMethodGroups');
    const body = JSON.stringify({
      currency: currencies.find((c) => c.code === 'USD')!.id,
      amount: 250,
      requestedPaymentMethodGroup: groups.find((g) => !g.isCash)!.id,
    });
    const priceInquiryRps = await run({
      url: `${server.url}/api/me/desks/uafCpr/priceInquiry`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    return { database: server.app.database.kind, redis: server.app.redis !== null, priceInquiryRps };
  } finally {
    await server.stop();
  }
}

export async function benchPriceInquiry() {
  const bareRps = await bareFastifyRps();
  const ratio = (rps: number) => Number((rps / bareRps).toFixed(3));
  const previous = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  const embedded = await inquiryRps();
  let postgres: (Awaited<ReturnType<typeof inquiryRps>> & { ratio: number }) | string =
    'not measured: set BENCH_DATABASE_URL';
  const url = process.env.BENCH_DATABASE_URL;
  if (url?.startsWith('postgres')) {
    process.env.TEST_DATABASE_URL = url;
    const previousRedis = process.env.TEST_REDIS_URL;
    if (process.env.REDIS_URL) process.env.TEST_REDIS_URL = process.env.REDIS_URL;
    try {
      const measured = await inquiryRps();
      postgres = { ...measured, ratio: ratio(measured.priceInquiryRps) };
    } finally {
      if (previous === undefined) delete process.env.TEST_DATABASE_URL;
      else process.env.TEST_DATABASE_URL = previous;
      if (previousRedis === undefined) delete process.env.TEST_REDIS_URL;
      else process.env.TEST_REDIS_URL = previousRedis;
    }
  } else if (previous !== undefined) {
    process.env.TEST_DATABASE_URL = previous;
  }
  return {
    bareFastifyRps: bareRps,
    embedded: { ...embedded, ratio: ratio(embedded.priceInquiryRps) },
    postgres,
  };
}
