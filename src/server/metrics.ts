/**
 * Prometheus metrics (docs/operations.md, «What the metrics say»), served as text at `GET /metrics` to whoever shows `METRICS_TOKEN` (unset: the
 * route does not exist). One registry per app, so test servers in one process do not share counters. What is
 * counted as it happens: requests by operation and status with their latency (RED), gateway calls by outcome,
 * log-in failures. What is read when scraped (a few indexed counts): open sockets, SMS waiting in the outbox and the
 * oldest one's age, paid requests not yet fulfilled and the oldest one's age, the newest reconciled day's unresolved
 * rows. Labels are operation ids and fixed words only, never a path or an id, so the series stay few.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DB } from './db/database';
import { notFound } from './http/errors';
import { UNFULFILLED_STATES } from '../shared/request-lifecycle';
import type { LoginGuard } from './modules/identity';
import { GatewayUnavailableError, type PaymentGateway } from './modules/payments';

export interface MetricsSources {
  db: DB;
  openSockets: () => number;
  /** When the last nightly backup was taken; absent when nightly backups are off (no series then). */
  lastBackupAt?: () => Date | null;
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The operation a request reached: its contract operation id, else its registered route, else "unmatched". */
function operationOf(request: FastifyRequest): string {
  const operationId = request.routeOptions.config?.operationId;
  if (operationId) return operationId;
  const url = request.routeOptions.url;
  return url && url !== '*' ? url : 'unmatched';
}

async function ageAndCount(query: Promise<{ n: number; oldest: Date | null }>) {
  const row = await query;
  return { n: Number(row.n), age: row.oldest ? Math.max(0, (Date.now() - new Date(row.oldest).getTime()) / 1000) : 0 };
}

export function createMetrics({ db, openSockets, lastBackupAt }: MetricsSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'arzpay_' });
  const registers = [registry];

  const requests = new Counter({
    name: 'arzpay_http_requests_total',
    help: 'HTTP requests answered, by contract operation and status code',
    labelNames: ['operation', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'arzpay_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by contract operation',
    labelNames: ['operation'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const gatewayCalls = new Counter({
    name: 'arzpay_gateway_calls_total',
    help: 'Calls to the bank gateway, by call (create, verify) and outcome (ok, unavailable, error)',
    labelNames: ['gateway', 'call', 'outcome'] as const,
    registers,
  });
  const loginFailures = new Counter({
    name: 'arzpay_login_failures_total',
    help: 'Password log-ins refused: wrong (a wrong password) or locked (refused while the account or address waits)',
    labelNames: ['reason'] as const,
    registers,
  });
  new Gauge({
    name: 'arzpay_realtime_open_sockets',
    help: 'Live-channel sockets open on this process',
    registers,
    collect() {
      this.set(openSockets());
    },
  });

  // The registry writes metrics in the order they were made: the first of each pair reads the database and sets both.
  const smsOldest = new Gauge({
    name: 'arzpay_sms_oldest_waiting_seconds',
    help: 'Age of the oldest SMS due and not yet sent (0: none)',
    registers: [],
  });
  new Gauge({
    name: 'arzpay_sms_waiting',
    help: 'SMS in the outbox due and not yet sent',
    registers,
    async collect() {
      const { n, age } = await ageAndCount(
        db
          .selectFrom('notificationSms')
          .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`min(due_at)`.as('oldest')])
          .where('state', '=', 'pending')
          .where('dueAt', '<=', sql<Date>`now()`)
          .executeTakeFirstOrThrow(),
      );
      this.set(n);
      smsOldest.set(age);
    },
  });
  registry.registerMetric(smsOldest);
  const oldestUnfulfilled = new Gauge({
    name: 'arzpay_requests_oldest_unfulfilled_seconds',
    help: 'Time since the oldest unfinished paid request was paid (0: none)',
    registers: [],
  });
  new Gauge({
    name: 'arzpay_requests_unfulfilled',
    help: 'Paid requests (paid or in progress) staff have not finished',
    registers,
    async collect() {
      const { n, age } = await ageAndCount(
        db
          .selectFrom('purchases')
          .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`min(paid_at)`.as('oldest')])
          .where('state', 'in', UNFULFILLED_STATES)
          .executeTakeFirstOrThrow(),
      );
      this.set(n);
      oldestUnfulfilled.set(age);
    },
  });
  registry.registerMetric(oldestUnfulfilled);

  new Gauge({
    name: 'arzpay_reconciliation_unresolved',
    help: 'Unmatched rows not yet resolved in the newest reconciled Tehran day (0: none, or no day reconciled yet)',
    registers,
    async collect() {
      const newest = await db
        .selectFrom('reconciliationRuns')
        .select('unresolvedCount')
        .orderBy('day', 'desc')
        .limit(1)
        .executeTakeFirst();
      this.set(newest?.unresolvedCount ?? 0);
    },
  });

  if (lastBackupAt) {
    new Gauge({
      name: 'arzpay_backup_last_age_seconds',
      help: 'Time since the newest nightly backup in BACKUP_DIR was taken (-1: none there yet)',
      registers,
      collect() {
        const at = lastBackupAt();
        this.set(at ? Math.max(0, (Date.now() - at.getTime()) / 1000) : -1);
      },
    });
  }

  return {
    registry,

    /** Counts every answered request with its latency. */
    install(fastify: FastifyInstance): void {
      fastify.addHook('onResponse', async (request, reply) => {
        const operation = operationOf(request);
        requests.inc({ operation, status: String(reply.statusCode) });
        latency.observe({ operation }, reply.elapsedTime / 1000);
      });
    },

    /** The gateway, its calls counted by outcome. */
    countGateway(gateway: PaymentGateway): PaymentGateway {
      const counted = async <T>(call: 'create' | 'verify', run: () => Promise<T>): Promise<T> => {
        try {
          const result = await run();
          gatewayCalls.inc({ gateway: gateway.name, call, outcome: 'ok' });
          return result;
        } catch (error) {
          const outcome = error instanceof GatewayUnavailableError ? 'unavailable' : 'error';
          gatewayCalls.inc({ gateway: gateway.name, call, outcome });
          throw error;
        }
      };
      return {
        name: gateway.name,
        title: gateway.title,
        requiresNamedCard: gateway.requiresNamedCard,
        createPayment: (input) => counted('create', () => gateway.createPayment(input)),
        verify: (input) => counted('verify', () => gateway.verify(input)),
      };
    },

    /** The log-in guard, its refusals counted. */
    countLoginFailures(guard: LoginGuard): LoginGuard {
      return {
        async attempt(account, ip, check, wrongKey) {
          try {
            await guard.attempt(account, ip, check, wrongKey);
          } catch (error) {
            const status = (error as { statusCode?: number }).statusCode;
            loginFailures.inc({ reason: status === 429 ? 'locked' : 'wrong' });
            throw error;
          }
        },
      };
    },
  };
}

/** `GET /metrics` for a scraper showing `Authorization: Bearer <METRICS_TOKEN>`; 404 to anyone else. */
export function serveMetrics(fastify: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  if (!token) return;
  const expected = Buffer.from(`Bearer ${token}`);
  fastify.get('/metrics', async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw notFound();
    }
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
