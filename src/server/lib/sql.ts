/**
 * Text search and day ranges, one way everywhere. Search is a case-insensitive "contains" (ILIKE) with LIKE's
 * wildcards in the typed text taken literally, so `50%` or `a_b` find themselves and never match everything.
 */
import type { Expression, ExpressionBuilder, ReferenceExpression, SelectQueryBuilder, SqlBool } from 'kysely';

/** An ILIKE pattern that matches `text` anywhere, with LIKE's wildcards in it taken literally. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** True where any of `columns` contains `term` (case-insensitive, wildcards literal). */
export function containsText<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  columns: readonly ReferenceExpression<DB, TB>[],
  term: string,
): Expression<SqlBool> {
  const pattern = likePattern(term);
  return eb.or(columns.map((column) => eb(column, 'ilike', pattern as never)));
}

/**
 * The staff lists' search, one way: any of `text` contains `term` (as containsText), any of `also` holds, or — when
 * the term (or `idTerm`, a cleaned form of it) is a whole number — any of `ids` equals it, so a request's or a
 * row's number finds it.
 */
export function textOrId<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  term: string,
  search: {
    text: readonly ReferenceExpression<DB, TB>[];
    ids: readonly ReferenceExpression<DB, TB>[];
    idTerm?: string;
    also?: readonly Expression<SqlBool>[];
  },
): Expression<SqlBool> {
  const idText = search.idTerm ?? term;
  const id = /^\d{1,15}$/.test(idText) ? Number(idText) : null;
  return eb.or([
    containsText(eb, search.text, term),
    ...(search.also ?? []),
    ...(id === null ? [] : search.ids.map((column) => eb(column, '=', id as never))),
  ]);
}

/** `q` narrowed to rows where any of `columns` contains `term`; unchanged when there is no term. */
export function whereContains<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  columns: readonly ReferenceExpression<DB, TB>[],
  term: string | undefined,
): SelectQueryBuilder<DB, TB, O> {
  return term ? q.where((eb) => containsText(eb, columns, term)) : q;
}

/** The same test for text held in memory (the desk catalogue): any of `values` contains `term`. */
export function textContains(values: readonly string[], term: string): boolean {
  const needle = term.toLowerCase();
  return values.some((value) => value.toLowerCase().includes(needle));
}

/**
 * `q` narrowed to rows whose `column` falls on the UTC days `from` to `to` (YYYY-MM-DD, both days included);
 * unchanged for a bound that is absent.
 */
export function whereWithinDays<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  column: ReferenceExpression<DB, TB>,
  from: string | undefined,
  to: string | undefined,
): SelectQueryBuilder<DB, TB, O> {
  let narrowed = q;
  if (from) narrowed = narrowed.where(column, '>=', new Date(`${from}T00:00:00Z`) as never);
  if (to) {
    const dayAfter = new Date(`${to}T00:00:00Z`);
    dayAfter.setUTCDate(dayAfter.getUTCDate() + 1);
    narrowed = narrowed.where(column, '<', dayAfter as never);
  }
  return narrowed;
}
