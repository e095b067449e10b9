/**
 * Server configuration from environment variables, validated once at start.
 * A bad value stops the server with one line that names the variable and what is wrong.
 */
import path from 'node:path';
import { productionProblems } from './production-config';
import { compile as compileProxyTrust } from '@fastify/proxy-addr';
import { canonicalMobile } from '../shared/mobile';
import { parseFieldKey } from './lib/field-cipher';

export type SmsDriver = 'log' | 'kavenegar';
export type PaymentGatewayKind = 'sandbox' | 'zarinpal';
/**
 * How the sandbox bank behaves (decision 024): `holder` (default) asks the payer for the card holder's national code
 * and reports it in verify; `zarinpal` behaves exactly as ZarinPal: no holder reported, and a card the merchant named
 * in metadata.card_pan is the only card its page takes.
 */
export type SandboxBankMode = 'holder' | 'zarinpal';
/** Who confirms a card is its customer's (decision 024): `none`, staff review; `sandbox`, the test inquiry. */
export type CardInquiryDriver = 'none' | 'sandbox';
/**
 * `ARZPAY_ENV` (decision 023): `development` (unset) is the one-command demo; `production` refuses to start until
 * every choice real customers depend on is made explicitly (`productionProblems`).
 */
export type Environment = 'development' | 'production';

export interface AppConfig {
  environment: Environment;
  port: number;
  host: string;
  dataDir: string;
  /** Unset: embedded PGlite in `${dataDir}/db`; `memory://`: in-memory PGlite; `postgres://…`: node-postgres. */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of every Redis key, so several installations (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  smsDriver: SmsDriver;
  logLevel: string;
  /** The declarative catalogue (categories, desks, forms); a copy can be pointed at for tests. */
  schemasDir: string;
  /** Folder with the built web app; absent folder means API only. */
  webDir: string;
  /** Seed demo data (currencies, payment method groups) on an empty database. */
  seedDemo: boolean;
  /** Validate every response against the contract (a mismatch is a server bug and is logged). */
  validateResponses: boolean;
  kavenegar: { apiKey: string; template: string; baseUrl: string } | null;
  /** The bearer token a Prometheus scraper shows at `GET /metrics`; unset: no metrics route. */
  metricsToken: string | undefined;
  /**
   * The notification SMS worker: how often it looks for due SMS besides being woken after a commit, how long a
   * claimed SMS is its own before another process may take it over (a crashed sender's claim runs out), how many
   * tries before it gives up, and the first wait after a failed try (doubling with each further one).
   */
  notificationSms: { intervalMs: number; leaseSeconds: number; maxAttempts: number; backoffSeconds: number };
  /** Log-in code requests allowed per mobile number and per IP address in each window. */
  smsLimits: { perMobile: number; perIp: number; windowSeconds: number };
  /**
   * The proxies whose X-Forwarded-For to believe (addresses, CIDRs, or proxy-addr's names such as `loopback`);
   * false: none, the socket's address is the client's. Believing any sender would let a client pick its address.
   */
  trustProxy: false | string[];
  /**
   * Wrong passwords (password and e-mail log-in) allowed per account and per address before a wait, the
   * first wait (doubling with each further failure) and its cap.
   */
  loginLimits: { perAccount: number; perIp: number; lockSeconds: number; maxLockSeconds: number };
  /** National-code lookups allowed per user and per address in each window. */
  inquiryLimits: { perUser: number; perIp: number; windowSeconds: number };
  /** Receipt verifications (verifyReceipt, a public lookup) allowed per address in each window. */
  receiptVerifyLimits: { perIp: number; windowSeconds: number };
  /** Desk funnel reports allowed per address in each window (decision 046). */
  funnelLimits: { perIp: number; windowSeconds: number };
  /**
   * Uploads a user may make in any 24 hours (files and bytes), and how old a file attached to nothing (no
   * profile, request or audit record names it) must be before the periodic clean-up removes it.
   */
  uploadLimits: { filesPerDay: number; bytesPerDay: number; orphanGraceSeconds: number };
  /** How often the sweep looks for paid requests entering "at risk" of their deadline (modules/tasks/deadlines.ts). */
  deadlineSweepSeconds: number;
  /** Administrator seeded on first start; a random password is generated and printed when unset. */
  admin: { username: string; password: string | undefined };
  /** A log-in token stops working after this long unused, and this long after it was issued, whichever is first. */
  sessions: { idleSeconds: number; maxAgeSeconds: number };
  /**
   * The bank gateway requests are paid through: the sandbox bank this server serves (the default, so a start
   * with nothing configured can take test payments) or ZarinPal. `publicUrl` is the site's address customers use,
   * for the gateway's callback (unset: the address each request came to); `sandboxBankUrl` is where the sandbox
   * bank is reached (unset: this server itself).
   */
  payments: {
    gateway: PaymentGatewayKind;
    zarinpal: { merchantId: string; baseUrl: string } | null;
    publicUrl: string | undefined;
    sandboxBankUrl: string | undefined;
    sandboxBankMode: SandboxBankMode;
  };
  /** The card inquiry adapter (modules/cards/inquiry.ts); `none` sends every new card to staff review. */
  cardInquiry: { driver: CardInquiryDriver };
  /**
   * The keys of credentials sealed at rest (decision 021): `current` seals and opens (null: the key file under
   * DATA_DIR, created on first start), each of `previous` only opens, so values sealed before a rotation are read
   * and re-sealed at start.
   */
  fieldKeys: { current: Buffer | null; previous: Buffer[] };
  /**
   * The nightly backup (decision 025, src/server/backup/nightly.ts): into `dir` at `hour` o'clock Tehran time, the
   * newest `keep` backups kept there; null (BACKUP_DIR unset): off.
   */
  nightlyBackup: { dir: string; keep: number; hour: number } | null;
  /**
   * When the nightly reconciliation of the Tehran day before runs (modules/reconciliation/nightly.ts), Tehran time:
   * RECONCILE_HOUR `2:30` (the default) or `3`; `off`: never (staff and `npm run reconcile` still run days by hand).
   */
  nightlyReconciliation: { hour: number; minute: number } | null;
}

/**
 * A configuration the server cannot start with. `problems` holds one line per problem (production's missing choices
 * are all reported at once); the message joins them.
 */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string | string[]) {
    const lines = typeof problems === 'string' ? [problems] : problems;
    super(lines.join('; '));
    this.problems = lines;
  }
}

type Env = Record<string, string | undefined>;

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 3000;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(`PORT must be a number from 0 to 65535, got "${raw}"`);
  }
  return Number(raw);
}

function parseDatabaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'memory://' || /^postgres(ql)?:\/\//.test(raw)) {
    try {
      if (raw !== 'memory://') new URL(raw);
      return raw;
    } catch {
      // fall through to the error below
    }
  }
  throw new ConfigError(`DATABASE_URL must be a postgres:// URL (or unset for the embedded database), got "${raw}"`);
}

function parseRedisUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^rediss?:\/\//.test(raw)) throw new ConfigError(`REDIS_URL must be a redis:// URL, got "${raw}"`);
  return raw;
}

function parseSmsDriver(raw: string | undefined): SmsDriver {
  const value = raw === undefined || raw === '' ? 'log' : raw;
  if (value !== 'log' && value !== 'kavenegar') {
    throw new ConfigError(`SMS_DRIVER must be "log" or "kavenegar", got "${raw}"`);
  }
  return value;
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function parsePositiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new ConfigError(`${name} must be a positive integer, got "${raw}"`);
  return Number(raw);
}

function parseKavenegar(env: Env, driver: SmsDriver): AppConfig['kavenegar'] {
  if (driver !== 'kavenegar') return null;
  const apiKey = env.KAVENEGAR_API_KEY ?? '';
  const template = env.KAVENEGAR_TEMPLATE ?? '';
  if (!apiKey || !template) {
    throw new ConfigError('SMS_DRIVER=kavenegar needs KAVENEGAR_API_KEY and KAVENEGAR_TEMPLATE');
  }
  return { apiKey, template, baseUrl: env.KAVENEGAR_BASE_URL || 'https://api.kavenegar.com' };
}

const DAY_SECONDS = 86_400;

function parseSessions(env: Env): AppConfig['sessions'] {
  const idleSeconds = parsePositiveInt('SESSION_IDLE_SECONDS', env.SESSION_IDLE_SECONDS, 30 * DAY_SECONDS);
  const maxAgeSeconds = parsePositiveInt('SESSION_MAX_AGE_SECONDS', env.SESSION_MAX_AGE_SECONDS, 90 * DAY_SECONDS);
  for (const [name, value] of [
    ['SESSION_IDLE_SECONDS', idleSeconds],
    ['SESSION_MAX_AGE_SECONDS', maxAgeSeconds],
  ] as const) {
    if (value > 3650 * DAY_SECONDS) throw new ConfigError(`${name} must be at most ${3650 * DAY_SECONDS} (ten years)`);
  }
  if (idleSeconds > maxAgeSeconds) {
    throw new ConfigError(
      `SESSION_IDLE_SECONDS (${idleSeconds}) must not exceed SESSION_MAX_AGE_SECONDS (${maxAgeSeconds})`,
    );
  }
  return { idleSeconds, maxAgeSeconds };
}

const TRUST_PROXY_HELP =
  'TRUST_PROXY must be none (or false) or the proxy addresses/CIDRs, comma-separated (e.g. 127.0.0.1)';
/** The values of TRUST_PROXY that say, explicitly, that no proxy is believed (unset means the same outside production). */
const TRUST_NO_PROXY = ['none', '0', 'false', 'no', 'off'];

function parseTrustProxy(raw: string | undefined): AppConfig['trustProxy'] {
  const value = (raw ?? '').trim();
  if (value === '' || TRUST_NO_PROXY.includes(value)) return false;
  if (['true', 'yes', 'on', '1'].includes(value) || /^\d+$/.test(value)) {
    // Trusting every sender, or a hop count (Fastify trusts no one for a number), cannot tell a proxy from a
    // client that writes its own header: the proxy has to be named.
    throw new ConfigError(`${TRUST_PROXY_HELP}, got "${raw}": name the proxy instead of trusting any sender`);
  }
  const list = value.split(',').map((s) => s.trim());
  try {
    if (list.includes('')) throw new TypeError('empty entry');
    compileProxyTrust(list);
  } catch (error) {
    throw new ConfigError(`${TRUST_PROXY_HELP}, got "${raw}" (${(error as Error).message})`);
  }
  return list;
}

function parseLoginLimits(env: Env): AppConfig['loginLimits'] {
  const lockSeconds = parsePositiveInt('LOGIN_LOCK_SECONDS', env.LOGIN_LOCK_SECONDS, 30);
  const maxLockSeconds = parsePositiveInt('LOGIN_LOCK_MAX_SECONDS', env.LOGIN_LOCK_MAX_SECONDS, 900);
  if (maxLockSeconds < lockSeconds || maxLockSeconds > DAY_SECONDS) {
    throw new ConfigError(
      `LOGIN_LOCK_MAX_SECONDS must be from LOGIN_LOCK_SECONDS (${lockSeconds}) to ${DAY_SECONDS}, got ${maxLockSeconds}`,
    );
  }
  return {
    perAccount: parsePositiveInt('LOGIN_FAILURES_PER_ACCOUNT', env.LOGIN_FAILURES_PER_ACCOUNT, 5),
    perIp: parsePositiveInt('LOGIN_FAILURES_PER_IP', env.LOGIN_FAILURES_PER_IP, 20),
    lockSeconds,
    maxLockSeconds,
  };
}

function parseAdminUsername(raw: string | undefined): string {
  const value = canonicalMobile(raw || '09120000000');
  if (!value) throw new ConfigError(`ADMIN_USERNAME must be a mobile number (09 and 9 digits), got "${raw}"`);
  return value;
}

function parseHttpUrl(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new ConfigError(`${name} must be an http:// or https:// address without query, got "${raw}"`);
  }
  // Paths are appended to it: no trailing slash.
  return raw.replace(/\/+$/, '');
}

const MERCHANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parsePayments(env: Env): AppConfig['payments'] {
  const raw = env.PAYMENT_GATEWAY;
  const gateway = raw === undefined || raw === '' ? 'sandbox' : raw;
  if (gateway !== 'sandbox' && gateway !== 'zarinpal') {
    throw new ConfigError(`PAYMENT_GATEWAY must be "sandbox" or "zarinpal", got "${raw}"`);
  }
  let zarinpal: AppConfig['payments']['zarinpal'] = null;
  if (gateway === 'zarinpal') {
    const merchantId = (env.ZARINPAL_MERCHANT_ID ?? '').trim();
    if (!merchantId) throw new ConfigError('PAYMENT_GATEWAY=zarinpal needs ZARINPAL_MERCHANT_ID');
    if (!MERCHANT_ID.test(merchantId)) {
      throw new ConfigError(
        `ZARINPAL_MERCHANT_ID must be the 36-character merchant code (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx), got "${merchantId}"`,
      );
    }
    const baseUrl = parseHttpUrl('ZARINPAL_BASE_URL', env.ZARINPAL_BASE_URL) ?? 'https://payment.zarinpal.com';
    zarinpal = { merchantId, baseUrl };
  }
  return {
    gateway,
    zarinpal,
    publicUrl: parseHttpUrl('PUBLIC_URL', env.PUBLIC_URL),
    sandboxBankUrl: parseHttpUrl('SANDBOX_BANK_URL', env.SANDBOX_BANK_URL),
    sandboxBankMode: parseSandboxBankMode(env.SANDBOX_BANK_MODE),
  };
}

function parseSandboxBankMode(raw: string | undefined): SandboxBankMode {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'holder') return 'holder';
  if (value === 'zarinpal') return 'zarinpal';
  throw new ConfigError(`SANDBOX_BANK_MODE must be "holder" or "zarinpal", got "${raw}"`);
}

function parseCardInquiry(raw: string | undefined): AppConfig['cardInquiry'] {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'none') return { driver: 'none' };
  if (value === 'sandbox') return { driver: 'sandbox' };
  throw new ConfigError(`CARD_INQUIRY_DRIVER must be "none" (staff review every card) or "sandbox", got "${raw}"`);
}

const FIELD_KEY_HELP = 'a 32-byte key as 64 hex digits or base64 (openssl rand -hex 32)';

function parseFieldKeys(env: Env): AppConfig['fieldKeys'] {
  const raw = env.FIELD_ENCRYPTION_KEY ?? '';
  const current = raw.trim() === '' ? null : parseFieldKey(raw);
  // Never echo a key, even a malformed one: it may be a real key pasted into the wrong variable.
  if (raw.trim() !== '' && !current) throw new ConfigError(`FIELD_ENCRYPTION_KEY must be ${FIELD_KEY_HELP}`);
  const previous = (env.FIELD_ENCRYPTION_OLD_KEYS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((text, i) => {
      const key = parseFieldKey(text);
      if (!key) throw new ConfigError(`FIELD_ENCRYPTION_OLD_KEYS entry ${i + 1} must be ${FIELD_KEY_HELP}`);
      return key;
    });
  return { current, previous };
}

function parseNightlyBackup(env: Env): AppConfig['nightlyBackup'] {
  const dir = (env.BACKUP_DIR ?? '').trim();
  if (dir === '') return null;
  const keep = parsePositiveInt('BACKUP_KEEP', env.BACKUP_KEEP, 7);
  const rawHour = (env.BACKUP_HOUR ?? '').trim();
  if (rawHour !== '' && (!/^\d{1,2}$/.test(rawHour) || Number(rawHour) > 23)) {
    throw new ConfigError(`BACKUP_HOUR must be an hour from 0 to 23 (Tehran time), got "${env.BACKUP_HOUR}"`);
  }
  return { dir: path.resolve(dir), keep, hour: rawHour === '' ? 3 : Number(rawHour) };
}

function parseReconcileHour(raw: string | undefined): AppConfig['nightlyReconciliation'] {
  const text = (raw ?? '').trim();
  if (text === '') return { hour: 2, minute: 30 };
  if (text === 'off') return null;
  const match = /^(\d{1,2})(?::(\d{2}))?$/.exec(text);
  const hour = Number(match?.[1]);
  const minute = Number(match?.[2] ?? 0);
  if (!match || hour > 23 || minute > 59) {
    throw new ConfigError(`RECONCILE_HOUR must be a Tehran time such as 2:30 or 3 (or off), got "${raw}"`);
  }
  return { hour, minute };
}

function parseEnvironment(raw: string | undefined): Environment {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'development') return 'development';
  if (value === 'production') return 'production';
  throw new ConfigError(`ARZPAY_ENV must be "production" or "development" (or unset for the demo), got "${raw}"`);
}

export function loadConfig(env: Env = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const environment = parseEnvironment(env.ARZPAY_ENV);
  // Production's missing choices are all reported together, before (and with) any malformed value.
  const missing = environment === 'production' ? productionProblems(env) : [];
  let config: AppConfig;
  try {
    config = parseConfig(env, environment, overrides);
  } catch (error) {
    if (error instanceof ConfigError && missing.length > 0) throw new ConfigError([...missing, ...error.problems]);
    throw error;
  }
  if (missing.length > 0) throw new ConfigError(missing);
  return config;
}

function parseConfig(env: Env, environment: Environment, overrides: Partial<AppConfig>): AppConfig {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);
  }
  const smsDriver = parseSmsDriver(env.SMS_DRIVER);
  return {
    environment,
    port: parsePort(env.PORT),
    // Loopback unless HOST says otherwise: a development start is not reachable from the network.
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL),
    redisUrl: parseRedisUrl(env.REDIS_URL),
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'arzpay:',
    smsDriver,
    logLevel,
    webDir: path.resolve(env.WEB_DIR || 'dist/web'),
    schemasDir: path.resolve(env.SCHEMAS_DIR || path.join(import.meta.dirname, '../../schemas')),
    seedDemo: parseBoolean('SEED_DEMO', env.SEED_DEMO, true),
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    validateResponses: parseBoolean('VALIDATE_RESPONSES', env.VALIDATE_RESPONSES, true),
    kavenegar: parseKavenegar(env, smsDriver),
    notificationSms: {
      intervalMs: parsePositiveInt('NOTIFICATION_SMS_INTERVAL_MS', env.NOTIFICATION_SMS_INTERVAL_MS, 5_000),
      leaseSeconds: parsePositiveInt('NOTIFICATION_SMS_LEASE_SECONDS', env.NOTIFICATION_SMS_LEASE_SECONDS, 60),
      maxAttempts: parsePositiveInt('NOTIFICATION_SMS_MAX_ATTEMPTS', env.NOTIFICATION_SMS_MAX_ATTEMPTS, 5),
      backoffSeconds: parsePositiveInt('NOTIFICATION_SMS_BACKOFF_SECONDS', env.NOTIFICATION_SMS_BACKOFF_SECONDS, 30),
    },
    smsLimits: {
      perMobile: parsePositiveInt('SMS_LIMIT_PER_MOBILE', env.SMS_LIMIT_PER_MOBILE, 5),
      perIp: parsePositiveInt('SMS_LIMIT_PER_IP', env.SMS_LIMIT_PER_IP, 30),
      windowSeconds: parsePositiveInt('SMS_LIMIT_WINDOW_SECONDS', env.SMS_LIMIT_WINDOW_SECONDS, 600),
    },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    loginLimits: parseLoginLimits(env),
    inquiryLimits: {
      perUser: parsePositiveInt('INQUIRY_LIMIT_PER_USER', env.INQUIRY_LIMIT_PER_USER, 10),
      perIp: parsePositiveInt('INQUIRY_LIMIT_PER_IP', env.INQUIRY_LIMIT_PER_IP, 30),
      windowSeconds: parsePositiveInt('INQUIRY_LIMIT_WINDOW_SECONDS', env.INQUIRY_LIMIT_WINDOW_SECONDS, 3600),
    },
    receiptVerifyLimits: {
      perIp: parsePositiveInt('RECEIPT_VERIFY_LIMIT_PER_IP', env.RECEIPT_VERIFY_LIMIT_PER_IP, 30),
      windowSeconds: parsePositiveInt(
        'RECEIPT_VERIFY_LIMIT_WINDOW_SECONDS',
        env.RECEIPT_VERIFY_LIMIT_WINDOW_SECONDS,
        600,
      ),
    },
    funnelLimits: {
      perIp: parsePositiveInt('FUNNEL_LIMIT_PER_IP', env.FUNNEL_LIMIT_PER_IP, 300),
      windowSeconds: parsePositiveInt('FUNNEL_LIMIT_WINDOW_SECONDS', env.FUNNEL_LIMIT_WINDOW_SECONDS, 600),
    },
    uploadLimits: {
      filesPerDay: parsePositiveInt('UPLOAD_LIMIT_FILES_PER_DAY', env.UPLOAD_LIMIT_FILES_PER_DAY, 30),
      bytesPerDay: parsePositiveInt('UPLOAD_LIMIT_MB_PER_DAY', env.UPLOAD_LIMIT_MB_PER_DAY, 50) * 1024 * 1024,
      orphanGraceSeconds: parsePositiveInt('UPLOAD_ORPHAN_GRACE_SECONDS', env.UPLOAD_ORPHAN_GRACE_SECONDS, DAY_SECONDS),
    },
    deadlineSweepSeconds: parsePositiveInt('DEADLINE_SWEEP_SECONDS', env.DEADLINE_SWEEP_SECONDS, 60),
    admin: { username: parseAdminUsername(env.ADMIN_USERNAME), password: env.ADMIN_PASSWORD || undefined },
    sessions: parseSessions(env),
    payments: parsePayments(env),
    cardInquiry: parseCardInquiry(env.CARD_INQUIRY_DRIVER),
    fieldKeys: parseFieldKeys(env),
    nightlyBackup: parseNightlyBackup(env),
    nightlyReconciliation: parseReconcileHour(env.RECONCILE_HOUR),
    ...overrides,
  };
}
