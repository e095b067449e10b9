/**
 * What the server's JSON log may hold (decision 021): never a token, a log-in code, a password or an uploaded image.
 * Request bodies are never logged; a request line (debug level) names the method and the path without its query
 * (a signed file address or a bank's callback carries a capability there) and with a capability that is a path
 * segment (/pay/<token>, /verify/<code>, the payment callback's token) redacted; the authorization and cookie headers are
 * redacted wherever a request object is logged; an error keeps its type, message, code and stack only, since
 * database and HTTP client errors carry the query's parameters or the request they were given; and any field named
 * like a secret is redacted at the first two levels of a log line. The `log` SMS driver's own line (`"msg":"sms"`)
 * is the one exception by design: it is the SMS, for development (README, SMS_DRIVER).
 */
import type { FastifyServerOptions } from 'fastify';
import pino from 'pino';

/** Field names whose value is a secret, wherever they appear in a log line (two levels deep). */
const SECRET_KEYS = [
  'password',
  'newPassword',
  'oldPassword',
  'targetPagePassword',
  'token',
  'userToken',
  'validationCode',
  'captcha',
  'authorization',
  'cookie',
  'secret',
  'signature',
];

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  // @fastify/multipart logs the upload's busboy options, headers included, at trace level.
  '*.headers.authorization',
  '*.headers.cookie',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  'body',
  'req.body',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`]),
];

/** The path of a URL without its query string or fragment. */
export const pathOnly = (url: string | undefined) => (url ?? '').split(/[?#]/, 1)[0];

/**
 * Paths whose next segment is itself a capability: a payment link's token (whoever holds it may pay and read the
 * request's price), a receipt's verification code, and the token of a gateway's return to us. The segment is
 * replaced, so a request line still says which page or route was asked for.
 */
const CAPABILITY_PATHS = [/^(\/pay\/)[^/]+/, /^(\/verify\/)[^/]+/, /^(\/api\/public\/payments\/callback\/)[^/]+/];

/** A request line's path: no query, no fragment, and no capability in it (decisions 027, 028). */
export function loggedPath(url: string | undefined): string {
  let path = pathOnly(url) ?? '';
  // A path as sent may be percent-encoded or doubled (//pay/…); match the form the router resolves.
  const normalized = path.replace(/\/{2,}/g, '/');
  for (const pattern of CAPABILITY_PATHS) {
    if (pattern.test(normalized)) path = normalized.replace(pattern, '$1[Redacted]');
  }
  return path;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  id?: string;
  ip?: string;
  socket?: { remoteAddress?: string };
}

interface LoggedError {
  name?: string;
  message?: string;
  stack?: string;
  code?: unknown;
  statusCode?: unknown;
  constructor?: { name?: string };
}

export const LOG_SERIALIZERS = {
  req: (req: LoggedRequest) => ({ id: req.id, method: req.method, path: loggedPath(req.url), ip: req.ip }),
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
  err: (err: LoggedError) => {
    if (!err || typeof err !== 'object') return err;
    return {
      type: String(err.constructor?.name ?? err.name ?? 'Error'),
      message: String(err.message ?? ''),
      ...(typeof err.code === 'string' || typeof err.code === 'number' ? { code: err.code } : {}),
      ...(typeof err.statusCode === 'number' ? { statusCode: err.statusCode } : {}),
      stack: String(err.stack ?? ''),
    };
  },
};

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
    serializers: LOG_SERIALIZERS,
    ...(stream ? { stream } : {}),
  };
}

/**
 * Where the log goes when no stream is given: stdout. With the `log` SMS driver, the line is the SMS, so it is written
 * synchronously: pino's default writes in the background, and a process killed between recording an SMS sent and
 * that write lost the line of an SMS recorded sent (tests/api/crash-safety.test.ts found one of 1,146 under SIGKILLs). Other drivers keep the
 * faster background writes.
 */
export function logDestination(smsDriver: string): NodeJS.WritableStream | undefined {
  return smsDriver === 'log'
    ? (pino.destination({ dest: 1, sync: true }) as unknown as NodeJS.WritableStream)
    : undefined;
}
