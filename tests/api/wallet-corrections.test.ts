/**
 * Wallet corrections by two people (docs/money.md, «Wallet corrections»; decision 039) on a real server and
 * database (PGlite, or PostgreSQL with TEST_DATABASE_URL), with the ledger invariants checked after every test: a
 * correction proposed by one staff member and approved by another moves the wallet once (transaction_K or _L with
 * its own trace code and key), tells the customer with the reason and shows it in their transactions; the proposer
 * deciding their own is refused (403), a correction down below zero is refused (422), a decided one is not decided
 * twice, and each step is audited.
 */
import { expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import type { Customer, MoneyHelpers } from '../support/money';
import { withMoneyServer } from '../support/money';
import type { RunningServer } from '../support/server';
import { png, uploadForm } from '../support/images';
import { dataOf, refusal, staffApi, type TypedApi, typedApi } from '../support/typed-api';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let first: { api: TypedApi; userId: number };
let second: { api: TypedApi; userId: number };

const BOTH = ['proposeWalletCorrections', 'decideWalletCorrections'];

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  first = await staffApi(server, BOTH);
  second = await staffApi(server, BOTH);
});

async function propose(who: Customer, direction: 'up' | 'down', amount: number, reason = 'واریز دوباره ثبت نشده') {
  return first.api.POST('/api/sys/proposeWalletCorrection', {
    body: { user: who.userId, direction, amount, reason },
  });
}

const postingsOf = (userId: number, type: string) =>
  db
    .selectFrom('ledgerTransactions')
    .select(['id', 'traceCode', 'idempotencyKey'])
    .where('userId', '=', userId)
    .where('type', '=', type)
    .execute();

it('a correction up proposed by one and approved by another moves the wallet once and tells the customer why', async () => {
  const who = await money.customer();
  const proposed = await dataOf(propose(who, 'up', 250_000));
  expect(proposed).toMatchObject({ state: 'proposed', direction: 'up', amount: 250_000, userId: who.userId });
  expect((await money.balanceOf(who)).balance).toBe(0);

  const own = await refusal(
    first.api.POST('/api/sys/decideWalletCorrection', {
      body: { correction: proposed.id, approve: true, note: 'تایید' },
    }),
  );
  expect(own.status).toBe(403);
  expect(own.msg).toContain('کارشناس دیگری');
  expect((await money.balanceOf(who)).balance).toBe(0);

  const approved = await dataOf(
    second.api.POST('/api/sys/decideWalletCorrection', {
      body: { correction: proposed.id, approve: true, note: 'با صورت‌حساب بانک تطبیق داده شد' },
    }),
  );
  expect(approved).toMatchObject({ state: 'approved', decidedBy: second.userId });
  expect((await money.balanceOf(who)).balance).toBe(250_000);

  // A second decision, approve or reject, moves nothing.
  for (const approve of [true, false]) {
    const again = await refusal(
      second.api.POST('/api/sys/decideWalletCorrection', {
        body: { correction: proposed.id, approve, note: 'دوباره' },
      }),
    );
    expect(again.status).toBe(409);
  }
  expect((await money.balanceOf(who)).balance).toBe(250_000);
  const postings = await postingsOf(who.userId, 'transaction_K');
  expect(postings).toEqual([
    { id: expect.any(Number), traceCode: proposed.traceCode, idempotencyKey: `walletCorrection:${proposed.id}` },
  ]);

  // The customer sees the posting with its reason, and is told.
  const customer = typedApi(server, who.token);
  const mine = await dataOf(customer.POST('/api/me/searchTransactions', { body: { perPage: 50 } }));
  expect(mine.items[0]).toMatchObject({ type: 'transaction_K', walletAccountEffect: 250_000 });
  expect(mine.items[0]!.title).toContain('واریز دوباره ثبت نشده');
  const told = await dataOf(customer.POST('/api/me/searchNotifications', { body: {} }));
  expect(told.items.map((n) => n.text)).toContainEqual(expect.stringContaining('واریز دوباره ثبت نشده'));

  const trail = await db
    .selectFrom('auditLog')
    .select(['action', 'actorUserId'])
    .where('entity', '=', 'walletCorrection')
    .where('entityId', '=', String(proposed.id))
    .orderBy('id')
    .execute();
  expect(trail).toEqual([
    { action: 'proposeWalletCorrection', actorUserId: first.userId },
    { action: 'approveWalletCorrection', actorUserId: second.userId },
  ]);
});

it('a correction down below zero is refused when proposed and when approved; a rejected one moves nothing', async () => {
  const who = await money.customer();
  await money.deposit(who, 100_000);
  const below = await refusal(propose(who, 'down', 100_001));
  expect(below).toEqual({ status: 422, msg: 'این کاهش موجودی کیف پول مشتری را کمتر از صفر می‌کند.' });
  expect(await db.selectFrom('walletCorrections').select('id').where('userId', '=', who.userId).execute()).toEqual([]);

  // Proposed within the wallet, but the wallet is spent before the approval.
  const down = await dataOf(propose(who, 'down', 80_000, 'دریافت تکراری'));
  const other = await dataOf(propose(who, 'down', 30_000, 'کارمزد ثبت‌نشده'));
  await dataOf(
    second.api.POST('/api/sys/decideWalletCorrection', {
      body: { correction: other.id, approve: true, note: 'تایید' },
    }),
  );
  expect((await money.balanceOf(who)).balance).toBe(70_000);
  const late = await refusal(
    second.api.POST('/api/sys/decideWalletCorrection', { body: { correction: down.id, approve: true, note: 'تایید' } }),
  );
  expect(late.status).toBe(422);
  expect((await money.balanceOf(who)).balance).toBe(70_000);

  const rejected = await dataOf(
    second.api.POST('/api/sys/decideWalletCorrection', {
      body: { correction: down.id, approve: false, note: 'مبلغ اشتباه است' },
    }),
  );
  expect(rejected).toMatchObject({ state: 'rejected', decisionNote: 'مبلغ اشتباه است' });
  expect((await money.balanceOf(who)).balance).toBe(70_000);
  expect(await postingsOf(who.userId, 'transaction_L')).toHaveLength(1);

  const listed = await dataOf(
    first.api.POST('/api/sys/searchWalletCorrections', { body: { state: 'rejected', search: 'دریافت تکراری' } }),
  );
  expect(listed.items.map((c) => c.id)).toEqual([down.id]);
});

it('refuses a missing reason, a bad amount, a staff member without the action and an unknown customer in Persian', async () => {
  const who = await money.customer();
  const noReason = await refusal(propose(who, 'up', 1_000, '  '));
  expect(noReason.status).toBe(400);
  expect(noReason.msg).toMatch(/دلیل/);
  expect((await refusal(propose(who, 'up', 0))).status).toBe(400);
  const unknown = await refusal(
    first.api.POST('/api/sys/proposeWalletCorrection', {
      body: { user: 999_999_999, direction: 'up', amount: 1_000, reason: 'آزمایش' },
    }),
  );
  expect(unknown.status).toBe(404);
  const proposer = await staffApi(server, ['proposeWalletCorrections']);
  const proposed = await dataOf(
    proposer.api.POST('/api/sys/proposeWalletCorrection', {
      body: { user: who.userId, direction: 'up', amount: 1_000, reason: 'آزمایش' },
    }),
  );
  const cannot = await refusal(
    proposer.api.POST('/api/sys/decideWalletCorrection', {
      body: { correction: proposed.id, approve: true, note: 'x' },
    }),
  );
  expect(cannot.status).toBe(403);
  expect((await money.balanceOf(who)).balance).toBe(0);
});

it('keeps an evidence file the proposer uploaded, which the deciders may open; a path that is not theirs is refused', async () => {
  const who = await money.customer();
  const proposer = await money.staffWithActions(BOTH);
  const upload = await fetch(`${server.url}/api/me/uploadFile`, {
    method: 'POST',
    headers: { authorization: `Bearer ${proposer.token}` },
    body: uploadForm(await png(), 'bank-line.png', 'walletCorrection', 'image/png'),
  });
  expect(upload.status).toBe(200);
  const uploaded: { path: string } = await upload.json();
  const api = typedApi(server, proposer.token);
  const body = { user: who.userId, direction: 'up' as const, amount: 5_000, reason: 'رسید بانک پیوست است' };
  const stranger = await refusal(
    api.POST('/api/sys/proposeWalletCorrection', {
      body: { ...body, evidenceFile: 'walletCorrection/2026/abcdefghijklmnopqrstuv.png' },
    }),
  );
  expect(stranger.status).toBe(422);
  const proposed = await dataOf(
    api.POST('/api/sys/proposeWalletCorrection', { body: { ...body, evidenceFile: uploaded.path } }),
  );
  expect(proposed.evidenceFile).toBe(uploaded.path);
  const signed = await second.api.POST('/api/me/fileUrl', { body: { path: uploaded.path } });
  expect(signed.response.status).toBe(200);
  const outsider = await staffApi(server, ['proposeWalletCorrections']);
  expect((await outsider.api.POST('/api/me/fileUrl', { body: { path: uploaded.path } })).response.status).toBe(404);
});
