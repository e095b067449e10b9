/**
 * PostgreSQL's own tools do the database part of a backup: `pg_dump` in its custom format, of the snapshot the
 * manifest was read in (`--snapshot`), and `pg_restore` in one transaction. The password travels in PGPASSWORD,
 * never on a command line another user could read in the process list.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { type DatabaseDescription, describeDatabase, type Query } from './describe';

/** A failure of the backup or restore an operator reads as one line. */
export class BackupError extends Error {}

function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password && { PGPASSWORD: password }) } };
}

export const whereIs = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
};

function run(tool: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === 'ENOENT'
            ? `${tool} is not installed: install the PostgreSQL client tools of the server's major version (e.g. apt-get install postgresql-client)`
            : `${tool} did not start: ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) return resolve();
      const first = stderr.split('\n').find((l) => /error|fatal/i.test(l)) ?? stderr.split('\n')[0] ?? '';
      reject(new BackupError(`${tool} failed (exit ${code}): ${first.trim()}`));
    });
  });
}

export async function withClient<T>(url: string, body: (q: Query, client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`cannot connect to PostgreSQL at ${whereIs(url)}: ${(error as Error).message}`);
  }
  try {
    const q: Query = async <R>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as R[];
    return await body(q, client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Dumps the database at `url` to `file` (custom format) and describes the same snapshot: a repeatable-read
 * transaction exports its snapshot, is read for the manifest, and pg_dump dumps exactly that snapshot.
 */
export function dumpPostgres(url: string, file: string): Promise<DatabaseDescription> {
  return withClient(url, async (q) => {
    await q('begin isolation level repeatable read read only');
    const snapshot = (await q<{ id: string }>('select pg_export_snapshot() as id'))[0]!.id;
    const description = await describeDatabase(q);
    const { dbname, env } = connection(url);
    await run('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${dbname}`], env);
    await q('commit');
    return description;
  });
}

/** Restores a custom-format dump into the (empty) database at `url`, all or nothing. */
export async function restorePostgres(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  await run(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${dbname}`, file],
    env,
  );
}
