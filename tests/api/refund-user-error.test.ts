/**
 * A refund after a user error (SPEC section 9: it deducts fee and tax) on a real server and database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL): staff end a paid request purchaseFailed with transaction_J — the fee to fees,
 * the tax to tax, the rest (the operation cost included) back to the wallet — so the request's reservation ends at
 * exactly zero; the reason on its history; the task closed; audited; live events; each decision once; refusals for
 * customers and staff without the action. Ledger invariants after every test.
 */
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { userErrorRefundSplit } from '../../src/server/modules/fulfilment/settlement';
import { purchaseReservation } from '../../src/server/modules/ledger/service';
import { connectEcho, nextEvent, subscription, waitConnected } from '../support/echo';
import { type MoneyHelpers, withMoneyServer } from '../support/money';
import { bearer, post, type RunningServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let staff: { token: string; userId: number };

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  staff = await money.staffWithActions(['manageCurrencyPayments', 'viewTasks']);
});

const systemBalances = async () => {
  const rows = await db.selectFrom('ledgerAccounts').select(['kind', 'balance']).where('userId', 'is', null).execute();
  return Object.fromEntries(rows.map((r) => [r.kind, r.balance])) as Record<string, number>;
};

const taskOf = (purchaseId: number) =>
  db
    .selectFrom('tasks')
    .select(['id', 'state', 'decidedBy', 'decisionReason'])
    .where('purchaseId', '=', purchaseId)
    .executeTakeFirstOrThrow();

const refund = (body: Record<string, unknown>, token = staff.token) =>
  post(server, '/api/sys/uafCprRefundUserError', body, bearer(token));

describe('userErrorRefundSplit', () => {
  it('keeps fee and tax and returns the rest, the three adding up to the reservation', () => {
    expect(userErrorRefundSplit(1_000_000, { fee: 30_000, tax: 3_000 })).toEqual({
      refundedAmount: 967_000,
      fee: 30_000,
      tax: 3_000,
    });
    expect(userErrorRefundSplit(33_000, { fee: 30_000, tax: 3_000 }).refundedAmount).toBe(0);
    expect(() => userErrorRefundSplit(32_999, { fee: 30_000, tax: 3_000 })).toThrow();
  });
});

describe('refund after a user error', () => {
  it('posts transaction_J: fee and tax kept, the rest and the operation cost back, the reservation at zero', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who);
    const task = await taskOf(purchase.id);
    const open = await post(server, '/api/sys/fetchFulfilmentTaskData', { taskId: task.id }, bearer(staff.token));
    expect(open.status, open.body.msg).toBe(200);
    const costs = (open.body.data as { costs: { fee: number; tax: number; operationCost: number } }).costs;
    expect(costs.fee).toBeGreaterThan(0);
    expect(costs.tax).toBeGreaterThan(0);
    const expected = purchase.expectedPrice - costs.fee - costs.tax;

    const before = await systemBalances();
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(who.token))).body.data as { uid: string };
    const echo = connectEcho(server.url, who.token);
    const reason = 'نام کاربری واردشده در صفحه آزمون وجود ندارد.';
    try {
      await waitConnected(echo);
      const joined = subscription(echo, `private-user.${me.uid}`);
      const channel = echo.private(`user.${me.uid}`);
      const wallet = nextEvent<{ balance: number }>(channel, '.wallet.changed');
      const changed = nextEvent<{ purchaseId: number; state: string }>(channel, '.purchase.changed');
      expect(await joined).toBe('joined');
      const res = await refund({ purchase: purchase.id, reason: ` ${reason}  ` });
      expect(res.status, res.body.msg).toBe(200);
      expect(res.body.msg).toBe(
        'درخواست به دلیل خطای کاربر ناموفق ثبت شد و مبلغ رزروشده پس از کسر کارمزد و مالیات به کیف پول مشتری بازگشت.',
      );
      expect(res.body.data).toMatchObject({
        refundedAmount: expected,
        purchase: { state: 'purchaseFailed', stateIsFinal: true, stateIsFailure: true },
      });
      expect(await wallet).toEqual({ balance: expected });
      expect(await changed).toEqual({ purchaseId: purchase.id, state: 'purchaseFailed' });
    } finally {
      echo.disconnect();
    }

    expect(await money.balanceOf(who)).toEqual({ balance: expected, reserved: 0 });
    expect(await purchaseReservation(db, who.userId, purchase.id)).toBe(0);
    const after = await systemBalances();
    expect(after.fees! - before.fees!).toBe(costs.fee);
    expect(after.tax! - before.tax!).toBe(costs.tax);
    expect((after.operationCosts ?? 0) - (before.operationCosts ?? 0)).toBe(0);

    const [j, c] = await money.transactions(who);
    expect(j).toMatchObject({
      type: 'transaction_J',
      refundedAmount: expected,
      fee: costs.fee,
      tax: costs.tax,
      walletAccountEffect: expected,
      reservedAccountEffect: -purchase.expectedPrice,
      stateIdentifier: 'purchaseFailed',
      purchaseId: purchase.id,
    });
    expect(j!.traceCode).toBe(c!.traceCode);

    const detail = await money.purchaseOf(who, purchase.id);
    expect(detail.history.at(-1)).toMatchObject({ state: 'purchaseFailed', cause: 'refundedUserError', reason });
    expect(await taskOf(purchase.id)).toMatchObject({
      state: 'rejected',
      decidedBy: staff.userId,
      decisionReason: reason,
    });
    const logged = await db
      .selectFrom('auditLog')
      .select(['actorUserId', 'after'])
      .where('action', '=', 'uafCprRefundUserError')
      .where('entityId', '=', String(purchase.id))
      .execute();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ actorUserId: staff.userId });
  });

  it('a second decision is 409, in any order, and in parallel only one wins', async () => {
    const who = await money.customer();
    const first = await money.paidRequest(who, 10);
    expect((await refund({ purchase: first.id, reason: 'خطای کاربر' })).status).toBe(200);
    const again = await refund({ purchase: first.id, reason: 'خطای کاربر' });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('درباره این درخواست پیش‌تر تصمیم‌گیری شده است.');
    expect(
      (await post(server, '/api/sys/uafCprFailed', { purchase: first.id, reason: 'دوباره' }, bearer(staff.token)))
        .status,
    ).toBe(409);

    const second = await money.paidRequest(who, 10);
    expect(
      (await post(server, '/api/sys/uafCprFailed', { purchase: second.id, reason: 'ممکن نشد' }, bearer(staff.token)))
        .status,
    ).toBe(200);
    expect((await refund({ purchase: second.id, reason: 'خطای کاربر' })).status).toBe(409);

    const third = await money.paidRequest(who, 10);
    const racing = await Promise.all([
      refund({ purchase: third.id, reason: 'همزمان یک' }),
      post(
        server,
        '/api/sys/uafCprDone',
        { purchase: third.id, realPrice: third.expectedPrice, currencyPaymentReference: 'R' },
        bearer(staff.token),
      ),
      refund({ purchase: third.id, reason: 'همزمان دو' }),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect((await money.balanceOf(who)).reserved).toBe(0);

    const waiting = await money.request(who, 10);
    const unpaid = await refund({ purchase: waiting.id, reason: 'پرداخت نشده' });
    expect(unpaid.status).toBe(409);
    expect((await refund({ purchase: 999_999, reason: 'وجود ندارد' })).status).toBe(404);
  });

  it('needs a reason; refuses customers and staff without the action', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who, 10);
    const blank = await refund({ purchase: purchase.id, reason: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body.msg).toMatch(/دلیل/);
    const viewer = await money.staffWithActions(['viewTasks']);
    for (const token of [who.token, viewer.token]) {
      expect((await refund({ purchase: purchase.id, reason: 'دسترسی ندارم' }, token)).status).toBe(403);
    }
    expect(
      (await post(server, '/api/sys/uafCprRefundUserError', { purchase: purchase.id, reason: 'مهمان' })).status,
    ).toBe(401);
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: purchase.expectedPrice });
  });
});
