/**
 * What `/api/health` answers (docs/operations.md, «Is it up?»): each dependency the server leans on, with its state and how long the check
 * took — the database, Redis when configured, the SMS driver, the bank gateway and free space in DATA_DIR. The
 * database down makes the answer 503 (nothing works without it); a side dependency down makes it 200 "degraded"
 * with that part named, so a load balancer keeps the process while an operator sees what is wrong. Outside
 * services (the SMS provider, the gateway) are reached at most once a minute, whatever the polling rate.
 */
import { statfs } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { AppConfig } from './config';
import type { DatabaseHandle } from './db/database';

export type DependencyState = 'ok' | 'down';

export interface DependencyHealth {
  state: DependencyState;
  latencyMs: number;
  /** What was checked or what went wrong, in English for the operator (no secrets). */
  detail: string;
}

export interface HealthReport {
  status: 'ok' | 'degraded' | 'down';
  database: 'pglite' | 'postgres';
  checks: Record<string, DependencyHealth>;
}

/** Below this much free space in DATA_DIR uploads and the embedded database are at risk. */
export const LOW_DISK_BYTES = 512 * 1024 * 1024;
const OUTSIDE_CHECK_EVERY_MS = 60_000;
const CHECK_TIMEOUT_MS = 3_000;

type Check = () => Promise<string>;

async function timed(check: Check): Promise<DependencyHealth> {
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    });
    const detail = await Promise.race([check(), timeout]);
    return { state: 'ok', latencyMs: Math.round(performance.now() - start), detail };
  } catch (error) {
    return { state: 'down', latencyMs: Math.round(performance.now() - start), detail: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** A check of an outside service whose last answer is reused for a minute. */
function remembered(check: Check, now: () => number): () => Promise<DependencyHealth> {
  let last: { at: number; health: Promise<DependencyHealth> } | null = null;
  return () => {
    if (!last || now() - last.at >= OUTSIDE_CHECK_EVERY_MS) last = { at: now(), health: timed(check) };
    return last.health;
  };
}

/** Any HTTP answer means the service is reachable; only no answer at all is "down". */
async function reachable(url: string): Promise<string> {
  const res = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
  return `reached ${new URL(url).host} (HTTP ${res.status})`;
}

export interface HealthSources {
  config: AppConfig;
  database: DatabaseHandle;
  redis: Redis | null;
  now?: () => number;
}

/** The health check of this process: call it per request; outside services are reached at most once a minute. */
export function healthCheck({ config, database, redis, now = Date.now }: HealthSources): () => Promise<HealthReport> {
  const sms = remembered(async () => {
    if (config.smsDriver !== 'kavenegar' || !config.kavenegar) return 'log driver (SMS written to the log)';
    return reachable(config.kavenegar.baseUrl);
  }, now);
  const gateway = remembered(async () => {
    const zarinpal = config.payments.gateway === 'zarinpal' ? config.payments.zarinpal : null;
    if (!zarinpal) return 'sandbox bank (served by this server)';
    return reachable(zarinpal.baseUrl);
  }, now);
  const disk = async () => {
    const stats = await statfs(config.dataDir);
    const free = stats.bavail * stats.bsize;
    const text = `${Math.floor(free / 1024 / 1024)} MiB free in DATA_DIR`;
    if (free < LOW_DISK_BYTES) throw new Error(`only ${text}`);
    return text;
  };
  return async () => {
    const checks: Record<string, DependencyHealth> = {};
    const pending: Array<Promise<void>> = [
      timed(async () => {
        await sql`select 1`.execute(database.db);
        return database.kind;
      }).then((h) => void (checks.database = h)),
      sms().then((h) => void (checks.sms = h)),
      gateway().then((h) => void (checks.gateway = h)),
      timed(disk).then((h) => void (checks.disk = h)),
    ];
    if (redis) {
      pending.push(timed(async () => `PING ${await redis.ping()}`).then((h) => void (checks.redis = h)));
    }
    await Promise.all(pending);
    const down = Object.values(checks).some((c) => c.state === 'down');
    const status = checks.database?.state === 'down' ? 'down' : down ? 'degraded' : 'ok';
    return { status, database: database.kind, checks };
  };
}
