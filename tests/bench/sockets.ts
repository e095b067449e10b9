/**
 * Real-time fan-out: N socket.io clients (the wire protocol laravel-echo uses, spread over BENCH_SOCKET_WORKERS
 * threads) subscribed to the public channel of one server process, one broadcast caused by a staff rate change,
 * delivery latency p50/p99 from the moment the change is sent. Then a rate change with BENCH_DESK_PAGES open desk
 * pages: how long until every page holds a quote at the new rate. The fan-out again across two processes through
 * Redis when DATABASE_URL and REDIS_URL are set.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { REQUOTE_SPREAD_MS } from '../../src/shared/requote';
import type { ClientsJob, ClientsMessage } from './socket-clients';

const root = path.resolve(import.meta.dirname, '../..');
const ADMIN = { username: '09120000000', password: 'bench-admin-password' };

/**
 * Starts src/server/start.ts. With `logFile`, its output goes to that file instead of a pipe to this process, as a
 * server's log goes to a file or the journal: a pipe this busy process reads late would hold the server's
 * synchronous log writes (the `log` SMS driver's) and measure the bench, not the server.
 */
export function startProcess(
  env: Record<string, string>,
  logFile?: string,
): Promise<{ child: ChildProcess; url: string }> {
  // BENCH_SERVER_EXEC_ARGS adds Node options to the server process (`--cpu-prof --cpu-prof-dir=…` to profile it).
  const execArgs = process.env.BENCH_SERVER_EXEC_ARGS?.split(' ').filter(Boolean) ?? [];
  const log = logFile === undefined ? null : openSync(logFile, 'a');
  const child = spawn(process.execPath, [...execArgs, '--import', 'tsx', 'src/server/start.ts'], {
    cwd: root,
    ...(log === null ? {} : { stdio: ['ignore', log, log] }),
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      WEB_DIR: '/nonexistent',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'arzpay-bench-')),
      ...env,
    },
  });
  if (log !== null) closeSync(log);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out.slice(-500)}`)), 300_000);
    const onData = (d: Buffer | string) => {
      out += d;
      const match = /"port":(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve({ child, url: `http://127.0.0.1:${match[1]}` });
      }
    };
    const poll = setInterval(() => {
      if (logFile !== undefined) onData(readFileSync(logFile, 'utf8').slice(out.length));
    }, 100);
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d) => {
      out += d;
    });
  });
}

/** Sends SIGTERM and resolves once the process has exited. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function json(url: string, body: unknown, token?: string): Promise<{ data: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { data: Record<string, unknown> };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const WORKERS = Number(process.env.BENCH_SOCKET_WORKERS ?? 4);
const now = () => performance.timeOrigin + performance.now();

interface Clients {
  /** Resolves with every worker's times once each has its answer or `timeoutMs` passed. */
  results(timeoutMs: number): Promise<{ delivered: number[]; requoted: number[]; failures: number }>;
  close(): Promise<void>;
}

/** `n` socket.io clients on the public channel, spread over WORKERS threads; resolves once all are subscribed. */
async function startClients(url: string, n: number, deskPage?: ClientsJob['deskPage']): Promise<Clients> {
  const threads = Math.max(1, Math.min(WORKERS, n));
  const workers = Array.from({ length: threads }, (_, w) => {
    const count = Math.floor(n / threads) + (w < n % threads ? 1 : 0);
    const job: ClientsJob = { url, count, deskPage };
    return new Worker(new URL('./ts-worker.mjs', import.meta.url), {
      workerData: { ...job, module: new URL('./socket-clients.ts', import.meta.url).href },
    });
  });
  const done = workers.map(
    (worker) =>
      new Promise<Extract<ClientsMessage, { kind: 'done' }>>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('message', (m: ClientsMessage) => {
          if (m.kind === 'done') resolve(m);
        });
      }),
  );
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          worker.on('error', reject);
          worker.on('message', (m: ClientsMessage) => {
            if (m.kind === 'ready') resolve();
          });
        }),
    ),
  );
  return {
    async results(timeoutMs) {
      const timer = setTimeout(() => {
        for (const w of workers) w.postMessage('report');
      }, timeoutMs);
      const all = await Promise.all(done);
      clearTimeout(timer);
      return {
        delivered: all.flatMap((d) => d.delivered),
        requoted: all.flatMap((d) => d.requoted),
        failures: all.reduce((sum, d) => sum + d.failures, 0),
      };
    },
    async close() {
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve) => {
              w.once('exit', () => resolve());
              w.postMessage('close');
            }),
        ),
      );
    },
  };
}

/**
 * A change of the USD rate by one rial through `writeUrl` as the administrator, ready to send: the current row is
 * read first, so that `send()` is the one request that changes the rate. Resolves when the answer is in; `sentAt`
 * is when its request left.
 */
async function rateChange(writeUrl: string, token: string): Promise<{ send(): Promise<{ sentAt: number }> }> {
  const list = await json(`${writeUrl}/api/public/searchCurrencies`, { search: 'USD' });
  const usd = (list.data.items as Array<Record<string, unknown>>)[0]!;
  return {
    async send() {
      const sentAt = now();
      await json(
        `${writeUrl}/api/sys/saveCurrency`,
        {
          id: usd.id,
          title: usd.title,
          code: 'USD',
          rate: Number(usd.rate) + 1,
          useForUafCpr: usd.useForUafCpr,
          useForGoogleAdsAccountCr: usd.useForGoogleAdsAccountCr,
        },
        token,
      );
      return { sentAt };
    },
  };
}

/** Changes the USD rate by one rial; resolves when the change was made. */
async function changeRate(writeUrl: string, token: string): Promise<void> {
  await (await rateChange(writeUrl, token)).send();
}

const stats = (times: number[], from: number) => {
  const latencies = times.map((t) => t - from).sort((a, b) => a - b);
  return {
    p50Ms: Number(percentile(latencies, 50).toFixed(1)),
    p99Ms: Number(percentile(latencies, 99).toFixed(1)),
    maxMs: Number((latencies.at(-1) ?? 0).toFixed(1)),
  };
};

/** Connects N clients to `listenUrl`, changes a rate through `writeUrl`, and measures each delivery. */
async function measure(listenUrl: string, writeUrl: string, n: number) {
  const login = await json(`${writeUrl}/api/me/loginByPassword`, ADMIN);
  const token = String(login.data.userToken);
  // A first change with no one listening, so that the one measured is not the server's first write of a rate.
  await changeRate(writeUrl, token);
  const clients = await startClients(listenUrl, n);
  try {
    const change = await rateChange(writeUrl, token);
    const { sentAt } = await change.send();
    const { delivered } = await clients.results(15_000);
    return { sockets: n, delivered: delivered.length, ...stats(delivered, sentAt) };
  } finally {
    await clients.close();
  }
}

/**
 * A rate change with N open desk pages: each page listens on the public channel and, on the change, asks for a new
 * quote after the web's requoteDelay(); how long until every page holds a quote at the new rate.
 */
async function measureDeskPages(url: string, pages: number) {
  const tokens: string[] = [];
  for (let i = 0; i < 8; i++) tokens.push(String((await json(`${url}/api/me/loginByPassword`, ADMIN)).data.userToken));
  const currencies = await json(`${url}/api/public/searchCurrencies`, { search: 'USD' });
  const groups = await json(`${url}/api/public/searchPaymentMethodGroups`, {});
  const body = {
    currency: (currencies.data.items as Array<{ id: number }>)[0]!.id,
    amount: 250,
    requestedPaymentMethodGroup: (groups.data.items as Array<{ id: number; isCash: boolean }>).find((g) => !g.isCash)!
      .id,
  };
  const clients = await startClients(url, pages, { tokens, desk: 'uafCpr', body });
  try {
    const change = await rateChange(url, tokens[0]!);
    const { sentAt } = await change.send();
    const { delivered, requoted, failures } = await clients.results(60_000);
    const all = stats(requoted, sentAt);
    return {
      pages,
      requoteSpreadMs: REQUOTE_SPREAD_MS,
      delivered: delivered.length,
      requoted: requoted.length,
      failures,
      newPriceOnEveryPageMs: requoted.length === pages ? all.maxMs : null,
      p50Ms: all.p50Ms,
      p99Ms: all.p99Ms,
    };
  } finally {
    await clients.close();
  }
}

export async function benchSockets(n: number, deskPages = Number(process.env.BENCH_DESK_PAGES ?? 1000)) {
  const single = await startProcess({ DATABASE_URL: '', REDIS_URL: '' });
  let oneProcess: Awaited<ReturnType<typeof measure>>;
  let rateChangeWithOpenDeskPages: Awaited<ReturnType<typeof measureDeskPages>> | string = 'not measured';
  try {
    oneProcess = await measure(single.url, single.url, n);
    if (deskPages > 0) rateChangeWithOpenDeskPages = await measureDeskPages(single.url, deskPages);
  } finally {
    await stop(single.child);
  }
  const { DATABASE_URL: db, REDIS_URL: redis } = process.env;
  if (!db || !redis) {
    return {
      oneProcess,
      rateChangeWithOpenDeskPages,
      twoProcessesViaRedis: 'not measured: needs DATABASE_URL and REDIS_URL',
    };
  }
  // A database of its own, dropped afterwards, so the bench never touches real data.
  const name = `arzpay_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: db });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(db);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString(), REDIS_URL: redis, REDIS_KEY_PREFIX: `bench-${Date.now()}:` };
  const a = await startProcess(env);
  const b = await startProcess(env);
  try {
    return { oneProcess, rateChangeWithOpenDeskPages, twoProcessesViaRedis: await measure(b.url, a.url, n) };
  } finally {
    // Both must have closed their connections before their database can be dropped.
    await Promise.all([stop(a.child), stop(b.child)]);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
