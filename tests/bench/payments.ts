/**
 * Paid-request throughput: workers each submit a request (quote + submission) and pay it from the wallet, on
 * PostgreSQL when BENCH_DATABASE_URL names one (a database of its own: the run empties it), else on the embedded
 * database. Baseline in the
 * same run and on the same server: the same workers asking price quotes only. Latency is per paid request
 * (quote + submit + pay), p50 and p99.
 */
import { postTransaction } from '../../src/server/modules/ledger/service';
import { bearer, post, type RunningServer, startServer, verifiedCustomer } from '../support/server';

const WORKERS = Number(process.env.BENCH_PAY_WORKERS ?? 8);
const SECONDS = Number(process.env.BENCH_PAY_SECONDS ?? 10);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(1));
}

/** Runs `once` in `WORKERS` loops for `SECONDS`; completed runs per second and their latencies. */
async function loop(once: (worker: number, i: number) => Promise<void>) {
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, worker) => {
      for (let i = 0; performance.now() < end; i++) {
        const t0 = performance.now();
        await once(worker, i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: Number((latencies.length / elapsed).toFixed(1)),
    count: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

async function expectOk(res: Awaited<ReturnType<typeof post>>, what: string) {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.body.msg}`);
  return res.body.data as Record<string, unknown>;
}

export async function benchPaidRequests() {
  const url = process.env.BENCH_DATABASE_URL;
  const previous = process.env.TEST_DATABASE_URL;
  if (url?.startsWith('postgres')) process.env.TEST_DATABASE_URL = url;
  let server: RunningServer | null = null;
  try {
    server = await startServer({ web: false });
    const s = server;
    const currencies = (await post(s, '/api/public/searchCurrencies')).body.data as {
      items: Array<{ id: number; code: string }>;
    };
    const groups = (await post(s, '/api/public/searchPaymentMethodGroups')).body.data as {
      items: Array<{ id: number; isCash: boolean }>;
    };
    const form = {
      currency: currencies.items.find((c) => c.code === 'USD')!.id,
      amount: 100,
      requestedPaymentMethodGroup: groups.items.find((g) => !g.isCash)!.id,
    };
    const tokens: string[] = [];
    for (let w = 0; w < WORKERS; w++) {
      const body = String(100_000_000 + w * 104_729).slice(-9);
      const sum = body.split('').reduce((acc, d, i) => acc + Number(d) * (10 - i), 0) % 11;
      const token = await verifiedCustomer(s, `0914${String(5_000_000 + w)}`, body + String(sum < 2 ? sum : 11 - sum));
      const me = await expectOk(await post(s, '/api/me/fetchUserData', undefined, bearer(token)), 'fetchUserData');
      // Enough in every wallet for any number of requests in the run.
      await s.app.database.db.transaction().execute((trx) =>
        postTransaction(trx, {
          type: 'transaction_B',
          userId: me.id as number,
          amounts: { collectionAmount: 1_000_000_000_000 },
        }),
      );
      tokens.push(token);
    }
    const quote = (worker: number) =>
      post(s, '/api/me/desks/toeflGeneralCpr/priceInquiry', form, bearer(tokens[worker]!));

    const quotesOnly = await loop(async (worker) => {
      await expectOk(await quote(worker), 'priceInquiry');
    });
    const paid = await loop(async (worker, i) => {
      const { quoteId } = await expectOk(await quote(worker), 'priceInquiry');
      const purchase = await expectOk(
        await post(
          s,
          '/api/me/desks/toeflGeneralCpr/requests',
          {
            ...form,
            quoteId,
            targetPageAddress: 'https://www.ets.org/toefl/pay',
            targetPageUsername: 'student1',
            targetPagePassword: 'secret',
          },
          { ...bearer(tokens[worker]!), 'idempotency-key': `bench-submit-${worker}-${i}` },
        ),
        'submitRequest',
      );
      const result = await expectOk(
        await post(
          s,
          '/api/me/payPurchase',
          { purchase: purchase.id },
          {
            ...bearer(tokens[worker]!),
            'idempotency-key': `bench-pay-${worker}-${i}`,
          },
        ),
        'payPurchase',
      );
      if (result.gatewayUrl !== null) throw new Error('the bench wallet did not cover a request');
    });
    return {
      database: s.app.database.kind,
      workers: WORKERS,
      seconds: SECONDS,
      paidRequestsPerSecond: paid.perSecond,
      paidRequests: paid.count,
      paidRequestP50Ms: paid.p50Ms,
      paidRequestP99Ms: paid.p99Ms,
      priceInquiriesPerSecond: quotesOnly.perSecond,
      ratioToPriceInquiry: Number((paid.perSecond / quotesOnly.perSecond).toFixed(3)),
    };
  } finally {
    await server?.stop();
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  }
}
