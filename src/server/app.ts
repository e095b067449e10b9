/**
 * Builds the Fastify application: database, contract routes, static web app with history fallback,
 * /storage, and one error handler that answers every failure with a Persian `{result: false, msg}`.
 * Tests build real instances with this factory and listen on port 0.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance, LogController } from 'fastify';
import { Redis } from 'ioredis';
import type { AppConfig } from './config';
import { loadContract } from './contract/contract';
import type { AnyHandler, Authenticator, Handlers } from './contract/handlers';
import { registerContractRoutes } from './contract/router';
import { type DatabaseHandle, openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { inputDatabaseError } from './http/database-errors';
import { HttpError } from './http/errors';
import { registerSecurityHeaders } from './http/security-headers';
import { type MessageKey, msg } from './http/messages';
import { lockDataDir } from './lib/data-dir-lock';
import { databaseFailureBackoff, databaseRateLimiter, redisFailureBackoff, redisRateLimiter } from './lib/rate-limit';
import { getOrCreateSecret } from './lib/secrets';
import { accessHandlers } from './modules/access/handlers';
import { bankAccountHandlers } from './modules/bank-accounts/handlers';
import { seedAccess } from './modules/access/seed';
import { catalogueHandlers } from './modules/catalogue/handlers';
import { referenceHandlers } from './modules/catalogue/reference-handlers';
import { seedDemoCatalogue } from './modules/catalogue/seed';
import { Catalogue } from './modules/desks/catalogue';
import { fulfilmentHandlers } from './modules/fulfilment/handlers';
import { FulfilmentService } from './modules/fulfilment/service';
import { identityHandlers } from './modules/identity/handlers';
import { loginGuard } from './modules/identity/login-limits';
import { createSmsSender } from './modules/identity/sms';
import { tokenAuthenticator } from './modules/identity/tokens';
import { ledgerHandlers } from './modules/ledger/handlers';
import { createPaymentGateway } from './modules/payments/gateways';
import { paymentHandlers } from './modules/payments/handlers';
import { collectionHandlers } from './modules/payments/staff-handlers';
import { PaymentService } from './modules/payments/service';
import { requestHandlers } from './modules/requests/handlers';
import { RequestService } from './modules/requests/service';
import { registerSandboxBank } from './modules/sandbox-bank';
import { settingsHandlers } from './modules/settings/handlers';
import { seedSystemParameters } from './modules/settings/service';
import { scheduleCleanup } from './modules/storage/cleanup';
import { Storage } from './modules/storage/storage';
import { taskHandlers } from './modules/tasks/handlers';
import { waitingWorkHandlers } from './modules/tasks/waiting-work';
import { LiveEvents } from './realtime/events';
import { attachRealtime } from './realtime/server';

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

function installErrorHandling(fastify: FastifyInstance, webIndex: string | null): void {
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
      // History fallback: the web app's router decides what an unknown path shows.
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ result: false, msg: msg('http.notFound'), data: null });
  });
}

export interface BuildOptions {
  /** Where JSON log lines go (default stdout); tests capture them to read SMS codes of the log driver. */
  logStream?: NodeJS.WritableStream;
}

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<App> {
  const fastify = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    bodyLimit: 6 * 1024 * 1024,
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
    database = await openDatabase(config);
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
  installErrorHandling(fastify, webIndex);

  const catalogue = Catalogue.load(config.schemasDir);
  const contract = loadContract();
  const actionsUsedByContract = new Set(
    contract.operations.flatMap((op) => (op.access.kind === 'staff' ? [op.access.action] : [])),
  );
  const authenticate: Authenticator = tokenAuthenticator(db, config.sessions);
  const { broadcaster } = attachRealtime(fastify, authenticate, redis);
  const live = new LiveEvents(broadcaster);
  const requests = new RequestService(db, catalogue);
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
  });
  const fulfilment = new FulfilmentService({ db, catalogue, requests, storage, live });
  const handlers: Handlers = {
    getHealth: async () => ({ result: true, msg: '', data: { database: database.kind } }),
    ...catalogueHandlers(db, { currencyUpdated: (currency) => live.currencyUpdated(currency) }),
    ...settingsHandlers(db, { systemParametersUpdated: () => live.systemParametersUpdated() }),
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
    ...taskHandlers(db, storage, live),
    ...referenceHandlers(db, catalogue),
    ...requestHandlers(db, catalogue, requests, live),
    ...ledgerHandlers(db),
    ...bankAccountHandlers(db, live),
    ...paymentHandlers(payments, (request) => config.payments.publicUrl ?? `${request.protocol}://${request.host}`),
    ...collectionHandlers(db, payments, gateway),
    ...waitingWorkHandlers(db, (desk) => catalogue.deskForm(desk)?.desk.title ?? desk),
    ...fulfilmentHandlers(fulfilment, db),
  };
  registerContractRoutes(fastify, {
    contract,
    handlers: handlers as unknown as Record<string, AnyHandler>,
    authenticate,
    validateResponses: config.validateResponses,
  });
  storage.register(fastify);
  // The test bank (modules/sandbox-bank) is served only while it is the gateway.
  if (config.payments.gateway === 'sandbox') registerSandboxBank(fastify, db);

  if (webIndex) {
    await fastify.register(fastifyStatic, {
      root: config.webDir,
      wildcard: false,
      index: ['index.html'],
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  return { fastify, database, config, redis, generatedAdminPassword: seeded.generatedPassword, storage };
}
