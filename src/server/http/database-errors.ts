/**
 * Database errors that input causes, answered as the client's fault instead of a 500 (decision 017). The contract bounds
 * every integer to its column, so these are the second line: a value the column still cannot hold, text that does
 * not convert, a reference to a row that does not exist, a duplicate. PGlite and node-postgres both throw an error
 * with the PostgreSQL SQLSTATE in `code` (five characters) and a `severity`; drivers or our code may wrap it as
 * `cause`.
 */
import type { MessageKey } from './messages';

export interface InputDatabaseError {
  status: 400 | 409 | 422;
  message: MessageKey;
  sqlState: string;
}

/** The SQLSTATE of a PostgreSQL error (also when wrapped as `cause`), or null for any other error. */
export function sqlStateOf(error: unknown): string | null {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, severity, cause } = current as { code?: unknown; severity?: unknown; cause?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string') return code;
    current = cause;
  }
  return null;
}

/** How to answer a database error caused by input, or null when it is the server's own failure (a 500). */
export function inputDatabaseError(error: unknown): InputDatabaseError | null {
  const sqlState = sqlStateOf(error);
  if (sqlState === null) return null;
  // Class 22, data exception: the value does not fit or does not convert.
  if (sqlState === '22001') return { status: 400, message: 'http.valueTooLong', sqlState };
  if (sqlState === '22003') return { status: 400, message: 'http.valueOutOfRange', sqlState };
  if (sqlState.startsWith('22')) return { status: 400, message: 'http.badRequest', sqlState };
  // Class 23, integrity constraint violation.
  if (sqlState === '23505') return { status: 409, message: 'http.duplicate', sqlState };
  if (sqlState === '23503') return { status: 422, message: 'http.referenceNotFound', sqlState };
  if (sqlState.startsWith('23')) return { status: 422, message: 'http.valueNotAllowed', sqlState };
  return null;
}
