/**
 * Closing a reconciled day (decision 039) on a real server and database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): a day with an unresolved row cannot be closed (422); once resolved it closes, and its
 * reconciliation no longer runs (409, in Persian); reopening takes a reason from one staff member and the approval of
 * a second one (the one who asked is refused, 403); each step is audited.
 */
import { expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { newAuthority } from '../../src/server/modules/sandbox-bank/bank';
import { tehranDayWindow } from '../../src/shared/calendar/tehran-day';
import { withMoneyServer } from '../support/money';
import type { RunningServer } from '../support/server';
import { dataOf, refusal, staffApi, type TypedApi } from '../support/typed-api';

/** A fixed past Tehran day. */
const DAY = '2026-10-20';
let db: DB;
let server: RunningServer;
let first: { api: TypedApi; userId: number };
let second: { api: TypedApi; userId: number };
const ACTIONS = ['reconcile', 'closeReconciliationDays'];

withMoneyServer({ web: false }, async (t) => {
  ({ db, server } = t);
  first = await staffApi(t.server, ACTIONS);
  second = await staffApi(t.server, ACTIONS);
  // A payment the bank settled on DAY that no collection records: one unmatched row.
  const paidAt = new Date(tehranDayWindow(DAY).from.getTime() + 10 * 3_600_000);
  await db
    .insertInto('sandboxBankPayments')
    .values({
      authority: newAuthority(),
      merchantId: '00000000-0000-0000-0000-000000000000',
      amount: 1_500_000,
      description: 'stray',
      callbackUrl: 'https://example.com/back',
      state: 'paid',
      cardNo: '603799******7890',
      referenceId: '9300000777',
      expiresAt: new Date(paidAt.getTime() + 60_000),
      paidAt,
    })
    .execute();
});

it('closes a day only with nothing unresolved; a closed day no longer runs; reopening takes two people', async () => {
  const body = { day: DAY };
  expect((await refusal(first.api.POST('/api/sys/closeReconciliationDay', { body }))).status).toBe(404);
  const ran = await dataOf(first.api.POST('/api/sys/runReconciliation', { body }));
  expect(ran.unresolvedCount).toBe(1);
  const unresolved = await refusal(first.api.POST('/api/sys/closeReconciliationDay', { body }));
  expect(unresolved.status).toBe(422);
  expect(unresolved.msg).toContain('رسیدگی‌نشده');

  const { rows } = await dataOf(first.api.POST('/api/sys/fetchReconciliationDay', { body }));
  const open = rows.find((r) => !r.matched)!;
  await dataOf(
    first.api.POST('/api/sys/resolveReconciliationRow', { body: { row: open.id, note: 'پرداخت آزمایشی بانک' } }),
  );
  const closed = await dataOf(first.api.POST('/api/sys/closeReconciliationDay', { body }));
  expect(closed.closedAt).not.toBeNull();
  expect((await refusal(second.api.POST('/api/sys/closeReconciliationDay', { body }))).status).toBe(409);

  const run = await refusal(second.api.POST('/api/sys/runReconciliation', { body }));
  expect(run.status).toBe(409);
  expect(run.msg).toContain('بسته شده');
  const after = await dataOf(first.api.POST('/api/sys/fetchReconciliationDay', { body }));
  expect(after.day.ranAt).toBe(ran.ranAt);

  // Reopening: asked with a reason by one, refused to the same one, approved by the other.
  const noReason = await refusal(
    first.api.POST('/api/sys/requestReopenReconciliationDay', { body: { day: DAY, reason: ' ' } }),
  );
  expect(noReason.status).toBe(400);
  const asked = await dataOf(
    first.api.POST('/api/sys/requestReopenReconciliationDay', { body: { day: DAY, reason: 'صورت‌حساب اصلاحی بانک' } }),
  );
  expect(asked).toMatchObject({ reopenReason: 'صورت‌حساب اصلاحی بانک', reopenRequestedBy: first.userId });
  expect(asked.closedAt).not.toBeNull();
  const own = await refusal(first.api.POST('/api/sys/reopenReconciliationDay', { body }));
  expect(own.status).toBe(403);
  expect(own.msg).toContain('کارشناس دیگری');
  const reopened = await dataOf(second.api.POST('/api/sys/reopenReconciliationDay', { body }));
  expect(reopened).toMatchObject({ closedAt: null, reopenReason: null });
  await dataOf(second.api.POST('/api/sys/runReconciliation', { body }));

  const trail = await db
    .selectFrom('auditLog')
    .select(['action', 'actorUserId'])
    .where('entity', '=', 'reconciliationDay')
    .where('entityId', '=', DAY)
    .orderBy('id')
    .execute();
  expect(trail).toEqual([
    { action: 'closeReconciliationDay', actorUserId: first.userId },
    { action: 'requestReopenReconciliationDay', actorUserId: first.userId },
    { action: 'reopenReconciliationDay', actorUserId: second.userId },
  ]);
});

it('refuses staff without the action', async () => {
  const reconciler = await staffApi(server, ['reconcile']);
  expect((await refusal(reconciler.api.POST('/api/sys/closeReconciliationDay', { body: { day: DAY } }))).status).toBe(
    403,
  );
});
