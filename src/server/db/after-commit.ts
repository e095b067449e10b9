/**
 * Work that must wait until a database transaction has committed: forgetting what an in-memory cache holds about
 * rows the transaction changed. Forgotten earlier, a read racing the transaction would find the old rows and put
 * them back; forgotten never (a rollback), it costs one more read.
 *
 * `trackCommits(db)` makes `db.transaction().execute(fn)` run the hooks `afterCommit` registered on its `trx` once
 * the transaction has committed (not when it rolled back). On a handle outside a transaction a statement commits
 * as it runs, so `afterCommit` runs its hook at once. A hook receives the root handle, which is what caches are
 * keyed by.
 *
 * `beforeCommit` is the other end: work that takes a row many transactions update (a day's counter) runs last, just
 * before the commit, so that the row's lock is held for one statement and the commit instead of the whole transaction.
 */
import type { Kysely, Transaction, TransactionBuilder } from 'kysely';

type Hook<D> = (root: NoInfer<Kysely<D>>) => void;

/** Hooks of one open transaction (typed loosely: a map holds transactions of any database type). */
interface Pending {
  root: unknown;
  hooks: Array<(root: unknown) => void>;
  /** Run in order, in the transaction, once its callback has returned (a throw rolls it back). */
  last: Array<() => Promise<void>>;
}

const pendingByTransaction = new WeakMap<object, Pending>();
const tracked = new WeakSet<object>();

/** Runs `hook` once the transaction `db` belongs to has committed, at once when `db` is not a transaction. */
export function afterCommit<D>(db: Kysely<D> | Transaction<D>, hook: Hook<D>): void {
  const pending = pendingByTransaction.get(db);
  if (pending) {
    pending.hooks.push(hook as (root: unknown) => void);
    return;
  }
  if (db.isTransaction) {
    // A transaction this module did not open (its root was not tracked): nobody would run the hook later.
    throw new Error('afterCommit: the transaction was opened on a handle without trackCommits');
  }
  hook(db);
}

/**
 * Runs `work` in the transaction `db` belongs to, after everything else the transaction does and before it commits;
 * at once when `db` is not a transaction.
 */
export async function beforeCommit<D>(db: Kysely<D> | Transaction<D>, work: () => Promise<void>): Promise<void> {
  const pending = pendingByTransaction.get(db);
  if (pending) {
    pending.last.push(work);
    return;
  }
  if (db.isTransaction) throw new Error('beforeCommit: the transaction was opened on a handle without trackCommits');
  await work();
}

function withHooks<D>(root: Kysely<D>, builder: TransactionBuilder<D>): TransactionBuilder<D> {
  return new Proxy(builder, {
    get(target, property) {
      if (property === 'execute') {
        return async <T>(callback: (trx: Transaction<D>) => Promise<T>): Promise<T> => {
          const pending: Pending = { root, hooks: [], last: [] };
          const result = await target.execute(async (trx) => {
            pendingByTransaction.set(trx, pending);
            const value = await callback(trx);
            for (const work of pending.last) await work();
            return value;
          });
          for (const hook of pending.hooks) hook(pending.root);
          return result;
        };
      }
      if (property === 'setAccessMode' || property === 'setIsolationLevel') {
        return (value: never) => withHooks(root, target[property](value));
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Lets transactions opened on `db` run `afterCommit` hooks; returns `db`. */
export function trackCommits<D>(db: Kysely<D>): Kysely<D> {
  if (tracked.has(db)) return db;
  tracked.add(db);
  const open = db.transaction.bind(db);
  db.transaction = () => withHooks(db, open());
  return db;
}
