/**
 * `GET /metrics` (issue 33): Prometheus text for whoever shows METRICS_TOKEN, a 404 to anyone else and no route at
 * all without a token; requests counted by operation (never by path) and status with latency, gateway calls by
 * outcome, log-in failures, and the paid requests staff have not finished with the oldest one's age.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { type MoneyServer, withMoneyServer } from '../support/money';
import { ADMIN_MOBILE, post, type RunningServer, startServer } from '../support/server';

const TOKEN = 'metrics-test-token-0123456789';

async function scrape(server: RunningServer, token = TOKEN) {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/**
 * The value of one counter or gauge series, read with a Prometheus text parser (so the whole answer must parse):
 * `series` is the family's name and, in braces, the exact labels (`name{a="x",b="y"}`).
 */
function value(text: string, series: string): number | null {
  const [, name = '', labelText = ''] = /^([a-z_]+)(?:\{(.*)\})?$/.exec(series) ?? [];
  const labels = Object.fromEntries([...labelText.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  const sameLabels = (given: Record<string, string> = {}) =>
    JSON.stringify(Object.entries(given).sort()) === JSON.stringify(Object.entries(labels).sort());
  const family = parsePrometheusTextFormat(text).find((f) => f.name === name);
  const sample = family?.metrics.find((m) => sameLabels(m.labels));
  return sample ? Number(sample.value) : null;
}

/** A histogram's count for one label set, from its `_count` line (the parser drops a labelled histogram's labels). */
function histogramCount(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

describe('metrics behind a token', () => {
  let t: MoneyServer;
  withMoneyServer({ web: false, env: { METRICS_TOKEN: TOKEN } }, (ready) => {
    t = ready;
  });

  it('answers 404 to a wrong or missing token, and Prometheus text to the right one', async () => {
    expect((await fetch(`${t.server.url}/metrics`)).status).toBe(404);
    expect((await scrape(t.server, 'wrong-token-0123456789-abcdefg')).status).toBe(404);
    expect((await scrape(t.server, `${TOKEN}x`)).status).toBe(404);
    const ok = await scrape(t.server);
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = new Map(parsePrometheusTextFormat(ok.text).map((f) => [f.name, f.type]));
    expect(families.get('arzpay_http_requests_total')).toBe('COUNTER');
    expect(families.get('arzpay_http_request_duration_seconds')).toBe('HISTOGRAM');
    expect(families.get('arzpay_gateway_calls_total')).toBe('COUNTER');
    expect(families.get('arzpay_requests_oldest_unfulfilled_seconds')).toBe('GAUGE');
    expect(value(ok.text, 'arzpay_realtime_open_sockets')).toBe(0);
    expect(value(ok.text, 'arzpay_sms_waiting')).toBe(0);
    // Nightly backups are off (no BACKUP_DIR): no backup series at all.
    expect(families.has('arzpay_backup_last_age_seconds')).toBe(false);
  });

  it('counts requests by operation and status, and labels an unknown path without its text', async () => {
    for (let i = 0; i < 3; i++) await fetch(`${t.server.url}/api/health`);
    await fetch(`${t.server.url}/api/nothing-here/4242424242`);
    const { text } = await scrape(t.server);
    expect(value(text, 'arzpay_http_requests_total{operation="getHealth",status="200"}')).toBeGreaterThanOrEqual(3);
    expect(
      histogramCount(text, 'arzpay_http_request_duration_seconds_count{operation="getHealth"}'),
    ).toBeGreaterThanOrEqual(3);
    expect(value(text, 'arzpay_http_requests_total{operation="unmatched",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('4242424242');
  });

  it('counts wrong passwords as log-in failures', async () => {
    const before = value((await scrape(t.server)).text, 'arzpay_login_failures_total{reason="wrong"}') ?? 0;
    const res = await post(t.server, '/api/me/loginByPassword', {
      username: ADMIN_MOBILE,
      password: 'not-the-password',
    });
    expect(res.status).toBe(422);
    expect(value((await scrape(t.server)).text, 'arzpay_login_failures_total{reason="wrong"}')).toBe(before + 1);
  });

  it('counts gateway calls by outcome and the paid requests waiting for staff', async () => {
    const who = await t.money.customer();
    const purchase = await t.money.request(who);
    const started = await t.money.pay(who, purchase.id);
    expect(started.status, started.body.msg).toBe(200);
    const gatewayUrl = (started.body.data as { gatewayUrl: string }).gatewayUrl;
    await t.money.payAtSandboxBank(who, gatewayUrl);
    const { text } = await scrape(t.server);
    expect(value(text, 'arzpay_gateway_calls_total{gateway="sandbox",call="create",outcome="ok"}')).toBe(1);
    expect(value(text, 'arzpay_gateway_calls_total{gateway="sandbox",call="verify",outcome="ok"}')).toBe(1);
    expect(value(text, 'arzpay_requests_unfulfilled')).toBe(1);
    expect(value(text, 'arzpay_requests_oldest_unfulfilled_seconds')).toBeGreaterThanOrEqual(0);
    expect((await t.money.purchaseOf(who, purchase.id)).purchase).toMatchObject({ state: 'paid' });
  });
});

describe('the last nightly backup', () => {
  it('is reported by its age, and as -1 while BACKUP_DIR holds none', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-backups-'));
    const server = await startServer({ web: false, env: { METRICS_TOKEN: TOKEN, BACKUP_DIR: dir } });
    try {
      expect(value((await scrape(server)).text, 'arzpay_backup_last_age_seconds')).toBe(-1);
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
      const name = `arzpay-${twoHoursAgo.toISOString().slice(0, 19).replace(/:/g, '')}Z.backup`;
      writeFileSync(path.join(dir, name), 'not read');
      const age = value((await scrape(server)).text, 'arzpay_backup_last_age_seconds')!;
      expect(age).toBeGreaterThanOrEqual(7199);
      expect(age).toBeLessThan(7300);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('metrics without a token', () => {
  it('has no /metrics route at all', async () => {
    const server = await startServer({ web: false });
    try {
      expect((await scrape(server)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
