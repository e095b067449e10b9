/**
 * A TCP proxy a test owns, between the server under test and one of its dependencies (PostgreSQL, Redis): it forwards
 * every connection to the target until the test cuts it, then drops every open connection (a reset, as a lost
 * network does) and refuses new ones until the test restores it.
 */
import { createServer, type Server, type Socket, connect } from 'node:net';

export interface TcpProxy {
  /** The local port the server under test connects to instead of the target's. */
  port: number;
  /** Drops every open connection and refuses new ones until `restore`. */
  cut(): void;
  restore(): void;
  /** Connections accepted and forwarded since the proxy started. */
  readonly accepted: number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let isCut = false;
  let accepted = 0;
  const server: Server = createServer((client) => {
    if (isCut) {
      client.resetAndDestroy();
      return;
    }
    accepted++;
    const upstream = connect(targetPort, targetHost);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      open.delete(client);
      open.delete(upstream);
      if (!client.destroyed) client.resetAndDestroy();
      if (!upstream.destroyed) upstream.resetAndDestroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    get accepted() {
      return accepted;
    },
    cut() {
      isCut = true;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    restore() {
      isCut = false;
    },
    async close() {
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
