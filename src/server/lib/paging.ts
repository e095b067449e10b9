/**
 * Every list the API returns is `{items, total}`; a paged one takes `page` (from 1) and `perPage` (default 50,
 * the contract bounds both). This is the one place that turns those into LIMIT/OFFSET and counts the total.
 */
import { sql, type SelectQueryBuilder } from 'kysely';

export const DEFAULT_PER_PAGE = 50;

export interface PageQuery {
  page?: number | undefined;
  perPage?: number | undefined;
}

/** What a list endpoint returns. */
export interface ListEnvelope<T> {
  items: T[];
  total: number;
}

/** The rows to skip and to take for a page. */
export function pageWindow(query: PageQuery): { limit: number; offset: number } {
  const perPage = query.perPage ?? DEFAULT_PER_PAGE;
  return { limit: perPage, offset: ((query.page ?? 1) - 1) * perPage };
}

/**
 * One page of a query that already has its joins and where clauses, and how many rows all pages hold.
 * `select` picks the columns and the order of the page; the count runs on the query as given.
 */
export async function pageOf<DB, TB extends keyof DB, O, T>(
  q: SelectQueryBuilder<DB, TB, O>,
  query: PageQuery,
  select: (q: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, T>,
  /** At most this many rows match (a lookup by ids): when they fit on the first page, they are counted, not queried. */
  atMost?: number,
): Promise<ListEnvelope<T>> {
  const { limit, offset } = pageWindow(query);
  if (atMost !== undefined && atMost <= limit && offset === 0) {
    const items = (await select(q).limit(limit).execute()) as T[];
    return { items, total: items.length };
  }
  const [items, count] = await Promise.all([
    select(q).limit(limit).offset(offset).execute(),
    q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: items as T[], total: (count as { total: number }).total };
}

/** One page of a list held in memory (the desk catalogue). */
export function pageOfArray<T>(all: readonly T[], query: PageQuery): ListEnvelope<T> {
  const { limit, offset } = pageWindow(query);
  return { items: all.slice(offset, offset + limit), total: all.length };
}

/** A whole, unpaged list in the same envelope. */
export const listOf = <T>(items: T[]): ListEnvelope<T> => ({ items, total: items.length });
