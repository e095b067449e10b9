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
/** Each route is measured in this many alternating rounds of SECONDS / ROUNDS each. */
const ROUNDS = 4;

interface Target {
  url: string;
  headers: Record<string, string>;
  body: string;
}

async function rps(target: Target, seconds: number): Promise<number> {
  const result = await autocannon({ connections: 20, duration: seconds, method: 'POST', ...target });
  return result.requests.average;
}

/**
 * Requests per second of a route and of the bare route, measured in alternating rounds, and their ratio: the median
 * of the rounds' ratios. This machine's speed drifts by the minute (the bare route alone measured 9,000 to 32,000 a
 * second on one day), so two figures taken one after the other compare two different machines; a round pairs two
 * measurements taken seconds apart.
 */
async function alternating(target: Target, bare: Target): Promise<{ rps: number; bareRps: number; ratio: number }> {
  const seconds = Math.max(1, Math.round(SECONDS / ROUNDS));
  await rps(bare, 1); // warm both up: the first second of a route runs unoptimised code
  await rps(target, 1);
  const rounds: Array<{ rps: number; bare: number }> = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push({ bare: await rps(bare, seconds), rps: await rps(target, seconds) });
  const ratios = rounds.map((r) => r.rps / r.bare).sort((a, b) => a - b);
  const median = (ratios[(ROUNDS - 1) >> 1]! + ratios[ROUNDS >> 1]!) / 2;
  const mean = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) / values.length);
  return {
    rps: mean(rounds.map((r) => r.rps)),
    bareRps: mean(rounds.map((r) => r.bare)),
    ratio: Number(median.toFixed(3)),
  };
}

async function withBareFastify<T>(measure: (bare: Target) => Promise<T>): Promise<T> {
  const bare = Fastify({ logger: false });
  bare.post('/bare', async () => ({ result: true, msg: '', data: { ok: 1 } }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const address = bare.server.address() as { port: number };
  try {
    return await measure({
      url: `http://127.0.0.1:${address.port}/bare`,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
  } finally {
    await bare.close();
  }
}

interface InquiryFigures {
  database: string;
  redis: boolean;
  priceInquiryRps: number;
  bareFastifyRps: number;
  ratio: number;
}

async function inquiryAgainstBare(bare: Target): Promise<InquiryFigures> {
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
    const measured = await alternating(
      {
        url: `${server.url}/api/me/desks/uafCpr/priceInquiry`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      },
      bare,
    );
    return {
      database: server.app.database.kind,
      redis: server.app.redis !== null,
      priceInquiryRps: measured.rps,
      bareFastifyRps: measured.bareRps,
      ratio: measured.ratio,
    };
  } finally {
    await server.stop();
  }
}

export async function benchPriceInquiry() {
  return withBareFastify(async (bare) => {
    const previous = process.env.TEST_DATABASE_URL;
    delete process.env.TEST_DATABASE_URL;
    const embedded = await inquiryAgainstBare(bare);
    let postgres: InquiryFigures | string = 'not measured: set BENCH_DATABASE_URL';
    const url = process.env.BENCH_DATABASE_URL;
    if (url?.startsWith('postgres')) {
      process.env.TEST_DATABASE_URL = url;
      const previousRedis = process.env.TEST_REDIS_URL;
      if (process.env.REDIS_URL) process.env.TEST_REDIS_URL = process.env.REDIS_URL;
      try {
        postgres = await inquiryAgainstBare(bare);
      } finally {
        if (previousRedis === undefined) delete process.env.TEST_REDIS_URL;
        else process.env.TEST_REDIS_URL = previousRedis;
      }
    }
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
    return { embedded, postgres };
  });
}
