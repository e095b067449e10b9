/**
 * The production switch (decision 023) as pure configuration parsing: ARZPAY_ENV=production refuses a
 * start without each explicit choice, one line per missing choice naming its setting; nothing set is the demo.
 */
import { describe, expect, it } from 'vitest';
import { PRODUCTION, without } from '../support/production-env';
import { ConfigError, loadConfig } from '../../src/server/config';
import { demoOnNetworkWarning, productionProblems } from '../../src/server/production-config';

/** The lines a refused configuration reports. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return [];
}

describe('ARZPAY_ENV=production', () => {
  it('starts with every choice made explicitly', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.environment).toBe('production');
    expect(config.payments.gateway).toBe('zarinpal');
    expect(config.smsDriver).toBe('kavenegar');
    expect(config.payments.publicUrl).toBe('https://arzpay.example');
    expect(config.trustProxy).toEqual(['127.0.0.1']);
    expect(config.fieldKeys.current).toEqual(Buffer.alloc(32, 0xcd));
    expect(productionProblems(PRODUCTION)).toEqual([]);
  });

  it.each([
    ['PAYMENT_GATEWAY', /^PAYMENT_GATEWAY is not set: .*PAYMENT_GATEWAY=zarinpal/],
    ['SMS_DRIVER', /^SMS_DRIVER is not set: .*SMS_DRIVER=kavenegar/],
    ['PUBLIC_URL', /^PUBLIC_URL is not set: /],
    ['TRUST_PROXY', /^TRUST_PROXY is not set: .*TRUST_PROXY=none/],
    ['FIELD_ENCRYPTION_KEY', /^FIELD_ENCRYPTION_KEY is not set: .*not a key file/],
    ['METRICS_TOKEN', /^METRICS_TOKEN is not set: .*\/metrics/],
  ] as const)('refuses without %s, with one line naming it', (name, line) => {
    const problems = problemsOf(without(name));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(line);
    // An empty value is not a choice either.
    expect(problemsOf({ ...PRODUCTION, [name]: '' })).toEqual(problems);
  });

  it('reports every missing choice at once, each on its own line', () => {
    const problems = problemsOf({ ARZPAY_ENV: 'production' });
    expect(problems.map((line) => line.split(/[ =]/, 1)[0])).toEqual([
      'PAYMENT_GATEWAY',
      'SMS_DRIVER',
      'PUBLIC_URL',
      'TRUST_PROXY',
      'FIELD_ENCRYPTION_KEY',
      'METRICS_TOKEN',
    ]);
    expect(problems.every((line) => !line.includes('\n'))).toBe(true);
  });

  it('refuses the sandbox bank and the log-only SMS driver, each with one line', () => {
    expect(problemsOf({ ...PRODUCTION, PAYMENT_GATEWAY: 'sandbox' })).toEqual([
      'PAYMENT_GATEWAY=sandbox is refused in production: the sandbox bank accepts any card and moves no money (set PAYMENT_GATEWAY=zarinpal)',
    ]);
    const log = problemsOf({ ...PRODUCTION, SMS_DRIVER: 'log' });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^SMS_DRIVER=log is refused in production: /);
  });

  it('refuses the sandbox card inquiry; without an inquiry (none, or unset) staff review every card', () => {
    const sandbox = problemsOf({ ...PRODUCTION, CARD_INQUIRY_DRIVER: 'sandbox' });
    expect(sandbox).toHaveLength(1);
    expect(sandbox[0]).toMatch(/^CARD_INQUIRY_DRIVER=sandbox is refused in production: /);
    expect(loadConfig(PRODUCTION).cardInquiry).toEqual({ driver: 'none' });
    expect(loadConfig({ ...PRODUCTION, CARD_INQUIRY_DRIVER: 'none' }).cardInquiry).toEqual({ driver: 'none' });
    expect(loadConfig({ CARD_INQUIRY_DRIVER: 'sandbox' }).cardInquiry).toEqual({ driver: 'sandbox' });
    expect(problemsOf({ CARD_INQUIRY_DRIVER: 'finnotech' })).toEqual([
      'CARD_INQUIRY_DRIVER must be "none" (staff review every card) or "sandbox", got "finnotech"',
    ]);
    expect(problemsOf({ SANDBOX_BANK_MODE: 'shaparak' })).toEqual([
      'SANDBOX_BANK_MODE must be "holder" or "zarinpal", got "shaparak"',
    ]);
    expect(loadConfig({ SANDBOX_BANK_MODE: 'zarinpal' }).payments.sandboxBankMode).toBe('zarinpal');
  });

  it('takes TRUST_PROXY=none (or false) as the explicit choice of no proxy', () => {
    expect(loadConfig({ ...PRODUCTION, TRUST_PROXY: 'none' }).trustProxy).toBe(false);
    expect(loadConfig({ ...PRODUCTION, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'none' }).trustProxy).toBe(false);
  });

  it('wants a metrics token long enough not to be guessed', () => {
    expect(problemsOf({ ...PRODUCTION, METRICS_TOKEN: 'short-token' })).toEqual([
      'METRICS_TOKEN must be at least 24 characters in production (openssl rand -hex 24)',
    ]);
  });

  it('wants the public address over https', () => {
    expect(problemsOf({ ...PRODUCTION, PUBLIC_URL: 'http://arzpay.example' })).toEqual([
      'PUBLIC_URL must be an https:// address in production, got "http://arzpay.example"',
    ]);
  });

  it('reports a missing choice together with a malformed value, and never echoes a key', () => {
    const problems = problemsOf({ ...without('SMS_DRIVER'), FIELD_ENCRYPTION_KEY: 'not-a-key-secret' });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^SMS_DRIVER is not set/);
    expect(problems[1]).toMatch(/^FIELD_ENCRYPTION_KEY must be a 32-byte key/);
    expect(problems.join('\n')).not.toContain('not-a-key-secret');
    // The gateway's own settings are still checked as before.
    expect(problemsOf(without('ZARINPAL_MERCHANT_ID'))).toEqual([
      'PAYMENT_GATEWAY=zarinpal needs ZARINPAL_MERCHANT_ID',
    ]);
  });

  it('refuses an unknown ARZPAY_ENV with one line', () => {
    expect(problemsOf({ ARZPAY_ENV: 'prod' })).toEqual([
      'ARZPAY_ENV must be "production" or "development" (or unset for the demo), got "prod"',
    ]);
  });
});

describe('the demo', () => {
  it('is what nothing set means: sandbox bank, log-only SMS, on 127.0.0.1', () => {
    const config = loadConfig({});
    expect(config.environment).toBe('development');
    expect(config.payments.gateway).toBe('sandbox');
    expect(config.smsDriver).toBe('log');
    expect(config.host).toBe('127.0.0.1');
    expect(loadConfig({ ARZPAY_ENV: 'development' }).environment).toBe('development');
    expect(demoOnNetworkWarning(config)).toBeNull();
  });

  it('warns, without refusing, when HOST opens the demo to the network', () => {
    const open = loadConfig({ HOST: '0.0.0.0' });
    expect(demoOnNetworkWarning(open)).toBe(
      'HOST=0.0.0.0 opens this server to the network without ARZPAY_ENV=production: the sandbox bank takes payments ' +
        '(no money moves) and log-in codes go only to the log; set ARZPAY_ENV=production for real customers (docs/deploy.md)',
    );
    for (const host of ['127.0.0.1', '127.0.1.1', 'localhost', '::1']) {
      expect(demoOnNetworkWarning(loadConfig({ HOST: host })), host).toBeNull();
    }
    expect(demoOnNetworkWarning(loadConfig({ ...PRODUCTION, HOST: '0.0.0.0' }))).toBeNull();
  });
});
