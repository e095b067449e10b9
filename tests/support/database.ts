/**
 * An empty database of a test's own, apart from the test server's: an in-memory PGlite, or, when the suite
 * runs against PostgreSQL (TEST_DATABASE_URL), a database created here and dropped by `drop()`.
 */
import { type DatabaseHandle, openDatabase } from '../../src/server/db/database';
import { adminQuery, databaseUrlOn } from './postgres-admin';
import { commitWithoutWaitingForDisk } from './template-database';

export interface TestDatabase {
  kind: 'pglite' | 'postgres';
  /** Opens a connection pool to it on PostgreSQL (each call a new one); on PGlite, the one in-memory database. */
  open(): Promise<DatabaseHandle>;
  /** Closes what `open` opened and drops the PostgreSQL database. */
  drop(): Promise<void>;
}

let created = 0;

export async function emptyDatabase(label: string): Promise<TestDatabase> {
  const testUrl = process.env.TEST_DATABASE_URL;
  if (!testUrl?.startsWith('postgres')) {
    let memory: Promise<DatabaseHandle> | null = null;
    return {
      kind: 'pglite',
      open() {
        memory ??= openDatabase({ databaseUrl: 'memory://', dataDir: '' });
        return memory;
      },
      async drop() {
        await (await memory)?.close();
      },
    };
  }
  const handles: DatabaseHandle[] = [];
  const name = `${label}_${process.pid}_${++created}`;
  await adminQuery(testUrl, `drop database if exists ${name}`);
  await adminQuery(testUrl, `create database ${name}`);
  await commitWithoutWaitingForDisk(testUrl, name);
  const url = databaseUrlOn(testUrl, name);
  return {
    kind: 'postgres',
    async open() {
      const handle = await openDatabase({ databaseUrl: url, dataDir: '' });
      handles.push(handle);
      return handle;
    },
    async drop() {
      await Promise.all(handles.map((h) => h.close()));
      await adminQuery(testUrl, `drop database if exists ${name}`);
    },
  };
}
