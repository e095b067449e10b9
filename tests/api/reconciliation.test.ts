/**
 * Daily reconciliation (issue 33, point 1) on a real server and database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): a day of traffic through the sandbox gateway reconciles with nothing unmatched; each mismatch
 * kind, injected alone as a fault written straight into the bank's or the server's tables, is found once and named;
 * a resolved row stays resolved when the day runs again. Ledger invariants after every test (withMoneyServer).
 */
import { expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { postTransaction } from '../../src/server/modules/ledger/service';
import { Tx } from '../../src/server/modules/ledger/types';
import { newAuthority } from '../../src/server/modules/sandbox-bank/bank';
import { tehranDayOf } from '../../src/shared/calendar/tehran-day';
import { type Customer, type MoneyHelpers, nationalCodeFor, withMoneyServer } from '../support/money';
import { bearer, post, type RunningServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let staff: { token: string; userId: number };
let who: Customer;
/** The Tehran day of now, as the reconciliation names days (its Gregorian date). */
const day = tehranDayOf(new Date());

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  staff = await money.staffWithActions(['reconcile']);
  who = await money.customer();
});

interface Row {
  id: number;
  kind: string;
  matched: boolean;
  evidence: { gateway: { referenceId: string; amount: number } | null; collections: unknown[]; ledger: unknown[] };
  collectionId: number | null;
  ledgerTransactionId: number | null;
  purchaseId: number | null;
  resolvedNote: string | null;
  resolvedAt: string | null;
}

async function run(): Promise<{ unmatchedCount: number; unresolvedCount: number; matchedCount: number }> {
  const res = await post(server, '/api/sys/runReconciliation', { day }, bearer(staff.token));
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as { unmatchedCount: number; unresolvedCount: number; matchedCount: number };
}

async function rows(): Promise<Row[]> {
  const res = await post(server, '/api/sys/fetchReconciliationDay', { day }, bearer(staff.token));
  expect(res.status, res.body.msg).toBe(200);
  return (res.body.data as { rows: Row[] }).rows;
}

const openRows = async () => (await rows()).filter((r) => !r.matched && r.resolvedAt === null);

/** A request paid through the sandbox bank (with someone else's card when `foreign`): its bank reference. */
async function paidOnline(foreign = false): Promise<string> {
  const purchase = await money.request(who, 30);
  const paying = await money.payOk(who, purchase.id);
  await money.payAtSandboxBank(who, paying.gatewayUrl!, foreign ? nationalCodeFor(9000) : undefined);
  const collection = await db
    .selectFrom('collections')
    .select('referenceId')
    .where('purchaseId', '=', purchase.id)
    .executeTakeFirstOrThrow();
  return collection.referenceId!;
}

/** Runs the day with a fault injected: exactly one new open row, of `kind`; resolves it so the next test starts clean. */
async function foundOnce(kind: string): Promise<Row> {
  await run();
  const open = await openRows();
  expect(open.map((r) => r.kind)).toEqual([kind]);
  const found = open[0]!;
  const resolved = await post(
    server,
    '/api/sys/resolveReconciliationRow',
    { row: found.id, note: `بررسی شد: ${kind}` },
    bearer(staff.token),
  );
  expect(resolved.status, resolved.body.msg).toBe(200);
  return found;
}

it('reconciles a day of traffic through the sandbox gateway with nothing unmatched', async () => {
  for (let i = 0; i < 3; i++) await paidOnline();
  await paidOnline(true); // card mismatch: the money goes back to the card (transaction_H)
  await money.paidRequest(who, 20); // offline deposit and a wallet payment: not the gateway's
  const cancelled = await money.request(who, 10);
  const paying = await money.payOk(who, cancelled.id);
  const bankPage = new URL(paying.gatewayUrl!, server.url);
  await fetch(bankPage, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'cancel' }),
  });

  const summary = await run();
  expect(summary).toMatchObject({ matchedCount: 4, unmatchedCount: 0, unresolvedCount: 0 });
  const all = await rows();
  expect(all).toHaveLength(4);
  for (const r of all) {
    expect(r.kind).toBe('matched');
    expect(r.collectionId).not.toBeNull();
    expect(r.ledgerTransactionId).not.toBeNull();
    expect(r.evidence.collections).toHaveLength(1);
  }
  // The bank's own statement, as a PSP's report.
  const report = await fetch(new URL(`/sandbox-bank/pg/v4/report/settlements.json?date=${day}`, server.url));
  const statement = (await report.json()) as { data: { count: number; settlements: Array<{ card_pan: string }> } };
  expect(statement.data.count).toBe(4);
  expect(statement.data.settlements[0]!.card_pan).toMatch(/^\d{6}\*{6}\d{4}$/);
});

it('finds a payment settled at the gateway without a collection', async () => {
  const referenceId = '9100000001';
  await db
    .insertInto('sandboxBankPayments')
    .values({
      authority: newAuthority(),
      merchantId: '00000000-0000-0000-0000-000000000000',
      amount: 5_000_000,
      description: 'fault',
      callbackUrl: 'https://example.com/back',
      state: 'paid',
      cardNo: '603799******7890',
      referenceId,
      expiresAt: new Date(Date.now() + 60_000),
      paidAt: new Date(),
    })
    .execute();
  const row = await foundOnce('gatewayWithoutCollection');
  expect(row.evidence.gateway).toMatchObject({ referenceId, amount: 5_000_000 });
  expect(row.collectionId).toBeNull();
});

it('finds a collection the gateway never settled', async () => {
  const referenceId = await paidOnline();
  await db
    .updateTable('sandboxBankPayments')
    .set({ state: 'cancelled' })
    .where('referenceId', '=', referenceId)
    .execute();
  const row = await foundOnce('collectionWithoutSettlement');
  expect(row.evidence.gateway).toBeNull();
  expect(row.collectionId).not.toBeNull();
  expect(row.purchaseId).not.toBeNull();
});

it('finds a settlement whose amount differs from its collection', async () => {
  const referenceId = await paidOnline();
  await db
    .updateTable('sandboxBankPayments')
    .set((eb) => ({ amount: eb('amount', '+', 1000) }))
    .where('referenceId', '=', referenceId)
    .execute();
  const row = await foundOnce('amountDiffers');
  expect(row.evidence.gateway!.referenceId).toBe(referenceId);
});

it('finds a payment settled twice', async () => {
  const referenceId = await paidOnline();
  const first = await db
    .selectFrom('collections')
    .selectAll()
    .where('referenceId', '=', referenceId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('collections')
    .values({
      userId: first.userId,
      source: 'online',
      amount: first.amount,
      gateway: first.gateway,
      referenceId,
      cardNo: first.cardNo,
      traceCode: first.traceCode,
    })
    .execute();
  const row = await foundOnce('settledTwice');
  expect(row.evidence.collections).toHaveLength(2);
});

it('finds a ledger posting of an online collection without its collection', async () => {
  const posted = await db.transaction().execute((trx) =>
    postTransaction(trx, {
      type: Tx.collectOnline,
      userId: who.userId,
      amounts: { collectionAmount: 7000 },
      details: { collectionId: 2_000_000_000 },
    }),
  );
  const row = await foundOnce('ledgerWithoutCollection');
  expect(row.ledgerTransactionId).toBe(posted.id);
});

it('keeps resolved rows resolved when the day runs again', async () => {
  const summary = await run();
  expect(summary.unmatchedCount).toBe(5);
  expect(summary.unresolvedCount).toBe(0);
  const unmatched = (await rows()).filter((r) => !r.matched);
  expect(unmatched.map((r) => r.kind).sort()).toEqual([
    'amountDiffers',
    'collectionWithoutSettlement',
    'gatewayWithoutCollection',
    'ledgerWithoutCollection',
    'settledTwice',
  ]);
  for (const r of unmatched) expect(r.resolvedNote).toBe(`بررسی شد: ${r.kind}`);
  const again = await post(
    server,
    '/api/sys/resolveReconciliationRow',
    { row: unmatched[0]!.id, note: 'دوباره' },
    bearer(staff.token),
  );
  expect(again.status).toBe(409);
  const audits = await db
    .selectFrom('auditLog')
    .select('entityId')
    .where('action', '=', 'resolveReconciliationRow')
    .execute();
  expect(audits).toHaveLength(5);
});

it('refuses bad input with a Persian message and staff without the action', async () => {
  const emptyNote = await post(
    server,
    '/api/sys/resolveReconciliationRow',
    { row: 1, note: '  ' },
    bearer(staff.token),
  );
  expect(emptyNote.status).toBe(400);
  expect(emptyNote.body.msg).toBe('توضیح رسیدگی به مغایرت را بنویسید.');
  const badDay = await post(server, '/api/sys/runReconciliation', { day: '1405-09-06x' }, bearer(staff.token));
  expect(badDay.status).toBe(400);
  expect(badDay.body.msg).toBe('روز تطبیق را به صورت تاریخ درست وارد کنید.');
  const neverRun = await post(server, '/api/sys/fetchReconciliationDay', { day: '2001-01-01' }, bearer(staff.token));
  expect(neverRun.status).toBe(404);
  expect(neverRun.body.msg).toBe('تطبیق این روز هنوز اجرا نشده است.');
  const missing = await post(
    server,
    '/api/sys/resolveReconciliationRow',
    { row: 2_000_000_000, note: 'x' },
    bearer(staff.token),
  );
  expect(missing.status).toBe(404);
  const other = await money.staffWithActions(['viewTasks']);
  const refused = await post(server, '/api/sys/runReconciliation', { day }, bearer(other.token));
  expect(refused.status).toBe(403);
  const days = await post(server, '/api/sys/searchReconciliationDays', { unresolvedOnly: true }, bearer(staff.token));
  expect(days.status, days.body.msg).toBe(200);
  expect((days.body.data as { total: number }).total).toBe(0);
  const all = await post(server, '/api/sys/searchReconciliationDays', {}, bearer(staff.token));
  expect((all.body.data as { items: Array<{ day: string; unmatchedCount: number }> }).items).toEqual([
    expect.objectContaining({ day, unmatchedCount: 5 }),
  ]);
});
