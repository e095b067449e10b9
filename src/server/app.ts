/**
 * Builds the Fastify application — the composition: the database, the modules and the ports they offer one
 * another, the contract's routes, /storage and the web app. What it installs is in its own files: Redis
 * (redis.ts), the caches shared between processes (caches.ts), the credentials' cipher (field-keys.ts), the JSON
 * body (http/json-body.ts), the one error handler (http/error-handling.ts) and the web app's files and history
 * fallback (http/web-fallback.ts). Tests build real instances with this factory and listen on port 0.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import { Redis } from 'ioredis';
import { fileLimitsOf } from '../shared/file-limits';
import type { AppConfig } from './config';
import { loadContract } from './contract/contract';
import type { AnyHandler, Authenticator } from './contract/handlers';
import { JSON_BODY_LIMIT, registerContractRoutes } from './contract/router';
import { type DatabaseHandle, openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { logDestination, loggerOptions } from './http/log-options';
import { registerSecurityHeaders } from './http/security-headers';
import { markedPages } from './http/test-instance';
import { registerCompression } from './http/compression';
import { msg } from './http/messages';
import { lockDataDir } from './lib/data-dir-lock';
import { databaseFailureBackoff, databaseRateLimiter, redisFailureBackoff, redisRateLimiter } from './lib/rate-limit';
import { staffEventActions } from './realtime/channels';
import { LiveEvents } from './realtime/events';
import { attachRealtime } from './realtime/server';
import { createCardInquiry, openMissingCardReviews, resealCards } from './modules/cards';
import { actionsHeldBy, seedAccess, staffHolding } from './modules/access';
import { CATALOGUE_PUBLISHED, CatalogueSource, FormValidatorModules, registerFormValidators } from './modules/desks';
import { seedDemoReferenceData } from './modules/reference-data';
import { chargeableAccount, manualGoogleAdsOperations } from './modules/google-ads';
import { type FulfilmentDeps, releaseOnProfileRejection } from './modules/fulfilment';
import { createSmsSender, loginGuard, tokenAuthenticator } from './modules/identity';
import { type SmsWorker, startNotificationDelivery, attachStaffHolding } from './modules/notifications';
import { createPaymentGateway, type PaymentDeps, tellWaitingPayers } from './modules/payments';
import {
  compensateMissedPromises,
  type PriceSourceKind,
  QuoteSigner,
  requestDeps,
  sealStoredSecrets,
} from './modules/requests';
import { registerSandboxBank } from './modules/sandbox-bank';
import { seedSystemParameters } from './modules/settings';
import { scheduleCleanup, Storage } from './modules/storage';
import { scheduleDeadlineSweep, sweepDeadlines, taskTypes } from './modules/tasks';
import {
  type DaySummary,
  runNightlyReconciliation,
  reconcileDay,
  scheduleNightlyReconciliation,
} from './modules/reconciliation';
import { type Composition, composeHandlers, WORK_QUEUES } from './compose';
import { loadPageRoutes } from './http/page-routes';
import { healthCheck } from './health';
import { serveBackups } from './backup/socket';
import { lastBackupAt, scheduleNightlyBackups } from './backup/nightly';
import { createMetrics, serveMetrics } from './metrics';
import { HttpError } from './http/errors';
import { connectRedis } from './redis';
import { rememberSessionsAndBalances } from './caches';
import { answerClientError, installErrorHandler } from './http/error-handling';
import { installWebFallback, prerenderedPages, registerWebFiles, signedInFrames } from './http/web-fallback';
import { fieldCipher } from './field-keys';
import { registerJsonBody } from './http/json-body';

export interface App {
  fastify: FastifyInstance;
  database: DatabaseHandle;
  config: AppConfig;
  redis: Redis | null;
  /** Set on the start that created the administrator without ADMIN_PASSWORD: print it once. */
  generatedAdminPassword: string | null;
  /** Uploaded files (DATA_DIR/storage); its clean-up runs on a timer, tests may run it at once. */
  storage: Storage;
  /** The notification SMS worker; tests set its clock and wait for it to be idle. */
  notificationSms: SmsWorker;
  /** The sweep notifying requests entering "at risk" of their deadline; on a timer, tests run it with their clock. */
  sweepDeadlines: (now?: Date) => Promise<number>;
  /** Compensates promised requests not done by their promise (decision 041); on a timer, tests run it with their clock. */
  compensateMissedPromises: (now?: Date) => Promise<number>;
  /** The nightly reconciliation of the Tehran day before `now` (null: already claimed); tests run it with their clock. */
  reconcileNightly: (now?: Date) => Promise<DaySummary | null>;
}

export interface BuildOptions {
  /** Where JSON log lines go (default stdout); tests capture them to read SMS codes of the log driver. */
  logStream?: NodeJS.WritableStream;
  /** An in-memory database (`memory://`) starts from this dumped data directory: tests' migrated template. */
  memoryImage?: Blob;
}

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<App> {
  const fastify = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream ?? logDestination(config.smsDriver)),
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

  registerJsonBody(fastify);

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
  try {
    if (config.redisUrl) redis = await connectRedis(config.redisUrl, config.redisKeyPrefix);
    const applied = await migrate(database);
    if (applied.length > 0) fastify.log.info({ applied }, 'database migrated');
    await seedSystemParameters(database.db);
    if (config.seedDemo) await seedDemoReferenceData(database.db);
    seeded = await seedAccess(database.db, config.admin);
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
  // The signing keys derive from the field key, so a backup without it holds nothing that signs (decision 031).
  const cipher = fieldCipher(config, fastify.log);
  const storage = new Storage(
    path.join(config.dataDir, 'storage'),
    cipher.signingSecret('storageSigning'),
    config.uploadLimits,
  );
  const uploadCleanup = scheduleCleanup(
    () => storage.removeOrphans(db, config.uploadLimits.orphanGraceSeconds),
    fastify.log,
  );
  fastify.addHook('preClose', async () => uploadCleanup.stop());
  // The embedded database is backed up through this process, which alone may open it (decision 025).
  if (config.databaseUrl === undefined) {
    const stopBackups = await serveBackups(database, config.dataDir, fastify.log, {
      // npm run reconcile, while this process holds the embedded database.
      reconcile: async (asked) => reconcileDay(db, String(asked.day)),
    });
    fastify.addHook('preClose', stopBackups);
  }
  const nightlyBackups = scheduleNightlyBackups(config, database, fastify.log);
  fastify.addHook('preClose', () => nightlyBackups.stop());
  await fastify.register(fastifyMultipart, { limits: { fileSize: 5 * 1024 * 1024, files: 2, fields: 5 } });

  const webIndex = existsSync(path.join(config.webDir, 'index.html')) ? path.join(config.webDir, 'index.html') : null;
  await registerSecurityHeaders(fastify);
  await registerCompression(fastify);
  installErrorHandler(fastify);
  installWebFallback(
    fastify,
    webIndex,
    webIndex ? prerenderedPages(config.webDir) : new Map(),
    webIndex && config.payments.gateway === 'sandbox' ? markedPages(config.webDir) : null,
    webIndex ? loadPageRoutes(config.webDir) : null,
    webIndex ? signedInFrames(config.webDir) : new Map(),
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
  await sealStoredSecrets(db, cipher, catalogue.writeOnlyFields, fastify.log);
  await resealCards(db, cipher, fastify.log);
  const contract = loadContract();
  const actionsUsedByContract = new Set(
    contract.operations.flatMap((op) => (op.access.kind === 'staff' ? [op.access.action] : [])),
  );
  // Identity and notifications sit below access: they are handed its reads of who holds which action.
  const authenticate: Authenticator = tokenAuthenticator(db, config.sessions, actionsHeldBy);
  attachStaffHolding(staffHolding);
  // Realtime imports no module: it is handed the staff action of each task type.
  const taskActions = new Map(taskTypes.map((t) => [t.identifier, t.action]));
  const { io, broadcaster, peers } = attachRealtime(
    fastify,
    authenticate,
    redis,
    staffEventActions(taskActions.values()),
  );
  const live = new LiveEvents(broadcaster, taskActions);
  // Requests' ChargeableAccount port: google-ads answers which account a recharge charges.
  const requests = requestDeps(db, catalogue, QuoteSigner.of(cipher), cipher, chargeableAccount, storage);
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
  const backupDir = config.nightlyBackup?.dir;
  const metrics = createMetrics({
    db,
    openSockets: () => io.engine.clientsCount,
    ...(backupDir && { lastBackupAt: () => lastBackupAt(backupDir) }),
  });
  metrics.install(fastify);
  serveMetrics(fastify, metrics, config.metricsToken);
  const gateway = metrics.countGateway(createPaymentGateway(config, ownBaseUrl));
  // A card the inquiry did not verify goes to staff only when the gateway needs a named card (decision 034).
  const cardInquiry = createCardInquiry(config);
  const cardStaffReview = gateway.requiresNamedCard;
  if (cardStaffReview) await openMissingCardReviews(db, fastify.log);
  const payments: PaymentDeps = {
    db,
    requests,
    gateway,
    live,
    log: fastify.log,
    isCashDesk: (desk) => catalogue.deskForm(desk)?.desk.isCashService ?? false,
    signedUrl: (path) => storage.signedUrl(path),
    cipher,
    publicUrl: config.payments.publicUrl,
  };
  const fulfilment: FulfilmentDeps = { db, catalogue, requests, storage, live, cipher, log: fastify.log };
  const deskTitle = (desk: string) => catalogue.deskForm(desk)?.desk.title ?? desk;
  const health = healthCheck({ config, database, redis });
  const sms = createSmsSender(config, fastify.log);
  // Notifications: live to their person once committed, and their SMS sent by the worker (stopped before the
  // database closes).
  const notificationSms = startNotificationDelivery({
    db,
    sender: sms,
    options: config.notificationSms,
    log: fastify.log,
    live: (uid, notification) => live.notificationCreated(uid, notification),
  });
  fastify.addHook('preClose', async () => notificationSms.stop());
  const deadlineSweep = (now?: Date) => sweepDeadlines(db, deskTitle, now);
  const deadlineTimer = scheduleDeadlineSweep(() => deadlineSweep(), fastify.log, config.deadlineSweepSeconds * 1000);
  fastify.addHook('preClose', async () => deadlineTimer.stop());
  // Missed promises are compensated by the server alone, on the same beat as the deadline sweep (decision 041).
  const promiseCheck = (now?: Date) => compensateMissedPromises(db, catalogue, now);
  const promiseTimer = scheduleDeadlineSweep(() => promiseCheck(), fastify.log, config.deadlineSweepSeconds * 1000);
  fastify.addHook('preClose', async () => promiseTimer.stop());
  const reconcileNightly = (now?: Date) => runNightlyReconciliation(db, now);
  if (config.nightlyReconciliation) {
    const nightly = scheduleNightlyReconciliation(() => reconcileNightly(), config.nightlyReconciliation, fastify.log);
    fastify.addHook('preClose', async () => nightly.stop());
  }
  const composition: Composition = {
    config,
    db,
    log: fastify.log,
    live,
    storage,
    cipher,
    catalogue,
    catalogueSource,
    requests,
    payments,
    fulfilment,
    gateway,
    gatewayNeedsCard: gateway.requiresNamedCard,
    cardInquiry,
    // Google's API is out of reach: staff act in Google's console and record it (decision 018).
    googleAds: manualGoogleAdsOperations,
    sms,
    loginGuard: metrics.countLoginFailures(
      loginGuard(redis ? redisFailureBackoff(redis) : databaseFailureBackoff(db), config.loginLimits),
    ),
    rateLimiter: redis ? redisRateLimiter(redis) : databaseRateLimiter(db),
    deskTitle,
    actionsUsedByContract,
    workQueues: WORK_QUEUES,
    currencyUpdated: (currency) => {
      pricesChanged('currencies');
      live.currencyUpdated(currency);
    },
    systemParametersUpdated: () => {
      pricesChanged('parameters');
      live.systemParametersUpdated();
    },
    // Identity's ProfileRejected port: fulfilment releases the customer's unfulfilled paid requests.
    profileRejected: releaseOnProfileRejection(db, live, catalogue),
    // Identity's ProfileApproved port: payments tells a payer waiting on a payment link that they can pay it now.
    profileApproved: tellWaitingPayers(deskTitle),
    draftPassed: (kind, document) => formValidators.rememberDraft(kind, document),
    // Identity's file-field port: an upload for a desk form's field is held to that field's declared limits.
    fileFieldLimits: (desk, field) => {
      const properties = catalogue.deskForm(desk)?.schema.properties as Record<string, unknown> | undefined;
      return properties && Object.hasOwn(properties, field) ? fileLimitsOf(properties[field]) : null;
    },
  };
  const handlers = composeHandlers(composition, {
    getHealth: async () => {
      const report = await health();
      if (report.status === 'down') throw HttpError.of(503, 'health.databaseDown', {}, report);
      return { result: true, msg: '', data: report };
    },
    getLiveness: async () => ({ result: true, msg: '', data: { live: true } }),
  });
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

  if (webIndex) await registerWebFiles(fastify, config.webDir);

  return {
    fastify,
    database,
    config,
    redis,
    generatedAdminPassword: seeded.generatedPassword,
    storage,
    notificationSms,
    sweepDeadlines: deadlineSweep,
    compensateMissedPromises: promiseCheck,
    reconcileNightly,
  };
}
