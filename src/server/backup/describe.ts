/**
 * What a backup holds, read from the database in the same snapshot as the dump (the manifest), and read again from
 * the restored database to prove the restore complete: the applied migrations, row counts, and the money totals an
 * operator recognises (customers' wallets, their reserved money, the collections received).
 */

export interface MoneyTotals {
  /** Sum of the customers' wallet balances, rial. */
  wallets: number;
  /** Sum of the customers' reserved balances (paid requests waiting for staff), rial. */
  reserved: number;
  /** Sum of every collection's amount (money received), rial, and their number. */
  collections: number;
  collectionCount: number;
}

export interface DatabaseDescription {
  migrations: string[];
  /** Rows per table of the tables that tell a restore apart from a partial one. */
  counts: Record<string, number>;
  totals: MoneyTotals;
}

const COUNTED = [
  'users',
  'purchases',
  'ledger_transactions',
  'ledger_entries',
  'collections',
  'withdrawals',
  'uploads',
] as const;

/**
 * A query on one connection: the backup reads through the connection that holds the snapshot it dumps (a
 * node-postgres client in a repeatable-read transaction, or PGlite's only connection).
 */
export type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

const exists = async (q: Query, table: string) =>
  (await q<{ found: boolean }>('select to_regclass($1) is not null as found', [table]))[0]!.found;

const numberOf = async (q: Query, text: string, params: unknown[] = []) =>
  Number((await q<{ total: string | number | null }>(text, params))[0]?.total ?? 0);

export async function describeDatabase(q: Query): Promise<DatabaseDescription> {
  const migrations = (await exists(q, 'kysely_migration'))
    ? (await q<{ name: string }>('select name from kysely_migration order by name')).map((r) => r.name)
    : [];
  const counts: Record<string, number> = {};
  for (const table of COUNTED) {
    if (await exists(q, table)) counts[table] = await numberOf(q, `select count(*) as total from ${quoted(table)}`);
  }
  const ledger = await exists(q, 'ledger_accounts');
  const balances = (kind: string) =>
    ledger
      ? numberOf(q, 'select sum(balance) as total from ledger_accounts where user_id is not null and kind = $1', [kind])
      : Promise.resolve(0);
  return {
    migrations,
    counts,
    totals: {
      wallets: await balances('wallet'),
      reserved: await balances('reserved'),
      collections:
        counts.collections === undefined ? 0 : await numberOf(q, 'select sum(amount) as total from collections'),
      collectionCount: counts.collections ?? 0,
    },
  };
}

/**
 * Why the database is not an empty target for a restore, or null when it is: an applied migration, or a row in any
 * table of the public schema.
 */
export async function notEmptyBecause(q: Query): Promise<string | null> {
  if (await exists(q, 'kysely_migration')) {
    const applied = await numberOf(q, 'select count(*) as total from kysely_migration');
    if (applied > 0) return `it has ${applied} applied migrations`;
  }
  const tables = await q<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  for (const { name } of tables) {
    const found = await q<{ found: boolean }>(`select exists (select 1 from ${quoted(name)}) as found`);
    if (found[0]!.found) return `table ${name} has rows`;
  }
  return null;
}

/** The totals as an operator reads them (one line). */
export function totalsLine(totals: MoneyTotals): string {
  const rial = (n: number) => n.toLocaleString('en-US');
  return (
    `wallets ${rial(totals.wallets)} rial, reserved ${rial(totals.reserved)} rial, ` +
    `collections ${rial(totals.collections)} rial in ${totals.collectionCount}`
  );
}
