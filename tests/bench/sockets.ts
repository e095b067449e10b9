/**
 * Real-time fan-out: N socket.io clients (the wire protocol laravel-echo uses) subscribed to the public
 * channel of one server process, one broadcast caused by a staff rate change, delivery latency p50/p99.
 * The same across two processes through Redis when DATABASE_URL and REDIS_URL are set.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';

const root = path.resolve(import.meta.dirname, '../..');
const ADMIN = { username: '09120000000', password: 'bench-admin-password' };

export function startProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/start.ts'], {
    cwd: root,
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
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out.slice(-500)}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d;
      const match = /"port":(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${match[1]}` });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d) => {
      out += d;
    });
  });
}

/** Sends SIGTERM and resolves once the process has exited. */
function stop(child: ChildProcess): Promise<void> {
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

async function connectMany(url: string, n: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  const batch = 250;
  for (let i = 0; i < n; i += batch) {
    const group = Array.from({ length: Math.min(batch, n - i) }, () => {
      const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true });
      sockets.push(socket);
      // Counted once the server confirms the subscription, so the broadcast reaches every socket.
      return new Promise<void>((resolve, reject) => {
        socket.once('connect', () => {
          socket.emit('subscribe', { channel: 'public-general-channel', auth: { headers: {} } });
        });
        socket.on('subscription_succeeded', (channel: string) => {
          if (channel === 'public-general-channel') resolve();
        });
        socket.once('subscription_error', (channel: string, status: number) =>
          reject(new Error(`subscribing ${channel} refused: ${status}`)),
        );
        socket.once('connect_error', reject);
      });
    });
    await Promise.all(group);
  }
  return sockets;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Connects N clients to `listenUrl`, changes a rate through `writeUrl`, and measures each delivery. */
async function measure(listenUrl: string, writeUrl: string, n: number) {
  const login = await json(`${writeUrl}/api/me/loginByPassword`, ADMIN);
  const token = String(login.data.userToken);
  const sockets = await connectMany(listenUrl, n);
  const list = await json(`${writeUrl}/api/public/searchCurrencies`, { search: 'USD' });
  const usd = (list.data.items as Array<Record<string, unknown>>)[0]!;
  const latencies: number[] = [];
  let sentAt = 0;
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 15_000);
    for (const s of sockets) {
      s.on('currency.updated', () => {
        latencies.push(performance.now() - sentAt);
        if (latencies.length === n) {
          clearTimeout(timer);
          resolve();
        }
      });
    }
  });
  sentAt = performance.now();
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
  await done;
  for (const s of sockets) s.disconnect();
  latencies.sort((a, b) => a - b);
  return {
    sockets: n,
    delivered: latencies.length,
    p50Ms: Number(percentile(latencies, 50).toFixed(1)),
    p99Ms: Number(percentile(latencies, 99).toFixed(1)),
  };
}

export async function benchSockets(n: number) {
  const single = await startProcess({ DATABASE_URL: '', REDIS_URL: '' });
  let oneProcess: Awaited<ReturnType<typeof measure>>;
  try {
    oneProcess = await measure(single.url, single.url, n);
  } finally {
    await stop(single.child);
  }
  const { DATABASE_URL: db, REDIS_URL: redis } = process.env;
  if (!db || !redis) return { oneProcess, twoProcessesViaRedis: 'not measured: needs DATABASE_URL and REDIS_URL' };
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
    return { oneProcess, twoProcessesViaRedis: await measure(b.url, a.url, n) };
  } finally {
    // Both must have closed their connections before their database can be dropped.
    await Promise.all([stop(a.child), stop(b.child)]);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
