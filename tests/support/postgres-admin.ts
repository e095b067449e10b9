/**
 * Creating and dropping PostgreSQL databases for test runs (tests/run.ts, tests/deep.ts, the per-stage template,
 * test files of their own). CREATE and DROP DATABASE cannot run in a transaction: one statement per connection.
 */
import pg from 'pg';

/** Runs one statement on the PostgreSQL server at `url` (any database on it). */
export async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The names of the databases on the server of `url` that begin with `prefix`. */
export async function databasesNamed(url: string, prefix: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [prefix],
    );
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of `serverUrl`. */
export const databaseUrlOn = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Runs `body` on a new, empty database named `<prefix>_<pid>_<time>` and drops it afterwards, whatever happens. */
export async function withFreshDatabase(
  serverUrl: string,
  prefix: string,
  body: (databaseUrl: string) => void | Promise<void>,
): Promise<void> {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  await adminQuery(serverUrl, `create database ${name}`);
  try {
    await body(databaseUrlOn(serverUrl, name));
  } finally {
    await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
  }
}
