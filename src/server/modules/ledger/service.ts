/**
 * The ledger: the only code that writes ledger accounts, transactions, entries and balances. Other modules post a
 * transaction of a named type inside their own database transaction, so their state change and the money move
 * commit together or not at all.
 *
 * Concurrency: the accounts a transaction moves are locked (`SELECT … FOR UPDATE`, in id order so two postings
 * never wait on each other in a cycle) before their balances are read, checked and updated; a customer account
 * never goes below zero (checked here with a Persian 422, and by a CHECK constraint underneath). On PGlite there
 * is one connection, so transactions run one at a time anyway.
 */
import { type Kysely, sql } from 'kysely';
import type { DB as Database } from '../../../generated/db';
import { afterCommit } from '../../db/after-commit';
import type { Trx } from '../../db/database';
import { HttpError } from '../../http/errors';
import { numericCode } from '../../lib/crypto';
import { cachePerDatabase, type ReadThroughCache } from '../../lib/read-through-cache';
import { type ListEnvelope, type PageQuery, pageOf } from '../../lib/paging';
import {
  type AccountKind,
  type Amounts,
  entriesOf,
  isCustomerKind,
  type TransactionTypeId,
  transactionTypeOf,
  Tx,
  VISIBLE_TYPES,
} from './types';

type Db = Kysely<Database>;

/** Descriptive fields of SPEC's Transaction that move no money themselves. */
export interface TransactionDetails {
  totalExpectedPrice?: number;
  realPrice?: number;
  customerAccountNo?: string;
  collectionId?: number;
  purchaseId?: number;
  onlineProformaId?: number;
  generalTitle?: string;
  refundedToUnsafe?: boolean;
  cause?: 'profileL1Rejected' | 'cardMismatch';
  stateIdentifier?: 'purchaseFailed' | 'purchaseInvalidated' | 'purchaseSucceeded';
}

export interface PostTransactionInput {
  type: TransactionTypeId;
  /** The customer whose wallet or reservation moves; null only for types that move system accounts alone. */
  userId: number | null;
  amounts: Amounts;
  details?: TransactionDetails;
  /** Shared by the transactions of one story (e.g. a purchase); a new random code when absent. */
  traceCode?: string;
  /** A second posting of the same type and key returns the first transaction and moves nothing. */
  idempotencyKey?: string;
}

export interface PostedTransaction {
  id: number;
  traceCode: string;
  type: string;
  createdAt: Date;
  /** True when the idempotency key had been used: nothing moved this time. */
  replayed: boolean;
}

const newTraceCode = () => numericCode(12);

/**
 * Creates the accounts `kinds` name (the user's own for customer kinds) that do not exist yet; returns those this
 * transaction made (no other sees them before it commits, so they need no lock), not those a parallel one made first.
 */
async function createAccounts(trx: Trx, userId: number | null, kinds: AccountKind[]): Promise<LockedAccount[]> {
  if (kinds.some(isCustomerKind) && userId === null)
    throw new Error('a transaction moving a customer account needs userId');
  const created: LockedAccount[] = [];
  // Sorted, so two postings creating the same user's accounts insert them in the same order.
  for (const kind of [...kinds].sort()) {
    const owner = isCustomerKind(kind) ? userId : null;
    const row = await trx
      .insertInto('ledgerAccounts')
      .values({ kind, userId: owner })
      .onConflict((oc) =>
        owner === null
          ? oc.column('kind').where('userId', 'is', null).doNothing()
          : oc.columns(['userId', 'kind']).where('userId', 'is not', null).doNothing(),
      )
      .returning(['id', 'kind', 'userId', 'balance'])
      .executeTakeFirst();
    if (row) created.push(row);
  }
  return created;
}

interface LockedAccount {
  id: number;
  kind: string;
  userId: number | null;
  balance: number;
}

/**
 * Locks the accounts a posting moves, and reads their balances, in one query. Lock order, the same for every
 * posting (PostgreSQL would otherwise find deadlocks): all of the customer's own accounts first, then the company's
 * `kinds`, each in id order. A money operation may post several transactions in one database transaction (collect
 * then reserve; spend then refund); with only each posting's own accounts in id order, two operations of one
 * customer could each hold the wallet or the reservation the other's next posting needs. PostgreSQL locks the rows
 * as the ORDER BY returns them. Missing accounts are created first (then the query runs again).
 */
async function lockAccounts(
  trx: Trx,
  userId: number | null,
  kinds: AccountKind[],
): Promise<Map<AccountKind, LockedAccount>> {
  const customer = kinds.filter(isCustomerKind);
  const system = kinds.filter((k) => !isCustomerKind(k));
  if (customer.length > 0 && userId === null) throw new Error('a transaction moving a customer account needs userId');
  const lock = async () => {
    const rows = await trx
      .selectFrom('ledgerAccounts')
      .select(['id', 'kind', 'userId', 'balance'])
      .where((eb) =>
        eb.or([
          ...(userId === null ? [] : [eb('userId', '=', userId)]),
          ...(system.length > 0 ? [eb.and([eb('userId', 'is', null), eb('kind', 'in', system)])] : []),
        ]),
      )
      .orderBy(sql`user_id is null`)
      .orderBy('id')
      .forUpdate()
      .execute();
    const mine = (r: LockedAccount) => (isCustomerKind(r.kind as AccountKind) ? r.userId !== null : r.userId === null);
    return new Map(
      rows.filter((r) => kinds.includes(r.kind as AccountKind) && mine(r)).map((r) => [r.kind as AccountKind, r]),
    );
  };
  const found = await lock();
  const missing = kinds.filter((k) => !found.has(k));
  if (missing.length === 0) return found;
  const created = await createAccounts(trx, userId, missing);
  // A parallel transaction made one first: locked again, waiting for it.
  if (created.length < missing.length) return lock();
  for (const account of created) found.set(account.kind as AccountKind, account);
  return found;
}

/** The transaction an earlier posting made with the same type and idempotency key, if any. */
async function firstWithKey(trx: Trx, input: PostTransactionInput): Promise<PostedTransaction | null> {
  if (input.idempotencyKey === undefined) return null;
  const first = await trx
    .selectFrom('ledgerTransactions')
    .select(['id', 'traceCode', 'type', 'userId', 'createdAt'])
    .where('type', '=', input.type)
    .where('idempotencyKey', '=', input.idempotencyKey)
    .executeTakeFirst();
  if (!first) return null;
  if (first.userId !== input.userId) throw HttpError.of(409, 'ledger.idempotencyKeyReused');
  return { id: first.id, traceCode: first.traceCode, type: first.type, createdAt: first.createdAt, replayed: true };
}

/** A refusal, unless a posting with the same key made the transaction already: a replay answers with it. */
async function refuseUnlessReplay(trx: Trx, input: PostTransactionInput, refusal: Error): Promise<PostedTransaction> {
  const replay = await firstWithKey(trx, input);
  if (replay) return replay;
  throw refusal;
}

/**
 * Posts one transaction of `input.type` inside `trx` (the caller's database transaction): builds the entries from
 * the type's legs and the named amounts, locks the accounts, refuses to take a customer account below zero (422),
 * writes the transaction and its entries and moves the balances. A replay (the key used before) answers with the
 * first transaction whatever it carries now: the key's unique index finds it when the transaction is written, and a
 * refusal looks for it first.
 */
export async function postTransaction(trx: Trx, input: PostTransactionInput): Promise<PostedTransaction> {
  const type = transactionTypeOf(input.type);
  let moves: ReturnType<typeof entriesOf>;
  try {
    moves = entriesOf(type, input.amounts);
  } catch (error) {
    return refuseUnlessReplay(trx, input, error as Error);
  }
  const accounts = await lockAccounts(trx, input.userId, [...moves.keys()]);

  for (const [kind, delta] of moves) {
    const account = accounts.get(kind)!;
    const after = account.balance + delta;
    // Beyond what a balance holds exactly: refused without naming the account (a company account, as often as not).
    if (!Number.isSafeInteger(after)) return refuseUnlessReplay(trx, input, HttpError.of(422, 'amount.tooLarge'));
    if (account.userId !== null && after < 0) {
      // A parallel posting with the same key may have committed while this one waited for the locks (and spent
      // what this one would): that is a replay, not a refusal.
      return refuseUnlessReplay(
        trx,
        input,
        HttpError.of(422, account.kind === 'reserved' ? 'ledger.insufficientReserved' : 'ledger.insufficientWallet'),
      );
    }
  }

  const amounts = Object.fromEntries(type.legs.map((leg) => [leg.amount, input.amounts[leg.amount]]));
  const row = await trx
    .insertInto('ledgerTransactions')
    .values({
      traceCode: input.traceCode ?? newTraceCode(),
      type: input.type,
      userId: input.userId,
      idempotencyKey: input.idempotencyKey ?? null,
      amounts: JSON.stringify(amounts),
      details: JSON.stringify(input.details ?? {}),
    })
    // The key used before (a replay), or by a parallel posting for other accounts: the first transaction answers.
    .onConflict((oc) => oc.columns(['type', 'idempotencyKey']).doNothing())
    .returning(['id', 'traceCode', 'type', 'createdAt'])
    .executeTakeFirst();
  if (!row) return (await firstWithKey(trx, input))!;

  if (input.userId !== null) {
    const userId = input.userId;
    afterCommit(trx, (root) => balanceCache(root).forget([userId]));
  }
  const legs = [...moves].map(([kind, amount]) => ({ accountId: accounts.get(kind)!.id, amount }));
  await trx
    .insertInto('ledgerEntries')
    .values(legs.map((leg) => ({ transactionId: row.id, ...leg })))
    .execute();
  // Every balance in one statement (each account appears once: a type's legs name distinct accounts).
  const values = sql.join(legs.map((leg) => sql`(${leg.accountId}::bigint, ${leg.amount}::bigint)`));
  await sql`update ledger_accounts as a set balance = a.balance + v.amount
    from (values ${values}) as v(id, amount) where a.id = v.id`.execute(trx);
  return { ...row, replayed: false };
}

/**
 * The customer's wallet balance read under a row lock held until `trx` ends, so that a decision taken on it (pay
 * from the wallet, or send the rest to the gateway) cannot be overtaken by a parallel payment. Creates the
 * account when the customer has none yet.
 */
export async function lockedWalletBalance(trx: Trx, userId: number): Promise<number> {
  const lock = () =>
    trx
      .selectFrom('ledgerAccounts')
      .select('balance')
      .where('userId', '=', userId)
      .where('kind', '=', 'wallet')
      .forUpdate()
      .executeTakeFirst();
  const row = (await lock()) ?? (await createAccounts(trx, userId, ['wallet']))[0] ?? (await lock());
  return row!.balance;
}

/**
 * What one request still holds in its customer's reservation: the sum of the effects on that account of the
 * customer's transactions naming the request (its reservation, and what fulfilment or a release took from it).
 * A decision on it runs in the transaction holding the request's row lock, so nothing moves it meanwhile; a
 * read for display may pass the root handle.
 */
export async function purchaseReservation(db: Db, userId: number, purchaseId: number): Promise<number> {
  const row = await sql<{ reserved: number }>`
    select coalesce(sum(e.amount), 0)::bigint as reserved
    from ledger_transactions t
    join ledger_entries e on e.transaction_id = t.id
    join ledger_accounts a on a.id = e.account_id
    where t.purchase_id = ${purchaseId} and t.user_id = ${userId} and a.user_id = ${userId} and a.kind = 'reserved'
  `.execute(db);
  return Number(row.rows[0]?.reserved ?? 0);
}

export interface UserBalance {
  /** The wallet: money the customer may spend or withdraw. */
  balance: number;
  /** Held for the customer's paid requests. */
  reserved: number;
}

export async function userBalance(db: Db, userId: number): Promise<UserBalance> {
  const rows = await db
    .selectFrom('ledgerAccounts')
    .select(['kind', 'balance'])
    .where('userId', '=', userId)
    .where('kind', 'in', ['wallet', 'reserved'])
    .execute();
  const of = (kind: string) => rows.find((r) => r.kind === kind)?.balance ?? 0;
  return { balance: of('wallet'), reserved: of('reserved') };
}

/**
 * The customers' balances this process remembers for `db` (the root handle, never a transaction). Off until the
 * app turns it on where every posting's forget reaches it (one process, or Redis between processes); a posting
 * forgets its customer once its transaction commits.
 */
export const balanceCache: (db: Db) => ReadThroughCache<number, UserBalance> = cachePerDatabase();

/**
 * `userBalance` through the cache, for what is only shown (a quote's wallet line): a decision on money reads the
 * balance under a lock in its own transaction (`lockedWalletBalance`).
 */
export function shownUserBalance(db: Db, userId: number): Promise<UserBalance> {
  return balanceCache(db).get(userId, async () => ({ value: await userBalance(db, userId) }));
}

/** The balances of several customers at once (a customer without accounts has zero in both). */
export async function balancesOf(db: Db, userIds: readonly number[]): Promise<Map<number, UserBalance>> {
  const result = new Map<number, UserBalance>(userIds.map((id) => [id, { balance: 0, reserved: 0 }]));
  if (userIds.length === 0) return result;
  const rows = await db
    .selectFrom('ledgerAccounts')
    .select(['userId', 'kind', 'balance'])
    .where('userId', 'in', [...userIds])
    .where('kind', 'in', ['wallet', 'reserved'])
    .execute();
  for (const row of rows) {
    const entry = result.get(row.userId!);
    if (!entry) continue;
    if (row.kind === 'wallet') entry.balance = row.balance;
    else entry.reserved = row.balance;
  }
  return result;
}

/** What a customer sees of one transaction: its effect on their accounts and its descriptive fields. */
export interface CustomerTransaction extends TransactionDetails, Amounts {
  traceCode: string;
  type: string;
  title: string;
  walletAccountEffect: number;
  reservedAccountEffect: number;
  createdAt: string;
}

/** The signed sum of a transaction's entries on its customer's account of `kind` (raw SQL: snake_case names). */
const effectOn = (kind: AccountKind) =>
  sql<number>`coalesce((
    select sum(e.amount) from ledger_entries e join ledger_accounts a on a.id = e.account_id
    where e.transaction_id = t.id and a.user_id = t.user_id and a.kind = ${kind}
  ), 0)::bigint`;

/** A staff correction (K or L) is shown by its own title, which carries the reason the customer is owed. */
const correctionTitle = (type: string, details: TransactionDetails) =>
  type === Tx.correctWalletUp || type === Tx.correctWalletDown ? details.generalTitle : undefined;

/** The customer's own transactions that they see, newest first. */
export async function searchTransactions(
  db: Db,
  userId: number,
  page: PageQuery,
): Promise<ListEnvelope<CustomerTransaction>> {
  const q = db
    .selectFrom('ledgerTransactions as t')
    .where('t.userId', '=', userId)
    .where('t.type', 'in', VISIBLE_TYPES);
  const result = await pageOf(q, page, (q) =>
    q
      .select([
        't.traceCode',
        't.type',
        't.amounts',
        't.details',
        't.createdAt',
        effectOn('wallet').as('walletAccountEffect'),
        effectOn('reserved').as('reservedAccountEffect'),
      ])
      .orderBy('t.id', 'desc'),
  );
  return {
    total: result.total,
    items: result.items.map((r) => ({
      ...(r.details as TransactionDetails),
      ...(r.amounts as Amounts),
      traceCode: r.traceCode,
      type: r.type,
      // A wallet correction tells its own story (its reason, a refused withdrawal, a missed promise's compensation).
      title: correctionTitle(r.type, r.details as TransactionDetails) ?? transactionTypeOf(r.type).title,
      walletAccountEffect: r.walletAccountEffect,
      reservedAccountEffect: r.reservedAccountEffect,
      createdAt: new Date(r.createdAt).toISOString(),
    })),
  };
}
