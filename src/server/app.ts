/**
 * Builds the Fastify application: database, contract routes, static web app with history fallback,
 * /storage, and one error handler that answers every failure with a Persian `{result: false, msg}`.
 * Tests build real instances with this factory and listen on port 0.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  LogController,
} from 'fastify';
import { Redis } from 'ioredis';
import type { AppConfig } from './config';
import { loadContract } from './contract/contract';
import type { AnyHandler, Authenticator, Handlers } from './contract/handlers';
import { JSON_BODY_LIMIT, registerContractRoutes } from './contract/router';
import { type DatabaseHandle, openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { inputDatabaseError } from './http/database-errors';
import { HttpError } from './http/errors';
import { loggerOptions } from './http/log-options';
import { FormValidatorModules, registerFormValidators } from './modules/desks/form-validators';
import { keepSubresourceHeaders, registerSecurityHeaders } from './http/security-headers';
import { type MarkedPage, markedPages, pageEncoding } from './http/test-instance';
import { registerCompression } from './http/compression';
import { type MessageKey, msg } from './http/messages';
import { lockDataDir } from './lib/data-dir-lock';
import { databaseFailureBackoff, databaseRateLimiter, redisFailureBackoff, redisRateLimiter } from './lib/rate-limit';
import { getOrCreateSecret } from './lib/secrets';
import { FieldCipher, KEY_FILE_NAME, keyFromDataDir } from './lib/field-cipher';
import { accessHandlers } from './modules/access/handlers';
import { bankAccountHandlers } from './modules/bank-accounts/handlers';
import { cardHandlers } from './modules/cards/handlers';
import { createCardInquiry } from './modules/cards/inquiry';
import { resealCards } from './modules/cards/reseal';
import { seedAccess } from './modules/access/seed';
import { catalogueHandlers } from './modules/catalogue/handlers';
import { referenceHandlers } from './modules/catalogue/reference-handlers';
import { seedDemoCatalogue } from './modules/catalogue/seed';
import { catalogueEditorHandlers } from './modules/desks/handlers';
import { CATALOGUE_PUBLISHED, CatalogueSource } from './modules/desks/live-source';
import { fulfilmentHandlers } from './modules/fulfilment/handlers';
import { googleAdsHandlers } from './modules/google-ads/handlers';
import { manualGoogleAdsOperations } from './modules/google-ads/operations';
import { chargeableAccount } from './modules/google-ads/service';
import type { FulfilmentDeps } from './modules/fulfilment/deps';
import { releaseOnProfileRejection } from './modules/fulfilment/invalidation';
import { profileReviewHandlers } from './modules/identity/profile-review';
import { identityHandlers } from './modules/identity/handlers';
import { loginGuard } from './modules/identity/login-limits';
import { createSmsSender } from './modules/identity/sms';
import { SESSION_CACHE_MS, sessionCache, tokenAuthenticator } from './modules/identity/tokens';
import { ledgerHandlers } from './modules/ledger/handlers';
import { balanceCache } from './modules/ledger/service';
import { createPaymentGateway } from './modules/payments/gateways';
import { paymentHandlers } from './modules/payments/handlers';
import { collectionHandlers } from './modules/payments/staff-handlers';
import { PaymentService } from './modules/payments/service';
import { requestHandlers } from './modules/requests/handlers';
import type { PriceSourceKind } from './modules/requests/price-sources';
import { QuoteSigner } from './modules/requests/quote-token';
import { sealStoredSecrets } from './modules/requests/secrets';
import { RequestService } from './modules/requests/service';
import { registerSandboxBank } from './modules/sandbox-bank';
import { settingsHandlers } from './modules/settings/handlers';
import { seedSystemParameters } from './modules/settings/service';
import { scheduleCleanup } from './modules/storage/cleanup';
import { Storage } from './modules/storage/storage';
import { taskHandlers } from './modules/tasks/handlers';
import { taskTypes } from './modules/tasks/task-types';
import { waitingWorkHandlers } from './modules/tasks/waiting-work';
import { staffEventActions } from './realtime/channels';
import { LiveEvents } from './realtime/events';
import { attachRealtime, type Peers } from './realtime/server';
import { hasSignedInHint } from '../shared/signed-in-hint';

export interface App {
  fastify: FastifyInstance;
  database: DatabaseHandle;
  config: AppConfig;
  redis: Redis | null;
  /** Set on the start that created the administrator without ADMIN_PASSWORD: print it once. */
  generatedAdminPassword: string | null;
  /** Uploaded files (DATA_DIR/storage); its clean-up runs on a timer, tests may run it at once. */
  storage: Storage;
}

export class RedisUnavailableError extends Error {}

async function connectRedis(url: string, keyPrefix: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5000, keyPrefix });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const where = new URL(url);
    throw new RedisUnavailableError(
      `cannot connect to Redis at ${where.hostname}:${where.port || 6379}: ${(error as Error).message}`,
    );
  }
  return redis;
}

/** A customer's balances on a quote are only shown, so they may be this much older than a posting nobody announced. */
const BALANCE_CACHE_MS = 60_000;

/**
 * Sessions and customers' balances are read from memory between changes (issue 10: a price inquiry costs no query).
 * Only where every change reaches this process: the embedded database has one process, and several processes on
 * PostgreSQL tell each other through Redis. Without Redis another process's logout would go unheard, so nothing
 * is kept.
 */
function rememberSessionsAndBalances(db: DatabaseHandle['db'], peers: Peers, everyChangeHeard: boolean): void {
  const sessions = sessionCache(db);
  const balances = balanceCache(db);
  if (everyChangeHeard) {
    sessions.setLifetime(SESSION_CACHE_MS);
    balances.setLifetime(BALANCE_CACHE_MS);
  }
  sessions.onForget(() => peers.tell('sessions'));
  balances.onForget((users) => peers.tell(`balances:${users === 'all' ? 'all' : users.join(',')}`));
  peers.onMessage((message) => {
    if (message === 'sessions') sessions.forgetAll({ quiet: true });
    else if (message === 'balances:all') balances.forgetAll({ quiet: true });
    else if (message.startsWith('balances:')) {
      balances.forget(message.slice('balances:'.length).split(',').map(Number), { quiet: true });
    }
  });
}

/** Fastify's own client errors, by code, and the Persian message each becomes. */
const FASTIFY_ERROR_MESSAGES: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'http.invalidJson',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'http.invalidJson',
  FST_ERR_CTP_BODY_TOO_LARGE: 'http.payloadTooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'http.unsupportedMediaType',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'http.badRequest',
};

/**
 * Whether an unknown path may be a page of the web app, which its router resolves from index.html. API and
 * storage paths are not, nor assets: anything under /assets/ or whose last segment has a file extension
 * (`.js`, `.map`, `.png`, `.woff2`, …; no page path has one). A missing asset is a 404, never the HTML page.
 */
function isPageRoute(url: string): boolean {
  const pathname = url.split(/[?#]/, 1)[0] ?? '';
  if (pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/storage/')) return false;
  if (pathname.startsWith('/assets/')) return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !/\.[A-Za-z0-9]{1,10}$/.test(last);
}

/**
 * The public pages the build prerendered (build/prerender.ts writes `pages/<path>.html`, `/` as pages/index.html),
 * by page path: the history fallback sends one of these when the path has one, else the empty index.html.
 */
function prerenderedPages(webDir: string): Map<string, string> {
  const dir = path.join(webDir, 'pages');
  const pages = new Map<string, string>();
  if (!existsSync(dir)) return pages;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = path.relative(webDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    const page = file.slice('pages'.length, -'.html'.length);
    pages.set(page === '/index' ? '/' : page, file);
  }
  return pages;
}

function installErrorHandling(
  fastify: FastifyInstance,
  webIndex: string | null,
  pages: Map<string, string>,
  /** While the sandbox bank is the gateway: each page with the test instance's banner (http/test-instance.ts). */
  marked: ((file: string) => MarkedPage) | null,
): void {
  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ result: false, msg: error.message, data: error.data });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const key = FASTIFY_ERROR_MESSAGES[error.code] ?? (status === 413 ? 'http.payloadTooLarge' : 'http.badRequest');
      return reply.status(status).send({ result: false, msg: msg(key), data: null });
    }
    const fromInput = inputDatabaseError(error);
    if (fromInput) {
      // Input the contract let through but the database refused (a value its column cannot hold, a missing row):
      // the client's fault, logged as a warning with the SQLSTATE so a too-loose contract bound gets noticed.
      // Only the SQLSTATE and PostgreSQL's text: the error also carries the query's parameters, which are input.
      request.log.warn({ sqlState: fromInput.sqlState, reason: error.message }, 'database refused input');
      return reply.status(fromInput.status).send({ result: false, msg: msg(fromInput.message), data: null });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ result: false, msg: msg('http.internal'), data: null });
  });

  fastify.setNotFoundHandler((request, reply) => {
    if (webIndex && isPageRoute(request.url) && (request.method === 'GET' || request.method === 'HEAD')) {
      // A prerendered public page, else the history fallback: the web app's router decides what the path shows.
      // Prerendered pages are drawn for a guest: a browser holding a session (the hint cookie) gets the empty shell,
      // and its own page is drawn there without a guest's page showing first.
      const pathname = (request.url.split(/[?#]/, 1)[0] ?? '/').replace(/(.)\/+$/, '$1');
      const prerendered = pages.get(pathname);
      const file = prerendered && !hasSignedInHint(request.headers.cookie) ? prerendered : 'index.html';
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
      if (!marked) {
        if (prerendered) reply.header('vary', 'Cookie');
        return reply.sendFile(file);
      }
      // A test instance's page: the build's compressed copies are of the page without the banner, so its own.
      const page = marked(file);
      const encoding = pageEncoding(request.headers['accept-encoding']);
      reply.header('vary', prerendered ? 'Cookie, Accept-Encoding' : 'Accept-Encoding');
      if (encoding) reply.header('content-encoding', encoding);
      return reply.send(encoding ? page[encoding] : page.html);
    }
    return reply.status(404).send({ result: false, msg: msg('http.notFound'), data: null });
  });
}

/**
 * The cipher of credentials at rest (decision 021): FIELD_ENCRYPTION_KEY, or else the key file under DATA_DIR,
 * created on the first start (said once, in the log, with where it is; never the key). With the variable set, a key
 * file left from earlier starts still opens what it sealed, so moving to the variable re-seals at this start.
 */
function fieldCipher(config: AppConfig, log: FastifyBaseLogger): FieldCipher {
  const keyFile = path.join(config.dataDir, KEY_FILE_NAME);
  if (config.fieldKeys.current) {
    const previous = [...config.fieldKeys.previous];
    if (existsSync(keyFile)) previous.push(keyFromDataDir(config.dataDir).key);
    return new FieldCipher(config.fieldKeys.current, previous);
  }
  mkdirSync(config.dataDir, { recursive: true });
  const { key, file, created } = keyFromDataDir(config.dataDir);
  if (created) {
    log.warn(
      { file },
      'FIELD_ENCRYPTION_KEY is not set: created a key file for credentials at rest (owner-only); back it up with the database, or set FIELD_ENCRYPTION_KEY',
    );
  }
  return new FieldCipher(key, config.fieldKeys.previous);
}

/** Deeper than any body the contract describes (a desk form nests four levels inside the envelope). */
const MAX_JSON_NESTING = 32;

/** Whether JSON text opens more than `max` arrays or objects inside one another (brackets in strings skipped). */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * What helmet puts on every answer, for the answers written before Fastify (and so helmet) sees a request: a JSON
 * envelope that nothing may sniff, frame or run (decision 013).
 */
const RAW_ANSWER_HEADERS =
  "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n" +
  'X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n' +
  'Cache-Control: no-store\r\n';

/** Fastify's clientErrorHandler: the raw socket gets a whole HTTP answer with the envelope, then is closed. */
function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, key]: [number, MessageKey] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'http.requestTimeout']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'http.headersTooLarge']
        : [400, 'http.badRequest'];
  this.log.debug({ code: error.code }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ result: false, msg: msg(key), data: null });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n${RAW_ANSWER_HEADERS}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export interface BuildOptions {
  /** Where JSON log lines go (default stdout); tests capture them to read SMS codes of the log driver. */
  logStream?: NodeJS.WritableStream;
  /** An in-memory database (`memory://`) starts from this dumped data directory: tests' migrated template. */
  memoryImage?: Blob;
}

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<App> {
  const fastify = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    // Any route without its own limit (the contract's routes set theirs: small JSON, larger uploads).
    bodyLimit: JSON_BODY_LIMIT,
    // A client has this long to send a whole request (a slow upload included); a stalled one is cut off instead
    // of holding a socket. Answers (and the real-time socket once upgraded) are not bound by it.
    requestTimeout: 60_000,
    // Errors of the router itself (a path parameter past find-my-way's 100 characters, a malformed URL) get the
    // envelope with a Persian message like every other refusal, instead of Fastify's English JSON.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      const body = { result: false, msg: msg(status === 414 ? 'http.uriTooLong' : 'http.badRequest'), data: null };
      void reply.code(status).send(body);
    },
    // Errors Node's HTTP parser answers before Fastify sees a request (a URL or headers past Node's 16 KB, a
    // stalled upload, a malformed request line) also get the envelope in Persian instead of Fastify's English JSON.
    clientErrorHandler: answerClientError,
    // Off unless TRUST_PROXY names the proxy: otherwise any client could pick its address in X-Forwarded-For.
    trustProxy: config.trustProxy,
    // Per-request lines only when debugging; errors and our own events are always logged.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
  });

  // An empty JSON body means "no fields", as openapi-fetch sends for operations without input.
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    // JSON.parse takes thousands of nested brackets, but what walks the value afterwards (the text guard, the
    // validator) recurses and would overflow the stack: a 500. No operation nests anywhere near this deep.
    if (jsonNestingExceeds(text, MAX_JSON_NESTING)) return done(HttpError.of(400, 'http.invalidJson'), undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(HttpError.of(400, 'http.invalidJson'), undefined);
    }
  });

  // The embedded database's folder belongs to one process. With PostgreSQL, processes share the database and
  // DATA_DIR/storage by design (docs/deploy.md), so only the embedded database takes the lock.
  const releaseDataDir =
    config.databaseUrl === undefined
      ? await lockDataDir(config.dataDir, (error) => {
          fastify.log.fatal({ err: error }, 'another process took the data directory lock over; stopping');
          process.exit(1);
        })
      : null;
  const unlockDataDir = async () => {
    await releaseDataDir?.().catch(() => {});
  };
  let database: DatabaseHandle;
  try {
    database = await openDatabase({ ...config, memoryImage: options.memoryImage });
  } catch (error) {
    await unlockDataDir();
    throw error;
  }
  let redis: Redis | null = null;
  let seeded: { generatedPassword: string | null };
  let storageSecret: string;
  try {
    if (config.redisUrl) redis = await connectRedis(config.redisUrl, config.redisKeyPrefix);
    const applied = await migrate(database);
    if (applied.length > 0) fastify.log.info({ applied }, 'database migrated');
    await seedSystemParameters(database.db);
    if (config.seedDemo) await seedDemoCatalogue(database.db);
    seeded = await seedAccess(database.db, config.admin);
    storageSecret = await getOrCreateSecret(database.db, 'storageSigning');
  } catch (error) {
    redis?.disconnect();
    await database.close();
    await unlockDataDir();
    throw error;
  }
  fastify.addHook('onClose', async () => {
    await redis?.quit().catch(() => redis?.disconnect());
    await database.close();
    await unlockDataDir();
  });
  const { db } = database;
  const storage = new Storage(path.join(config.dataDir, 'storage'), storageSecret, config.uploadLimits);
  const uploadCleanup = scheduleCleanup(
    () => storage.removeOrphans(db, config.uploadLimits.orphanGraceSeconds),
    fastify.log,
  );
  fastify.addHook('preClose', async () => uploadCleanup.stop());
  await fastify.register(fastifyMultipart, { limits: { fileSize: 5 * 1024 * 1024, files: 2, fields: 5 } });

  const webIndex = existsSync(path.join(config.webDir, 'index.html')) ? path.join(config.webDir, 'index.html') : null;
  await registerSecurityHeaders(fastify);
  await registerCompression(fastify);
  installErrorHandling(
    fastify,
    webIndex,
    webIndex ? prerenderedPages(config.webDir) : new Map(),
    webIndex && config.payments.gateway === 'sandbox' ? markedPages(config.webDir) : null,
  );

  // The live catalogue: the files under schemas/ (watched) and the versions staff published (decision 014).
  const catalogueSource = await CatalogueSource.start({
    db,
    schemasDir: config.schemasDir,
    log: fastify.log,
  });
  catalogueSource.watch();
  fastify.addHook('preClose', async () => catalogueSource.stop());
  const { catalogue } = catalogueSource;
  const formValidators = new FormValidatorModules(catalogue);
  const cipher = fieldCipher(config, fastify.log);
  await sealStoredSecrets(db, cipher, catalogue.writeOnlyFields, fastify.log);
  await resealCards(db, cipher, fastify.log);
  const contract = loadContract();
  const actionsUsedByContract = new Set(
    contract.operations.flatMap((op) => (op.access.kind === 'staff' ? [op.access.action] : [])),
  );
  const authenticate: Authenticator = tokenAuthenticator(db, config.sessions);
  // Realtime imports no module: it is handed the staff action of each task type.
  const taskActions = new Map(taskTypes.map((t) => [t.identifier, t.action]));
  const { broadcaster, peers } = attachRealtime(fastify, authenticate, redis, staffEventActions(taskActions.values()));
  const live = new LiveEvents(broadcaster, taskActions);
  // Requests' ChargeableAccount port: google-ads answers which account a recharge charges.
  const requests = new RequestService(db, catalogue, await QuoteSigner.open(db), cipher, chargeableAccount);
  // A price uses rates and parameters kept in memory: forget them when they change, here and in the other
  // processes (before the change's broadcast, which leaves after this word on the same Redis connection).
  const pricesChanged = (kind: PriceSourceKind) => {
    requests.sources.invalidate(kind);
    peers.tell(`prices:${kind}`);
  };
  rememberSessionsAndBalances(db, peers, database.kind === 'pglite' || redis !== null);
  peers.onMessage((message) => {
    if (message === 'prices:currencies' || message === 'prices:parameters') {
      requests.sources.invalidate(message.slice('prices:'.length) as PriceSourceKind);
    }
    // Another process published a catalogue version: read the newest versions (decision 014).
    if (message === CATALOGUE_PUBLISHED) void catalogueSource.reloadPublished().catch(() => undefined);
  });
  catalogueSource.announceWith(() => peers.tell(CATALOGUE_PUBLISHED));
  // Each process tells its own sockets once its catalogue changed, so a page re-fetches from a process that has it.
  catalogue.onChange((_snapshot, change) => live.catalogueChanged(change));
  // The sandbox bank is served by this same server unless SANDBOX_BANK_URL points elsewhere.
  const ownBaseUrl = () => {
    const address = fastify.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  };
  const gateway = createPaymentGateway(config, ownBaseUrl);
  const payments = new PaymentService({
    db,
    requests,
    gateway,
    live,
    log: fastify.log,
    isCashDesk: (desk) => catalogue.deskForm(desk)?.desk.isCashService ?? false,
    signedUrl: (path) => storage.signedUrl(path),
    cipher,
  });
  // Google's API is out of reach: staff act in Google's console and record it (decision 018).
  const googleAds = manualGoogleAdsOperations;
  const fulfilment: FulfilmentDeps = { db, catalogue, requests, storage, live, cipher, log: fastify.log };
  const handlers: Handlers = {
    getHealth: async () => ({ result: true, msg: '', data: { database: database.kind } }),
    ...catalogueHandlers(db, {
      currencyUpdated: (currency) => {
        pricesChanged('currencies');
        live.currencyUpdated(currency);
      },
    }),
    ...settingsHandlers(db, {
      systemParametersUpdated: () => {
        pricesChanged('parameters');
        live.systemParametersUpdated();
      },
    }),
    ...identityHandlers({
      db,
      storage,
      live,
      sessions: config.sessions,
      loginGuard: loginGuard(redis ? redisFailureBackoff(redis) : databaseFailureBackoff(db), config.loginLimits),
      inquiryLimits: config.inquiryLimits,
      codes: {
        db,
        sms: createSmsSender(config, fastify.log),
        rateLimiter: redis ? redisRateLimiter(redis) : databaseRateLimiter(db),
        limits: config.smsLimits,
      },
    }),
    ...accessHandlers(db, actionsUsedByContract),
    ...taskHandlers(db),
    // Identity's ProfileRejected port: fulfilment releases the customer's unfulfilled paid requests.
    ...profileReviewHandlers(db, storage, live, releaseOnProfileRejection(db, live)),
    ...referenceHandlers(db, catalogue),
    ...requestHandlers(db, catalogue, requests, live),
    ...ledgerHandlers(db),
    ...bankAccountHandlers(db, live),
    ...cardHandlers({ db, cipher, inquiry: createCardInquiry(config), log: fastify.log }, live, {
      gatewayNeedsCard: gateway.requiresNamedCard,
    }),
    ...paymentHandlers(payments, (request) => config.payments.publicUrl ?? `${request.protocol}://${request.host}`),
    ...collectionHandlers(db, payments, gateway),
    ...waitingWorkHandlers(db, (desk) => catalogue.deskForm(desk)?.desk.title ?? desk),
    ...fulfilmentHandlers(fulfilment),
    ...googleAdsHandlers(db, live, googleAds, fulfilment),
    ...catalogueEditorHandlers(db, catalogueSource, (kind, document) => formValidators.rememberDraft(kind, document)),
  };
  registerContractRoutes(fastify, {
    contract,
    handlers: handlers as unknown as Record<string, AnyHandler>,
    authenticate,
    validateResponses: config.validateResponses,
  });
  storage.register(fastify);
  registerFormValidators(fastify, formValidators);
  // The test bank (modules/sandbox-bank) is served only while it is the gateway.
  if (config.payments.gateway === 'sandbox') {
    registerSandboxBank(fastify, db, { mode: config.payments.sandboxBankMode });
  }

  if (webIndex) {
    await fastify.register(fastifyStatic, {
      root: config.webDir,
      wildcard: false,
      // `/` is a page like the others: the not-found handler sends its prerendered file.
      index: false,
      // The build writes a brotli and a gzip copy of every text file (build/compress.ts); the one the client
      // accepts is sent, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        // Files under assets/ carry a content hash in their name: cached for a year and never revalidated.
        // Everything else (the HTML pages, the favicon, images) is revalidated on each use.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        if (immutable && /\.(?:js|css|woff2)(?:\.br|\.gz)?$/.test(filePath)) keepSubresourceHeaders(res.raw);
      },
    });
  }

  return { fastify, database, config, redis, generatedAdminPassword: seeded.generatedPassword, storage };
}
