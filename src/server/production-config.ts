/**
 * What production (ARZPAY_ENV=production, decision 023) refuses to start without, and the warning a demo start
 * gives when it is open to the network. Read by config.ts (loadConfig) and start.ts.
 */

import { trustsEveryAddress } from './lib/trusts-everyone';

type Env = Record<string, string | undefined>;

/** The shortest password the API takes (openapi NewPassword minLength). */
const ADMIN_PASSWORD_MIN = 8;

const unset = (raw: string | undefined) => (raw ?? '').trim() === '';

/**
 * What production (ARZPAY_ENV=production, decision 023) refuses to start without, one line per missing or refused
 * choice, each naming its setting; empty when every choice is made. Only these choices: a value that is set but
 * malformed is the ordinary parsing's error.
 */
export function productionProblems(env: Env): string[] {
  const problems: string[] = [];
  const gateway = (env.PAYMENT_GATEWAY ?? '').trim();
  if (gateway === '') {
    problems.push(
      'PAYMENT_GATEWAY is not set: production takes payments through a real gateway (PAYMENT_GATEWAY=zarinpal with ZARINPAL_MERCHANT_ID)',
    );
  } else if (gateway === 'sandbox') {
    problems.push(
      'PAYMENT_GATEWAY=sandbox is refused in production: the sandbox bank accepts any card and moves no money (set PAYMENT_GATEWAY=zarinpal)',
    );
  }
  const sms = (env.SMS_DRIVER ?? '').trim();
  if (sms === '') {
    problems.push(
      'SMS_DRIVER is not set: production sends log-in codes through a real SMS driver (SMS_DRIVER=kavenegar with KAVENEGAR_API_KEY and KAVENEGAR_TEMPLATE)',
    );
  } else if (sms === 'log') {
    problems.push(
      "SMS_DRIVER=log is refused in production: log-in codes would reach only the server's log, never a customer (set SMS_DRIVER=kavenegar)",
    );
  }
  const publicUrl = (env.PUBLIC_URL ?? '').trim();
  if (publicUrl === '') {
    problems.push(
      "PUBLIC_URL is not set: production needs the site's https:// address customers use, for the bank's callback (e.g. https://arzpay.example)",
    );
  } else if (!publicUrl.startsWith('https://')) {
    problems.push(`PUBLIC_URL must be an https:// address in production, got "${publicUrl}"`);
  }
  if (unset(env.TRUST_PROXY)) {
    problems.push(
      'TRUST_PROXY is not set: production names the proxy whose X-Forwarded-For to believe (e.g. TRUST_PROXY=127.0.0.1), or TRUST_PROXY=none when clients connect directly',
    );
  } else {
    const everyone = trustsEveryAddress(env.TRUST_PROXY!.split(','));
    if (everyone) {
      problems.push(
        `TRUST_PROXY="${env.TRUST_PROXY!.trim()}" trusts every ${everyone} address, so any client could forge its own and escape the per-address limits: name the proxy (e.g. TRUST_PROXY=127.0.0.1)`,
      );
    }
  }
  // The API refuses a password under 8 characters (NewPassword); the administrator's is no exception.
  const adminPassword = env.ADMIN_PASSWORD ?? '';
  if (adminPassword !== '' && Array.from(adminPassword).length < ADMIN_PASSWORD_MIN) {
    problems.push(
      `ADMIN_PASSWORD must be at least ${ADMIN_PASSWORD_MIN} characters in production, as every password (or unset it: the first start prints a random one)`,
    );
  }
  // A gateway's answers decide whether money is credited and who is sent a log-in code: never over plain http.
  for (const name of ['ZARINPAL_BASE_URL', 'KAVENEGAR_BASE_URL'] as const) {
    const url = (env[name] ?? '').trim();
    if (url !== '' && !url.startsWith('https://')) {
      problems.push(`${name} must be an https:// address in production, got "${url}"`);
    }
  }
  if ((env.CARD_INQUIRY_DRIVER ?? '').trim() === 'sandbox') {
    problems.push(
      "CARD_INQUIRY_DRIVER=sandbox is refused in production: the test inquiry says almost every card is its customer's (unset it, or CARD_INQUIRY_DRIVER=none, to have staff review each card)",
    );
  }
  if (unset(env.FIELD_ENCRYPTION_KEY)) {
    problems.push(
      'FIELD_ENCRYPTION_KEY is not set: production takes the key of credentials at rest from the environment, not a key file beside the data (openssl rand -hex 32)',
    );
  }
  const metricsToken = (env.METRICS_TOKEN ?? '').trim();
  if (metricsToken === '') {
    problems.push(
      'METRICS_TOKEN is not set: production serves /metrics only to a scraper that shows this token (openssl rand -hex 24)',
    );
  } else if (metricsToken.length < 24) {
    problems.push('METRICS_TOKEN must be at least 24 characters in production (openssl rand -hex 24)');
  }
  return problems;
}

/** Whether HOST keeps the server on this machine (the demo's default) rather than opening it to a network. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The warning a start outside production gives when HOST opens it to the network (decision 023): it still runs, as
 * a staging copy or a container's demo may, but its defaults are a demo's. Null when there is nothing to say.
 */
export function demoOnNetworkWarning(config: {
  environment: string;
  host: string;
  payments: { gateway: string };
  smsDriver: string;
}): string | null {
  if (config.environment === 'production' || isLoopbackHost(config.host)) return null;
  const demo = [
    ...(config.payments.gateway === 'sandbox' ? ['the sandbox bank takes payments (no money moves)'] : []),
    ...(config.smsDriver === 'log' ? ['log-in codes go only to the log'] : []),
  ];
  return (
    `HOST=${config.host} opens this server to the network without ARZPAY_ENV=production` +
    (demo.length ? `: ${demo.join(' and ')}` : '') +
    '; set ARZPAY_ENV=production for real customers (docs/deploy.md)'
  );
}
