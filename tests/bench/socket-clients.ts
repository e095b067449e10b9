/**
 * A worker thread of socket.io clients for tests/bench/sockets.ts, so that N clients are not read by one event
 * loop (which would measure the bench, not the server). Each client subscribes to the public channel; on
 * `currency.updated` it notes the time (performance.timeOrigin + now, comparable across threads) and, as a desk
 * page, waits requoteDelay() and asks for a new quote, noting when it holds one at the new rate.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';
import { requoteDelay } from '../../src/shared/requote';

export interface ClientsJob {
  url: string;
  count: number;
  /** Desk pages re-quote on a rate change with these tokens (round robin); none: only listen. */
  deskPage?: { tokens: string[]; desk: string; body: Record<string, unknown> };
}

export type ClientsMessage =
  { kind: 'ready' } | { kind: 'done'; delivered: number[]; requoted: number[]; failures: number };

const job = workerData as ClientsJob;
const now = () => performance.timeOrigin + performance.now();
const sockets: Socket[] = [];
const delivered: number[] = [];
const requoted: number[] = [];
let failures = 0;
let pending = job.count;

function finishOne() {
  pending -= 1;
  if (pending === 0) report();
}

function report() {
  parentPort!.postMessage({ kind: 'done', delivered, requoted, failures } satisfies ClientsMessage);
}

async function requote(index: number, rate: number): Promise<void> {
  const { tokens, desk, body } = job.deskPage!;
  await new Promise((resolve) => setTimeout(resolve, requoteDelay()));
  try {
    const res = await fetch(`${job.url}/api/me/desks/${desk}/priceInquiry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[index % tokens.length]}` },
      body: JSON.stringify(body),
    });
    const quote = (await res.json()) as { data?: { rate?: number } };
    if (res.status === 200 && quote.data?.rate === rate) requoted.push(now());
    else failures += 1;
  } catch {
    failures += 1;
  }
}

async function connect(index: number): Promise<void> {
  const socket = io(job.url, { transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  let seen = false;
  socket.on('currency.updated', (_channel: string, data: { rate: number }) => {
    if (seen) return;
    seen = true;
    delivered.push(now());
    if (job.deskPage) void requote(index, data.rate).finally(finishOne);
    else finishOne();
  });
  await new Promise<void>((resolve, reject) => {
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
}

const BATCH = 100;
for (let i = 0; i < job.count; i += BATCH) {
  await Promise.all(Array.from({ length: Math.min(BATCH, job.count - i) }, (_, k) => connect(i + k)));
}
parentPort!.on('message', (message: string) => {
  if (message === 'report') report();
  if (message === 'close') {
    for (const s of sockets) s.disconnect();
    process.exit(0);
  }
});
parentPort!.postMessage({ kind: 'ready' } satisfies ClientsMessage);
