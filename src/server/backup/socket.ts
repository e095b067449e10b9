/**
 * The running server's backup of the embedded database (decision 025). PGlite's folder belongs to the one process
 * holding the data-directory lock, so `npm run backup` cannot open it while the server runs: the server offers the
 * dump on a Unix socket in DATA_DIR/control (a folder only the data's owner may enter, mode 0700), and the command
 * asks there. Nothing listens on the network.
 *
 * Protocol: the client sends one line, `{"op":"backup"}`; the server answers one JSON line — `{"ok":true,
 * "size":N,"description":{…}}` followed by N bytes of the data directory as a tar, or `{"ok":false,"error":"…"}`.
 */
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';
import { CompiledQuery, type Kysely } from 'kysely';
import type { DatabaseHandle } from '../db/database';
import { type DatabaseDescription, describeDatabase, type Query } from './describe';

/** Longest Unix socket path Linux and macOS take (sun_path), with the terminating zero. */
const MAX_SOCKET_PATH = 103;

export const backupSocketPath = (dataDir: string) => path.join(dataDir, 'control', 'backup.sock');

export const queryOn =
  (db: Kysely<unknown>): Query =>
  async <T>(text: string, params: unknown[] = []) =>
    (await db.executeQuery<T>(CompiledQuery.raw(text, params))).rows;

/**
 * The embedded database's image and description, taken at one moment: Kysely's only connection is held (no other
 * statement or transaction runs meanwhile) and a CHECKPOINT writes every page, so the image needs no recovery.
 */
export async function dumpEmbedded(
  database: DatabaseHandle,
): Promise<{ description: DatabaseDescription; image: Blob }> {
  if (!database.dumpDataDir) throw new Error('only the embedded database is dumped in-process');
  const dump = database.dumpDataDir;
  return database.db
    .withoutPlugins()
    .connection()
    .execute(async (conn) => {
      const q = queryOn(conn as unknown as Kysely<unknown>);
      await q('checkpoint');
      const description = await describeDatabase(q);
      return { description, image: await dump() };
    });
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Another operation the server answers on the socket for a command that cannot open the database itself. */
export type SocketOperation = (request: Record<string, unknown>) => Promise<unknown>;

/**
 * Listens on DATA_DIR/control/backup.sock; the returned function stops listening and removes the socket. Besides
 * `backup`, it answers each op of `operations` (`{"op":"reconcile","day":…}`) with one line `{"ok":true,"result":…}`.
 */
export async function serveBackups(
  database: DatabaseHandle,
  dataDir: string,
  log: Log,
  operations: Record<string, SocketOperation> = {},
): Promise<() => Promise<void>> {
  const socket = backupSocketPath(dataDir);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
    log.warn({ socket }, 'DATA_DIR is too long a path for the backup socket: npm run backup needs the server stopped');
    return async () => {};
  }
  mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 });
  chmodSync(path.dirname(socket), 0o700);
  // This process holds the data-directory lock: a socket file left here is a killed server's.
  rmSync(socket, { force: true });
  const server: Server = createServer((connection) => {
    let line = '';
    connection.setEncoding('utf8');
    connection.on('error', () => {});
    connection.on('data', (chunk: string) => {
      line += chunk;
      if (line.length > 1024) return connection.destroy();
      if (!line.includes('\n')) return;
      connection.removeAllListeners('data');
      let op: unknown;
      let asked: Record<string, unknown> = {};
      try {
        asked = JSON.parse(line.slice(0, line.indexOf('\n'))) as Record<string, unknown>;
        op = asked.op;
      } catch {
        op = null;
      }
      const other = typeof op === 'string' && op !== 'backup' ? operations[op] : undefined;
      if (other) {
        void other(asked).then(
          (result) => connection.end(`${JSON.stringify({ ok: true, result })}\n`),
          (error: unknown) =>
            connection.end(
              `${JSON.stringify({ ok: false, error: error instanceof Error ? error.message : String(error) })}\n`,
            ),
        );
        return;
      }
      if (op !== 'backup') return connection.end(`${JSON.stringify({ ok: false, error: 'unknown request' })}\n`);
      void dumpEmbedded(database).then(
        async ({ description, image }) => {
          const bytes = Buffer.from(await image.arrayBuffer());
          log.info({ bytes: bytes.length }, 'backup of the embedded database taken for npm run backup');
          connection.write(`${JSON.stringify({ ok: true, size: bytes.length, description })}\n`);
          connection.end(bytes);
        },
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          log.warn({ err: message }, 'backup of the embedded database failed');
          connection.end(`${JSON.stringify({ ok: false, error: message })}\n`);
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  chmodSync(socket, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      rmSync(socket, { force: true });
    });
}

/** Asks the server running on `dataDir` for one of its other operations; its result. */
export function askServer(dataDir: string, request: { op: string } & Record<string, unknown>): Promise<unknown> {
  const socket = backupSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    let answer = '';
    connection.setEncoding('utf8');
    connection.on('data', (chunk: string) => (answer += chunk));
    connection.on('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`a server holds ${dataDir} but does not answer at ${socket}: ${error.message}`)),
    );
    connection.on('end', () => {
      try {
        const head = JSON.parse(answer) as { ok: boolean; error?: string; result?: unknown };
        if (head.ok) resolve(head.result);
        else reject(new Error(`the running server could not do it: ${head.error}`));
      } catch {
        reject(new Error('the running server closed the socket without an answer'));
      }
    });
    connection.write(`${JSON.stringify(request)}\n`);
  });
}

/** Asks the server running on `dataDir` for its backup. */
export function requestBackup(dataDir: string): Promise<{ description: DatabaseDescription; image: Buffer }> {
  const socket = backupSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    const chunks: Buffer[] = [];
    connection.on('data', (chunk: Buffer) => chunks.push(chunk));
    connection.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
            ? `a server holds ${dataDir} but offers no backup at ${socket}: stop it and run the backup again`
            : `the running server's backup socket failed: ${error.message}`,
        ),
      ),
    );
    connection.on('end', () => {
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(10);
      if (newline < 0) return reject(new Error('the running server closed the backup socket without an answer'));
      const head = JSON.parse(all.subarray(0, newline).toString('utf8')) as {
        ok: boolean;
        error?: string;
        size?: number;
        description?: DatabaseDescription;
      };
      if (!head.ok) return reject(new Error(`the running server could not take the backup: ${head.error}`));
      const image = all.subarray(newline + 1);
      if (image.length !== head.size) return reject(new Error('the running server sent a truncated backup'));
      resolve({ description: head.description!, image });
    });
    connection.write(`${JSON.stringify({ op: 'backup' })}\n`);
  });
}
