/**
 * One Kysely instance over either the embedded PGlite (default, data in DATA_DIR/db) or a real
 * PostgreSQL server (DATABASE_URL=postgres://…). Same SQL dialect for both.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CamelCasePlugin, Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { DB as Database } from '../../generated/db';
import { trackCommits } from './after-commit';

export type DB = Kysely<Database>;
/**
 * A database transaction: posting and locking take only this, never the root handle, on which each statement
 * would commit alone and `FOR UPDATE` would protect nothing.
 */
export type Trx = Transaction<Database>;

const INT8_OID = 20;
const NUMERIC_OID = 1700;
const DATE_OID = 1082;
/** DATE stays a 'YYYY-MM-DD' string: a calendar day has no time zone to shift it. */
const keepText = (value: string) => value;

/** BIGINT columns hold rial amounts; they stay far below 2^53, and a value that does not is a bug we want loud. */
function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`BIGINT value ${value} is beyond the safe integer range`);
  return n;
}

export class DatabaseUnavailableError extends Error {}

export interface DatabaseHandle {
  db: DB;
  kind: 'pglite' | 'postgres';
  /**
   * Runs SQL text of several statements (a migration file, `$$ … $$` bodies included) as one simple query on
   * `on`'s connection: node-postgres uses the simple protocol for a query without parameters, PGlite needs
   * `exec`. PGlite has one session, so its caller must hold Kysely's only connection (be inside `on`).
   */
  runScript(on: DB, text: string): Promise<void>;
  /**
   * PGlite only: its data directory as a gzipped tar (`dumpDataDir`), for a backup (src/server/backup). The
   * caller holds Kysely's only connection and has run CHECKPOINT, so no transaction is half-way through.
   */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === INT8_OID) return parseInt8;
        if (oid === NUMERIC_OID) return Number;
        if (oid === DATE_OID) return keepText;
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  // Without a listener a client's network error (a reset, the server restarting) would end the process: the pool's
  // 'error' covers idle clients only, so each client gets its own for while it is checked out (decision 032). The query
  // in flight still fails (answered 503, http/dependency-errors.ts) and the pool drops the broken client on release.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    const where = new URL(url);
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseUnavailableError(
      `cannot connect to PostgreSQL at ${where.hostname}:${where.port || 5432}${where.pathname}: ${reason}`,
    );
  }
  const db = trackCommits(
    new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] }),
  );
  const runScript = async (on: DB, text: string) => {
    await sql.raw(text).execute(on);
  };
  return { db, kind: 'postgres', runScript, close: () => db.destroy() };
}

async function openPglite(dataDir: string | null, image?: Blob): Promise<DatabaseHandle> {
  const parsers = { [INT8_OID]: parseInt8, [NUMERIC_OID]: Number, [DATE_OID]: keepText };
  let pglite: PGlite;
  if (dataDir === null) {
    pglite = new PGlite({ parsers, ...(image && { loadDataDir: image }) });
  } else {
    const dir = path.join(dataDir, 'db');
    await mkdir(dir, { recursive: true });
    pglite = new PGlite(dir, { parsers, ...(image && { loadDataDir: image }) });
  }
  await pglite.waitReady;
  const db = trackCommits(
    new Kysely<Database>({ dialect: new PGliteDialect(pglite), plugins: [new CamelCasePlugin()] }),
  );
  const runScript = async (_on: DB, text: string) => {
    await pglite.exec(text);
  };
  const dumpDataDir = () => pglite.dumpDataDir('gzip');
  return { db, kind: 'pglite', runScript, dumpDataDir, close: () => db.destroy() };
}

/**
 * `memoryImage`: an in-memory database starts as a copy of this dumped data directory (PGlite's `dumpDataDir`)
 * instead of an empty one. Tests open an already migrated image in about a second instead of running initdb.
 */
export function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  memoryImage?: Blob;
  /** The embedded database in `${dataDir}/db` is created from this dumped data directory (a restore). */
  restoreImage?: Blob;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl === undefined) return openPglite(options.dataDir, options.restoreImage);
  if (options.databaseUrl === 'memory://') return openPglite(null, options.memoryImage);
  return openPostgres(options.databaseUrl);
}
