/**
 * Failures of a dependency that went away for a while (decision 032): PostgreSQL's connection reset or refused, Redis out
 * of reach. Nothing is wrong with the request, and retrying it in a few seconds works (payments carry idempotency
 * keys, gateway callbacks are settled once), so it is answered 503 with a Retry-After in Persian instead of a 500.
 */

/** Errors of node-postgres, the pool and ioredis that say the connection is gone, not that the query is wrong. */
const CONNECTION_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN']);
const CONNECTION_MESSAGES = [
  /^Connection terminated/, // pg: the server or the network ended the connection
  /^timeout exceeded when trying to connect/, // pg-pool: no connection within connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable/, // pg: a query on a client whose connection died
  /^Client was closed and is not queryable/,
  /^Connection is closed\.?$/, // ioredis
  /^Reached the max retries per request limit/, // ioredis MaxRetriesPerRequestError
  /^Stream isn't writeable/, // ioredis with its offline queue off
];
/** SQLSTATE classes 08 (connection exception) and 57P01–57P03 (the server shutting down or starting). */
const CONNECTION_SQLSTATE = /^(08...|57P0[123])$/;

/** Which dependency `error` says is away ('database' or 'redis'), or null when it is any other failure. */
export function unavailableDependency(error: unknown): 'database' | 'redis' | null {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, message, name, cause } = current as {
      code?: unknown;
      message?: unknown;
      name?: unknown;
      cause?: unknown;
    };
    const text = typeof message === 'string' ? message : '';
    if (name === 'MaxRetriesPerRequestError' || /^(Connection is closed|Stream isn't writeable)/.test(text))
      return 'redis';
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || CONNECTION_SQLSTATE.test(code))) return 'database';
    if (CONNECTION_MESSAGES.some((pattern) => pattern.test(text))) return 'database';
    current = cause;
  }
  return null;
}

/** Seconds a client is asked to wait before retrying. */
export const RETRY_AFTER_SECONDS = 5;
