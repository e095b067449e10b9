/**
 * The ledger's invariants, checked from the rows (tests call it after every money test; it writes nothing).
 * Returns one line per broken rule, none when the ledger is sound.
 */
import { type Kysely, sql } from 'kysely';
import type { DB as Database } from '../../../generated/db';
import { transactionTypes } from './types';

const INVISIBLE_TYPES = transactionTypes.filter((t) => !t.customerVisible).map((t) => t.type);

export async function checkInvariants(db: Kysely<Database>): Promise<string[]> {
  const problems: string[] = [];
  const unbalanced = await sql<{ transactionId: number; total: number }>`
    select t.id as "transactionId", coalesce(sum(e.amount), 0)::bigint as total
    from ledger_transactions t left join ledger_entries e on e.transaction_id = t.id
    group by t.id having coalesce(sum(e.amount), 0) <> 0 or count(e.id) = 0`.execute(db);
  for (const r of unbalanced.rows) problems.push(`transaction ${r.transactionId}: entries sum to ${r.total}`);

  const drifted = await sql<{ accountId: number; balance: number; total: number }>`
    select a.id as "accountId", a.balance, coalesce(sum(e.amount), 0)::bigint as total
    from ledger_accounts a left join ledger_entries e on e.account_id = a.id
    group by a.id having a.balance <> coalesce(sum(e.amount), 0)`.execute(db);
  for (const r of drifted.rows) problems.push(`account ${r.accountId}: balance ${r.balance}, entries sum ${r.total}`);

  const negative = await sql<{ accountId: number; balance: number }>`
    select id as "accountId", balance from ledger_accounts where user_id is not null and balance < 0`.execute(db);
  for (const r of negative.rows) problems.push(`customer account ${r.accountId} is negative: ${r.balance}`);

  // A customer's effects add up to their balances only if every entry on their accounts is theirs and visible.
  const stray = await sql<{ entryId: number }>`
    select e.id as "entryId"
    from ledger_entries e join ledger_accounts a on a.id = e.account_id join ledger_transactions t on t.id = e.transaction_id
    where a.user_id is not null and (t.user_id is distinct from a.user_id or t.type = any(${INVISIBLE_TYPES}::text[]))`.execute(
    db,
  );
  for (const r of stray.rows) problems.push(`entry ${r.entryId} moves a customer account outside that customer's view`);
  return problems;
}
