/**
 * A broadcast leaves as one write per socket (src/server/realtime/one-write.ts): each subscribed socket gets the
 * whole WebSocket frame in a single write (no corked two-part writev), the event arrives intact, and a socket
 * outside the room hears nothing.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket as TcpSocket } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { oneWritePerSocket } from '../../src/server/realtime/one-write';

const http = createServer();
const io = new Server(http, { serveClient: false });
io.adapter(oneWritePerSocket(io.adapter()!));
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  io.on('connection', (socket) => {
    socket.on('join', async (room: string, done: () => void) => {
      await socket.join(room);
      done();
    });
  });
});
afterAll(async () => {
  await new Promise<void>((resolve) => io.close(() => resolve()));
});

async function client(room: string | null): Promise<ClientSocket> {
  const socket = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  if (room) await socket.emitWithAck('join', room);
  return socket;
}

/** The server side's TCP sockets: how many writes and writevs each was asked for while `run` ran. */
async function countingWrites(run: () => Promise<void>): Promise<Array<{ writes: Buffer[]; writevs: number }>> {
  const counts: Array<{ writes: Buffer[]; writevs: number }> = [];
  const restore: Array<() => void> = [];
  // engine.io keeps its clients protected; the TCP socket under each is what the kernel is asked to write.
  const { clients } = io.engine as unknown as {
    clients: Record<string, { transport: { socket: { _socket: TcpSocket } } }>;
  };
  for (const engineSocket of Object.values(clients)) {
    const tcp = engineSocket.transport.socket._socket;
    const count = { writes: [] as Buffer[], writevs: 0 };
    counts.push(count);
    const { write, _writev: writev } = tcp;
    tcp.write = function (this: TcpSocket, chunk: Buffer, ...rest: unknown[]) {
      count.writes.push(Buffer.from(chunk));
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof tcp.write;
    tcp._writev = function (this: TcpSocket, ...args: Parameters<NonNullable<typeof writev>>) {
      count.writevs += 1;
      return writev!.apply(this, args);
    };
    restore.push(() => {
      tcp.write = write;
      tcp._writev = writev;
    });
  }
  try {
    await run();
  } finally {
    for (const undo of restore) undo();
  }
  return counts;
}

it('sends a broadcast to each socket of the room as one write of the whole frame, and to no one else', async () => {
  const inRoom = await Promise.all([client('rates'), client('rates'), client('rates')]);
  const outside = await client('other');
  let heardOutside = false;
  outside.on('currency.updated', () => (heardOutside = true));
  const payload = { id: 1, code: 'USD', title: 'دلار', rate: 1_234_567 };
  try {
    const counts = await countingWrites(async () => {
      const heard = inRoom.map(
        (socket) =>
          new Promise<unknown[]>((resolve) => socket.once('currency.updated', (...args: unknown[]) => resolve(args))),
      );
      io.to('rates').emit('currency.updated', 'public-general-channel', payload);
      expect(await Promise.all(heard)).toEqual(inRoom.map(() => ['public-general-channel', payload]));
    });
    const json = JSON.stringify(['currency.updated', 'public-general-channel', payload]);
    const sent = counts.filter((c) => c.writes.length > 0 || c.writevs > 0);
    expect(sent).toHaveLength(inRoom.length);
    for (const { writes, writevs } of sent) {
      expect(writevs).toBe(0);
      expect(writes).toHaveLength(1);
      // A final text frame (0x81), unmasked, whose payload is the Engine.IO message "4" + the socket.io packet "2…".
      const frame = writes[0]!;
      expect(frame[0]).toBe(0x81);
      expect(frame.subarray(frame.length - Buffer.byteLength(`42${json}`)).toString()).toBe(`42${json}`);
    }
    // The outside socket was sent nothing: had it been, it would have arrived before this round trip's answer.
    await outside.emitWithAck('join', 'other');
    expect(heardOutside).toBe(false);
  } finally {
    for (const socket of [...inRoom, outside]) socket.disconnect();
  }
});
