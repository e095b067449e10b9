/**
 * Paid-request throughput (issue 50 point 4): WORKERS customers each, over and over, ask a price, submit the request
 * and pay it from their wallet over HTTP; paid requests a second, and the latency of one paid request (quote + submit
 * + pay), p50 and p99. Baseline in the same run and on the same servers: the same customers asking price quotes only.
 *
 * With BENCH_DATABASE_URL (a PostgreSQL server; the bench creates and drops its own database `arzpay_bench_pay` on
 * it) and BENCH_REDIS_URL, the production shape: two server processes (src/server/start.ts) on that database and
 * Redis, notifications and realtime on, each customer's private channel open on a socket, the customers spread over
 * the two processes. Otherwise one in-process server on the embedded database. After the run the ledger's invariants
 * are checked on the database itself: a figure from a ledger that does not balance is refused (the bench fails).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { openDatabase, type DB } from '../../src/server/db/database';
import { checkInvariants } from '../../src/server/modules/ledger/invariants';
import { postTransaction } from '../../src/server/modules/ledger/service';
import { isLoginCodeSms, loginCodeIn } from '../support/sms-code';
import {
  ADMIN_MOBILE,
  ADMIN_PASSWORD,
  bearer,
  post,
  type ServerAddress,
  startServer,
  verifiedCustomer,
} from '../support/server';
import { startProcess, stop } from './sockets';

const WORKERS = Number(process.env.BENCH_PAY_WORKERS ?? 8);
const SECONDS = Number(process.env.BENCH_PAY_SECONDS ?? 10);
const BENCH_DATABASE = 'arzpay_bench_pay';

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

/** Where the bench runs: the servers (customer `w` talks to `servers[w % length]`) and their database. */
interface Target {
  database: string;
  servers: ServerAddress[];
  db: DB;
  /** CPU time the server processes have used so far, in ms (null in this process: the bench's own is in it). */
  serverCpuMs(): number | null;
  stop(): Promise<void>;
}

/** User + system CPU time of a process, in ms, from /proc (Linux; clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One server in this process on the embedded database (no PostgreSQL named). */
async function embedded(): Promise<Target> {
  const previous = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  const server = await startServer({ web: false });
  if (previous !== undefined) process.env.TEST_DATABASE_URL = previous;
  return {
    database: server.app.database.kind,
    servers: [server],
    db: server.app.database.db,
    serverCpuMs: () => null,
    stop: server.stop,
  };
}

/** The last log-in code a child server's `log` SMS driver wrote to its log file for a mobile number. */
function smsCodesIn(logFile: string): ServerAddress['lastSmsCode'] {
  return (mobileNo) => {
    const lines = readFileSync(logFile, 'utf8').split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      if (!lines[i]!.includes('"msg":"sms"') || !lines[i]!.includes(mobileNo)) continue;
      const sms = JSON.parse(lines[i]!) as { mobileNo?: string; text?: string };
      if (sms.mobileNo === mobileNo && isLoginCodeSms(sms.text)) return loginCodeIn(sms.text);
    }
    return null;
  };
}

/** Two server processes on a fresh PostgreSQL database and Redis, as production runs them. */
async function twoProcesses(serverUrl: string, redisUrl: string): Promise<Target> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${BENCH_DATABASE} with (force)`);
  await admin.query(`create database ${BENCH_DATABASE}`);
  const url = new URL(serverUrl);
  url.pathname = `/${BENCH_DATABASE}`;
  const env = {
    DATABASE_URL: url.toString(),
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: `bench-pay-${Date.now()}:`,
    ADMIN_USERNAME: ADMIN_MOBILE,
    ADMIN_PASSWORD,
    SMS_LIMIT_PER_IP: '100000',
    RECONCILE_HOUR: 'off',
  };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-bench-pay-'));
  const logs = [path.join(dataDir, 'a.log'), path.join(dataDir, 'b.log')];
  // One after the other: the first migrates the empty database and seeds it.
  const processes = [await startProcess(env, logs[0])];
  processes.push(await startProcess(env, logs[1]));
  const servers = processes.map((p, i) => ({ url: p.url, lastSmsCode: smsCodesIn(logs[i]!) }));
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir });
  return {
    database: 'postgres, two processes, redis',
    servers,
    db: handle.db,
    serverCpuMs: () => processes.reduce((sum, p) => sum + cpuMsOf(p.child.pid!), 0),
    async stop() {
      await handle.close();
      await Promise.all(processes.map((p) => stop(p.child)));
      await admin.query(`drop database if exists ${BENCH_DATABASE} with (force)`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A customer's page listening on their private channel: counts the live events that reach it. */
async function listen(server: ServerAddress, token: string, uid: string, events: Map<string, number>) {
  const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true });
  socket.onAny((event: string) => events.set(event, (events.get(event) ?? 0) + 1));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => {
      const channel = `private-user.${uid}`;
      socket.emit('subscribe', { channel, auth: { headers: bearer(`${token}`) } });
      socket.once('subscription_succeeded', () => resolve());
    });
    socket.once('subscription_error', (channel: string, status: number) =>
      reject(new Error(`subscribing ${channel} refused: ${status}`)),
    );
    socket.once('connect_error', reject);
  });
  return socket;
}

export async function benchPaidRequests() {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL;
  if (pgUrl?.startsWith('postgres') && !redisUrl) throw new Error('BENCH_DATABASE_URL needs BENCH_REDIS_URL beside it');
  const target = pgUrl?.startsWith('postgres') && redisUrl ? await twoProcesses(pgUrl, redisUrl) : await embedded();
  const sockets: Socket[] = [];
  try {
    const at = (worker: number) => target.servers[worker % target.servers.length]!;
    const first = at(0);
    const currencies = (await post(first, '/api/public/searchCurrencies')).body.data as {
      items: Array<{ id: number; code: string }>;
    };
    const groups = (await post(first, '/api/public/searchPaymentMethodGroups')).body.data as {
      items: Array<{ id: number; isCash: boolean }>;
    };
    const form = {
      currency: currencies.items.find((c) => c.code === 'USD')!.id,
      amount: 100,
      requestedPaymentMethodGroup: groups.items.find((g) => !g.isCash)!.id,
    };
    const tokens: string[] = [];
    const liveEvents = new Map<string, number>();
    for (let w = 0; w < WORKERS; w++) {
      const body = String(100_000_000 + w * 104_729).slice(-9);
      const sum = body.split('').reduce((acc, d, i) => acc + Number(d) * (10 - i), 0) % 11;
      const token = await verifiedCustomer(
        at(w),
        `0914${String(5_000_000 + w)}`,
        body + String(sum < 2 ? sum : 11 - sum),
      );
      const me = await expectOk(await post(at(w), '/api/me/fetchUserData', undefined, bearer(token)), 'fetchUserData');
      // Enough in every wallet for any number of requests in the run.
      await target.db.transaction().execute((trx) =>
        postTransaction(trx, {
          type: 'transaction_B',
          userId: me.id as number,
          amounts: { collectionAmount: 1_000_000_000_000 },
        }),
      );
      if (target.servers.length > 1) sockets.push(await listen(at(w), token, String(me.uid), liveEvents));
      tokens.push(token);
    }
    const quote = (worker: number) =>
      post(at(worker), '/api/me/desks/toeflGeneralCpr/priceInquiry', form, bearer(tokens[worker]!));

    const quotesOnly = await loop(async (worker) => {
      await expectOk(await quote(worker), 'priceInquiry');
    });
    const steps = { quote: [] as number[], submit: [] as number[], pay: [] as number[] };
    const timed = async <R>(list: number[], run: () => Promise<R>) => {
      const t0 = performance.now();
      const result = await run();
      list.push(performance.now() - t0);
      return result;
    };
    const cpuBefore = target.serverCpuMs();
    const paid = await loop(async (worker, i) => {
      const { quoteId } = await expectOk(await timed(steps.quote, () => quote(worker)), 'priceInquiry');
      const purchase = await expectOk(
        await timed(steps.submit, () =>
          post(
            at(worker),
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
        ),
        'submitRequest',
      );
      const result = await expectOk(
        await timed(steps.pay, () =>
          post(
            at(worker),
            '/api/me/payPurchase',
            { purchase: purchase.id },
            { ...bearer(tokens[worker]!), 'idempotency-key': `bench-pay-${worker}-${i}` },
          ),
        ),
        'payPurchase',
      );
      if (result.gatewayUrl !== null) throw new Error('the bench wallet did not cover a request');
    });
    const cpuAfter = target.serverCpuMs();
    // The figure counts only if the money it moved is sound.
    const problems = await checkInvariants(target.db);
    if (problems.length > 0)
      throw new Error(`the ledger's invariants do not hold after the run:\n${problems.join('\n')}`);
    const paidRows = await target.db
      .selectFrom('purchases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', '=', 'paid')
      .executeTakeFirstOrThrow();
    if (Number(paidRows.n) !== paid.count)
      throw new Error(`${paid.count} payments answered, ${paidRows.n} requests paid`);
    return {
      database: target.database,
      processes: target.servers.length,
      workers: WORKERS,
      seconds: SECONDS,
      paidRequestsPerSecond: paid.perSecond,
      paidRequests: paid.count,
      paidRequestP50Ms: paid.p50Ms,
      paidRequestP99Ms: paid.p99Ms,
      priceInquiriesPerSecond: quotesOnly.perSecond,
      ratioToPriceInquiry: Number((paid.perSecond / quotesOnly.perSecond).toFixed(3)),
      // Where a paid request's time goes, and what it costs the servers whatever else the machine runs.
      stepP50Ms: Object.fromEntries(
        Object.entries(steps).map(([step, list]) => [
          step,
          percentile(
            list.sort((a, b) => a - b),
            50,
          ),
        ]),
      ),
      serverCpuMsPerPaidRequest:
        cpuBefore === null || cpuAfter === null ? null : Number(((cpuAfter - cpuBefore) / paid.count).toFixed(1)),
      ledgerInvariants: 'hold',
      liveEventsReceived: Object.fromEntries(liveEvents),
      loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
    };
  } finally {
    for (const s of sockets) s.disconnect();
    await target.stop();
  }
}
