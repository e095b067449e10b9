/**
 * Fulfilment on a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL): staff open a paid
 * request from its task, reveal its password (audited), record it done with a real price (the reservation spent to
 * exactly zero: D the currency's cost, F fee/tax/operation cost, G the difference back to the wallet) or failed
 * (all back to the wallet, the reason shown to the customer); a level-1 rejection invalidates paid requests; each
 * decision once; refusals for customers and staff without the action. Ledger invariants after every test.
 */
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { purchaseReservation } from '../../src/server/modules/ledger/service';
import { openTaskOnce } from '../../src/server/modules/tasks/service';
import { connectEcho, nextEvent, subscription, waitConnected } from '../support/echo';
import { jpegWithExif, uploadForm } from '../support/images';
import { type Customer, type MoneyHelpers, withMoneyServer, type Purchase } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let staff: { token: string; userId: number };

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  staff = await money.staffWithActions(['manageCurrencyPayments', 'viewTasks']);
});

interface TaskData {
  task: { id: number; state: string; claimedBy: number | null };
  purchase: Purchase;
  costs: { fee: number; tax: number; operationCost: number };
  reserved: number;
  fields: Array<{ name: string; title: string; value: unknown; secret: boolean }>;
  customer: { id: number };
  history: Array<{ state: string }>;
  currencyPayment: null | { reference: string; realPrice: number; foreignAmount: number; receiptFile: string | null };
}

const systemBalances = async () => {
  const rows = await db.selectFrom('ledgerAccounts').select(['kind', 'balance']).where('userId', 'is', null).execute();
  return Object.fromEntries(rows.map((r) => [r.kind, r.balance])) as Record<string, number>;
};

async function taskOf(purchaseId: number) {
  return db
    .selectFrom('tasks')
    .select(['id', 'type', 'state', 'decidedBy', 'decisionReason'])
    .where('purchaseId', '=', purchaseId)
    .executeTakeFirstOrThrow();
}

async function openTask(purchaseId: number, token = staff.token): Promise<TaskData> {
  const task = await taskOf(purchaseId);
  const res = await post(server, '/api/sys/fetchFulfilmentTaskData', { taskId: task.id }, bearer(token));
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as TaskData;
}

const done = (body: Record<string, unknown>, token = staff.token) =>
  post(server, '/api/sys/uafCprDone', body, bearer(token));
const failed = (body: Record<string, unknown>, token = staff.token) =>
  post(server, '/api/sys/uafCprFailed', body, bearer(token));

describe('done', () => {
  it('spends the reservation to zero with a lower real price: D, F and G share the trace code; the difference returns', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who);
    const data = await openTask(purchase.id);
    expect(data.task).toMatchObject({ state: 'claimed', claimedBy: staff.userId });
    expect(data.reserved).toBe(purchase.expectedPrice);
    const costs = data.costs.fee + data.costs.tax + data.costs.operationCost;
    expect(costs).toBe(purchase.totalCosts);
    expect(data.costs.fee).toBeGreaterThan(0);
    const field = (name: string) => data.fields.find((f) => f.name === name);
    expect(field('targetPageUsername')).toMatchObject({ value: 'student1', secret: false, title: 'نام کاربری' });
    expect(field('targetPagePassword')).toMatchObject({ value: null, secret: true });
    expect(field('targetPageAddress')?.value).toBe('https://www.ets.org/toefl/pay');

    const before = await systemBalances();
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(who.token))).body.data as { uid: string };
    const echo = connectEcho(server.url, who.token);
    const difference = 1_234_567;
    const realPrice = purchase.expectedPrice - difference;
    try {
      await waitConnected(echo);
      const joined = subscription(echo, `private-user.${me.uid}`);
      const channel = echo.private(`user.${me.uid}`);
      const wallet = nextEvent<{ balance: number }>(channel, '.wallet.changed');
      const changed = nextEvent<{ purchaseId: number; state: string }>(channel, '.purchase.changed');
      expect(await joined).toBe('joined');
      const res = await done({
        purchase: purchase.id,
        realPrice,
        currencyPaymentReference: ' TX-778899 ',
        foreignAmount: 100,
      });
      expect(res.status, res.body.msg).toBe(200);
      expect(res.body.msg).toBe('انجام درخواست ثبت شد.');
      expect(res.body.data).toMatchObject({ refundedAmount: difference, purchase: { state: 'purchaseSucceeded' } });
      expect(await wallet).toEqual({ balance: difference });
      expect(await changed).toEqual({ purchaseId: purchase.id, state: 'purchaseSucceeded' });
    } finally {
      echo.disconnect();
    }

    // The customer's reservation of this request is back to exactly zero; the difference is in the wallet.
    expect(await money.balanceOf(who)).toEqual({ balance: difference, reserved: 0 });
    expect(await purchaseReservation(db, who.userId, purchase.id)).toBe(0);
    const after = await systemBalances();
    expect(after.currencyPaymentsOut! - before.currencyPaymentsOut!).toBe(realPrice - costs);
    expect(after.fees! - before.fees!).toBe(data.costs.fee);
    expect(after.tax! - before.tax!).toBe(data.costs.tax);
    expect(after.operationCosts! - before.operationCosts!).toBe(data.costs.operationCost);

    const moves = await money.transactions(who);
    expect(moves.map((t) => t.type)).toEqual([
      'transaction_G',
      'transaction_F',
      'transaction_D',
      'transaction_C',
      'transaction_B',
    ]);
    const [g, f, d, c] = moves;
    expect(new Set([g, f, d, c].map((t) => t!.traceCode)).size).toBe(1);
    expect(d).toMatchObject({
      expendedAmount: realPrice - costs,
      reservedAccountEffect: -(realPrice - costs),
      walletAccountEffect: 0,
      realPrice,
      purchaseId: purchase.id,
      stateIdentifier: 'purchaseSucceeded',
    });
    expect(f).toMatchObject({ ...data.costs, reservedAccountEffect: -costs, walletAccountEffect: 0 });
    expect(g).toMatchObject({
      refundedAmount: difference,
      reservedAccountEffect: -difference,
      walletAccountEffect: difference,
    });
    // D + F + G spend exactly what C reserved.
    expect([g, f, d, c].reduce((sum, t) => sum + Number(t!.reservedAccountEffect), 0)).toBe(0);

    const detail = await money.purchaseOf(who, purchase.id);
    expect(detail.purchase).toMatchObject({ state: 'purchaseSucceeded', stateIsFinal: true, stateIsFailure: false });
    expect(detail.history.at(-1)).toMatchObject({ state: 'purchaseSucceeded', cause: 'fulfilled', reason: null });
    expect(await taskOf(purchase.id)).toMatchObject({ state: 'done', decidedBy: staff.userId });
    // The customer sees what was paid abroad, what it really cost and what came back.
    expect((detail as unknown as { currencyPayment: unknown }).currencyPayment).toMatchObject({
      currencyCode: 'USD',
      reference: 'TX-778899',
      realPrice,
      returnedAmount: difference,
      receiptUrl: null,
    });

    const payment = await db
      .selectFrom('currencyPayments')
      .selectAll()
      .where('purchaseId', '=', purchase.id)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({
      reference: 'TX-778899',
      realPrice,
      amountMinor: 10_000,
      staffUserId: staff.userId,
    });
    const reopened = await post(
      server,
      '/api/sys/fetchFulfilmentTaskData',
      { taskId: (await taskOf(purchase.id)).id },
      bearer(staff.token),
    );
    expect(reopened.status).toBe(409);
    const audit = await db
      .selectFrom('auditLog')
      .select(['actorUserId', 'after'])
      .where('action', '=', 'uafCprDone')
      .where('entityId', '=', String(purchase.id))
      .executeTakeFirstOrThrow();
    expect(audit.actorUserId).toBe(staff.userId);
    expect(audit.after).toMatchObject({ realPrice, refundedAmount: difference });
  });

  it('a real price equal to the expected price returns nothing (no G); a receipt upload is kept with it', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who, 20);
    const upload = await fetch(`${server.url}/api/me/uploadFile`, {
      method: 'POST',
      headers: bearer(staff.token),
      body: uploadForm(await jpegWithExif(), 'receipt.jpg', 'currencyPaymentReceipt'),
    });
    const receipt = ((await upload.json()) as { path: string }).path;
    const res = await done({
      purchase: purchase.id,
      realPrice: purchase.expectedPrice,
      currencyPaymentReference: 'R-1',
      receiptFile: receipt,
    });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject({ refundedAmount: 0 });
    expect((await money.transactions(who)).map((t) => t.type)).toEqual([
      'transaction_F',
      'transaction_D',
      'transaction_C',
      'transaction_B',
    ]);
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: 0 });
    const row = await db
      .selectFrom('uploads')
      .select('attachedAt')
      .where('path', '=', receipt)
      .executeTakeFirstOrThrow();
    expect(row.attachedAt).not.toBeNull();
    const data = await db
      .selectFrom('currencyPayments')
      .select('receiptPath')
      .where('purchaseId', '=', purchase.id)
      .executeTakeFirstOrThrow();
    expect(data.receiptPath).toBe(receipt);
    // The customer sees the currency payment with its receipt image, through a signed address.
    const seen = (await post(server, '/api/me/fetchPurchase', { purchase: purchase.id }, bearer(who.token))).body
      .data as { currencyPayment: { reference: string; returnedAmount: number; receiptUrl: string | null } };
    expect(seen.currencyPayment).toMatchObject({ reference: 'R-1', returnedAmount: 0 });
    const image = await fetch(`${server.url}${seen.currencyPayment.receiptUrl}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
  });

  it('refuses a real price above the reservation, or not above the costs (422, Persian), and moves nothing', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who);
    const tooHigh = await done({
      purchase: purchase.id,
      realPrice: purchase.expectedPrice + 1,
      currencyPaymentReference: 'X',
    });
    expect(tooHigh.status).toBe(422);
    expect(tooHigh.body.msg).toMatch(/^قیمت واقعی بیش از مبلغ رزروشده این درخواست/);
    const tooLow = await done({ purchase: purchase.id, realPrice: purchase.totalCosts, currencyPaymentReference: 'X' });
    expect(tooLow.status).toBe(422);
    expect(tooLow.body.msg).toMatch(/کارمزد، مالیات و هزینه عملیاتی/);
    const noReference = await done({
      purchase: purchase.id,
      realPrice: purchase.expectedPrice,
      currencyPaymentReference: '  ',
    });
    expect(noReference.status).toBe(400);
    expect(noReference.body.msg).toBe('شماره پیگیری پرداخت ارزی را وارد نمایید.');
    const strangerFile = await done({
      purchase: purchase.id,
      realPrice: purchase.expectedPrice,
      currencyPaymentReference: 'X',
      receiptFile: 'currencyPaymentReceipt/2026/aaaaaaaaaaaaaaaaaaaaaaaa.jpg',
    });
    expect(strangerFile.status).toBe(422);
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: purchase.expectedPrice });
    expect((await money.purchaseOf(who, purchase.id)).purchase.state).toBe('paid');
    expect(
      await db.selectFrom('currencyPayments').select('id').where('purchaseId', '=', purchase.id).execute(),
    ).toEqual([]);
  });
});

describe('failed', () => {
  it('releases the whole reservation to the wallet; the customer sees the reason', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who);
    await openTask(purchase.id);
    const reason = 'صفحه پرداخت آزمون در دسترس نبود.';
    const res = await failed({ purchase: purchase.id, reason: `  ${reason} ` });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject({ state: 'purchaseFailed', stateIsFinal: true, stateIsFailure: true });
    expect(await money.balanceOf(who)).toEqual({ balance: purchase.expectedPrice, reserved: 0 });
    const [e, c] = await money.transactions(who);
    expect(e).toMatchObject({
      type: 'transaction_E',
      expectedPrice: purchase.expectedPrice,
      walletAccountEffect: purchase.expectedPrice,
      reservedAccountEffect: -purchase.expectedPrice,
      stateIdentifier: 'purchaseFailed',
      purchaseId: purchase.id,
    });
    expect(e!.traceCode).toBe(c!.traceCode);
    const detail = await money.purchaseOf(who, purchase.id);
    expect(detail.history.at(-1)).toMatchObject({ state: 'purchaseFailed', cause: 'failedByStaff', reason });
    expect(await taskOf(purchase.id)).toMatchObject({ state: 'rejected', decisionReason: reason });
  });

  it('needs a reason', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who, 10);
    const res = await failed({ purchase: purchase.id, reason: '  ' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/دلیل/);
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: purchase.expectedPrice });
  });
});

describe('each decision once', () => {
  it('a second decision on the same request is 409, in either order, and in parallel only one wins', async () => {
    const who = await money.customer();
    const first = await money.paidRequest(who, 10);
    expect(
      (await done({ purchase: first.id, realPrice: first.expectedPrice, currencyPaymentReference: 'A' })).status,
    ).toBe(200);
    const again = await done({ purchase: first.id, realPrice: first.expectedPrice, currencyPaymentReference: 'A' });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('درباره این درخواست پیش‌تر تصمیم‌گیری شده است.');
    expect((await failed({ purchase: first.id, reason: 'دیر شد' })).status).toBe(409);

    const second = await money.paidRequest(who, 10);
    expect((await failed({ purchase: second.id, reason: 'ممکن نشد' })).status).toBe(200);
    expect(
      (await done({ purchase: second.id, realPrice: second.expectedPrice, currencyPaymentReference: 'B' })).status,
    ).toBe(409);

    const third = await money.paidRequest(who, 10);
    const racing = await Promise.all([
      done({ purchase: third.id, realPrice: third.expectedPrice - 1_000, currencyPaymentReference: 'C' }),
      failed({ purchase: third.id, reason: 'همزمان' }),
      done({ purchase: third.id, realPrice: third.expectedPrice, currencyPaymentReference: 'C' }),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await purchaseReservation(db, who.userId, third.id)).toBe(0);
    expect((await money.balanceOf(who)).reserved).toBe(0);

    const waiting = await money.request(who, 10);
    const unpaid = await done({
      purchase: waiting.id,
      realPrice: waiting.expectedPrice,
      currencyPaymentReference: 'D',
    });
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.msg).toBe('این درخواست پرداخت‌شده و در انتظار انجام نیست.');
    expect((await done({ purchase: 999_999, realPrice: 1, currencyPaymentReference: 'D' })).status).toBe(404);
  });

  it('a task a colleague opened stays with them', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who, 10);
    const colleague = await money.staffWithActions(['manageCurrencyPayments', 'viewTasks']);
    await openTask(purchase.id, colleague.token);
    const task = await taskOf(purchase.id);
    const open = await post(server, '/api/sys/fetchFulfilmentTaskData', { taskId: task.id }, bearer(staff.token));
    expect(open.status).toBe(409);
    expect(open.body.msg).toBe('این کار در دست همکار دیگری است.');
    expect((await failed({ purchase: purchase.id, reason: 'نه من' })).status).toBe(409);
    expect((await failed({ purchase: purchase.id, reason: 'انجام نشد' }, colleague.token)).status).toBe(200);
  });
});

describe('access and the password', () => {
  it('refuses customers and staff without the action (403)', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who, 10);
    const task = await taskOf(purchase.id);
    const viewer = await money.staffWithActions(['viewTasks']);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['/api/sys/fetchFulfilmentTaskData', { taskId: task.id }],
      ['/api/sys/revealPurchaseSecret', { purchase: purchase.id }],
      [
        '/api/sys/uafCprDone',
        { purchase: purchase.id, realPrice: purchase.expectedPrice, currencyPaymentReference: 'Z' },
      ],
      ['/api/sys/uafCprFailed', { purchase: purchase.id, reason: 'دسترسی ندارم' }],
    ];
    for (const [path, body] of calls) {
      for (const token of [who.token, viewer.token]) {
        const res = await post(server, path, body, bearer(token));
        expect(res.status, path).toBe(403);
      }
      expect((await post(server, path, body)).status, path).toBe(401);
    }
    expect((await money.purchaseOf(who, purchase.id)).purchase.state).toBe('paid');
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: purchase.expectedPrice });
  });

  it('reveals the password on demand, audit-logging who and when; lists never carry it', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who, 10);
    const listed = await post(server, '/api/me/searchPurchases', {}, bearer(who.token));
    expect(JSON.stringify(listed.body)).not.toContain('targetPagePassword');
    const res = await post(server, '/api/sys/revealPurchaseSecret', { purchase: purchase.id }, bearer(staff.token));
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toEqual({ fields: { targetPagePassword: 'secret' } });
    const entries = await db
      .selectFrom('auditLog')
      .select(['actorUserId', 'entity', 'after', 'createdAt'])
      .where('action', '=', 'revealPurchaseSecret')
      .where('entityId', '=', String(purchase.id))
      .execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorUserId: staff.userId,
      entity: 'purchase',
      after: { fields: ['targetPagePassword'] },
    });
    expect(entries[0]!.createdAt).toBeInstanceOf(Date);
    expect(
      (await post(server, '/api/sys/revealPurchaseSecret', { purchase: 999_999 }, bearer(staff.token))).status,
    ).toBe(404);
  });
});

describe('profile rejected at level 1', () => {
  it("invalidates the customer's paid, unfulfilled requests in the rejection's transaction", async () => {
    const who: Customer = await money.customer();
    const a = await money.paidRequest(who, 10);
    const b = await money.paidRequest(who, 20);
    const fulfilled = await money.paidRequest(who, 10);
    expect(
      (await done({ purchase: fulfilled.id, realPrice: fulfilled.expectedPrice, currencyPaymentReference: 'F' }))
        .status,
    ).toBe(200);
    const waiting = await money.request(who, 10);

    // A new level-1 review of this customer (as a profile change would open), rejected by staff.
    const taskId = await openTaskOnce(db, 'approveProfileAsL1Task', who.userId, { level: 1 });
    const admin = await loginAdmin(server);
    expect((await post(server, '/api/sys/fetchApproveProfileAsL1TaskData', { taskId }, bearer(admin))).status).toBe(
      200,
    );
    const reason = 'تصویر کارت ملی با مشخصات همخوانی ندارد.';
    const rejected = await post(server, '/api/sys/rejectProfileAsL1', { taskId, reason }, bearer(admin));
    expect(rejected.status, rejected.body.msg).toBe(200);

    expect(await money.balanceOf(who)).toEqual({ balance: a.expectedPrice + b.expectedPrice, reserved: 0 });
    for (const p of [a, b]) {
      const detail = await money.purchaseOf(who, p.id);
      expect(detail.purchase).toMatchObject({ state: 'purchaseInvalidated', stateIsFinal: true, stateIsFailure: true });
      expect(detail.history.at(-1)).toMatchObject({ state: 'purchaseInvalidated', cause: 'profileL1Rejected', reason });
      expect(await taskOf(p.id)).toMatchObject({ state: 'rejected' });
    }
    expect((await money.purchaseOf(who, fulfilled.id)).purchase.state).toBe('purchaseSucceeded');
    expect((await money.purchaseOf(who, waiting.id)).purchase.state).toBe('waitingForPayment');
    const releases = (await money.transactions(who)).filter((t) => t.type === 'transaction_E');
    expect(releases).toHaveLength(2);
    for (const t of releases) {
      expect(t).toMatchObject({ cause: 'profileL1Rejected', stateIdentifier: 'purchaseInvalidated' });
    }
    expect(releases.map((t) => t.purchaseId).sort()).toEqual([a.id, b.id].sort());
    // Invalidated requests are decided: staff cannot fulfil them afterwards.
    expect((await done({ purchase: a.id, realPrice: a.expectedPrice, currencyPaymentReference: 'late' })).status).toBe(
      409,
    );
  });
});
