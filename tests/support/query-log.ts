/** The SQL a server sends while a step runs: every query through Kysely's executor of `db`, in this process. */
import type { Kysely, QueryResult } from 'kysely';

export async function queriesOf<DB>(db: Kysely<DB>, step: () => Promise<unknown>): Promise<string[]> {
  const executor = Object.getPrototypeOf(db.getExecutor()) as {
    executeQuery: (compiled: { sql: string }, ...rest: unknown[]) => Promise<QueryResult<unknown>>;
  };
  const original = executor.executeQuery;
  const seen: string[] = [];
  executor.executeQuery = function (this: unknown, compiled, ...rest) {
    seen.push(compiled.sql);
    return original.call(this, compiled, ...rest);
  };
  try {
    await step();
  } finally {
    executor.executeQuery = original;
  }
  return seen;
}
