/**
 * The nightly reconciliation (issue 33) on a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * run with a fixed clock it reconciles the Tehran day before; two runs at once reconcile the day once; new unmatched
 * rows notify the staff who hold `reconcile` once, and no one else; `/metrics` shows the newest day's unresolved rows.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { newAuthority } from '../../src/server/modules/sandbox-bank/bank';
import { tehranDayWindow } from '../../src/shared/calendar/tehran-day';
import { dayBefore, nextNightlyAt } from '../../src/server/modules/reconciliation/nightly';
import { withMoneyServer } from '../support/money';
import { bearer, post, type RunningServer } from '../support/server';

const TOKEN = 'metrics-test-token-reconciliation';
/** 04:00 on 20 November 2026 in Tehran (00:30 UTC): the nightly run reconciles 19 November. */
const NOW = new Date('2026-11-20T00:30:00Z');
const DAY = '2026-11-19';

let server: RunningServer;
let db: DB;
let reconciler: { token: string; userId: number };
let bystander: { token: string; userId: number };

withMoneyServer({ web: false, env: { METRICS_TOKEN: TOKEN } }, async (t) => {
  ({ server, db } = t);
  reconciler = await t.money.staffWithActions(['reconcile']);
  bystander = await t.money.staffWithActions(['manageCollections']);
});

/** A payment the sandbox bank settled on DAY that no collection records (gatewayWithoutCollection). */
async function settledWithoutCollection(referenceId: string): Promise<void> {
  const paidAt = new Date(tehranDayWindow(DAY).from.getTime() + 10 * 3_600_000);
  await db
    .insertInto('sandboxBankPayments')
    .values({
      authority: newAuthority(),
      merchantId: '00000000-0000-0000-0000-000000000000',
      amount: 7_000_000,
      description: 'fault',
      callbackUrl: 'https://example.com/back',
      state: 'paid',
      cardNo: '603799******7890',
      referenceId,
      expiresAt: new Date(paidAt.getTime() + 60_000),
      paidAt,
    })
    .execute();
}

const told = async (userId: number) =>
  db
    .selectFrom('notifications')
    .select(['text', 'eventKey'])
    .where('userId', '=', userId)
    .where('kind', '=', 'staffReconciliationUnmatched')
    .execute();

async function unresolvedGauge(): Promise<number | undefined> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const family = parsePrometheusTextFormat(await res.text()).find((f) => f.name === 'arzpay_reconciliation_unresolved');
  return family ? Number(family.metrics[0]!.value) : undefined;
}

it('runs at the Tehran hour asked for, on the day before', () => {
  expect(dayBefore(NOW)).toBe(DAY);
  // 02:30 Tehran is 23:00 UTC the evening before.
  expect(nextNightlyAt(NOW, { hour: 2, minute: 30 }).toISOString()).toBe('2026-11-20T23:00:00.000Z');
  expect(nextNightlyAt(new Date('2026-11-19T22:59:00Z'), { hour: 2, minute: 30 }).toISOString()).toBe(
    '2026-11-19T23:00:00.000Z',
  );
});

it('reconciles the day before once with two runs at once, and tells the reconcile staff once', async () => {
  expect(await unresolvedGauge()).toBe(0);
  await settledWithoutCollection('9200000001');
  const runs = await Promise.all([server.app.reconcileNightly(NOW), server.app.reconcileNightly(NOW)]);
  const ran = runs.filter((r) => r !== null);
  expect(ran).toHaveLength(1);
  expect(ran[0]).toMatchObject({ day: DAY, unmatchedCount: 1, unresolvedCount: 1 });
  expect(await server.app.reconcileNightly(NOW)).toBeNull();
  const claims = await db.selectFrom('reconciliationNightlyClaims').selectAll().execute();
  expect(claims.map((c) => c.day)).toEqual([DAY]);
  const rows = await db
    .selectFrom('reconciliationRows')
    .select(['kind', 'notifiedAt'])
    .where('day', '=', DAY)
    .execute();
  expect(rows.map((r) => r.kind)).toEqual(['gatewayWithoutCollection']);
  expect(rows[0]!.notifiedAt).not.toBeNull();

  const notes = await told(reconciler.userId);
  expect(notes).toHaveLength(1);
  expect(notes[0]!.text).toBe(
    'تطبیق روز ۱۴۰۵/۰۸/۲۸: ۱ ردیف ناهمخوان تازه پیدا شد؛ آن‌ها را در صفحهٔ «تطبیق روزانه» بررسی کنید.',
  );
  expect(await told(bystander.userId)).toEqual([]);
  expect(await unresolvedGauge()).toBe(1);
  // The staff's own notification list has it too.
  const mine = await post(server, '/api/me/searchNotifications', {}, bearer(reconciler.token));
  expect(mine.status, mine.body.msg).toBe(200);
  const items = (mine.body.data as { items: Array<{ kind: string }> }).items;
  expect(items.filter((n) => n.kind === 'staffReconciliationUnmatched')).toHaveLength(1);
});

it('tells again only of rows found since, and the gauge follows resolutions', async () => {
  // Run again by hand: the same row, nobody told twice.
  const again = await post(server, '/api/sys/runReconciliation', { day: DAY }, bearer(reconciler.token));
  expect(again.status, again.body.msg).toBe(200);
  expect(await told(reconciler.userId)).toHaveLength(1);

  await settledWithoutCollection('9200000002');
  const third = await post(server, '/api/sys/runReconciliation', { day: DAY }, bearer(reconciler.token));
  expect(third.body.data).toMatchObject({ unmatchedCount: 2, unresolvedCount: 2 });
  const notes = await told(reconciler.userId);
  expect(notes).toHaveLength(2);
  expect(notes[1]!.text).toContain('۱ ردیف ناهمخوان تازه');
  expect(await told(bystander.userId)).toEqual([]);
  expect(await unresolvedGauge()).toBe(2);

  const day = await post(server, '/api/sys/fetchReconciliationDay', { day: DAY }, bearer(reconciler.token));
  for (const row of (day.body.data as { rows: Array<{ id: number }> }).rows) {
    const resolved = await post(
      server,
      '/api/sys/resolveReconciliationRow',
      { row: row.id, note: 'پرداخت آزمایشی بانک' },
      bearer(reconciler.token),
    );
    expect(resolved.status, resolved.body.msg).toBe(200);
  }
  expect(await unresolvedGauge()).toBe(0);
});
