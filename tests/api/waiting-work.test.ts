/**
 * The staff home's waiting work beyond tasks (PGlite, or PostgreSQL with TEST_DATABASE_URL): the withdrawals waiting
 * to be paid and the online payments never confirmed, each counted for those whose action works it; the manual
 * completion list and the customer a deposit goes to; the request list narrowed to several states.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moneyHelpers, testIban } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;
let money: ReturnType<typeof moneyHelpers>;
let admin: string;

beforeAll(async () => {
  server = await startServer({ web: false });
  money = moneyHelpers(server);
  await money.ready();
  admin = await loginAdmin(server);
});
afterAll(async () => server?.stop());

interface Queue {
  identifier: string;
  title: string;
  count: number;
}
const queuesOf = async (token: string) => {
  const res = await post(server, '/api/sys/fetchWaitingWork', {}, bearer(token));
  expect(res.status, res.body.msg).toBe(200);
  return (res.body.data as { queues: Queue[] }).queues;
};
const countOf = (queues: Queue[], identifier: string) => queues.find((q) => q.identifier === identifier)?.count;

describe('waiting work queues', () => {
  it('counts withdrawals waiting to be paid, for manageWithdrawals holders only', async () => {
    const before = countOf(await queuesOf(admin), 'withdrawals') ?? 0;
    await money.withdrawalWaiting(await money.customer(), admin, testIban(7_700_001));

    const queues = await queuesOf(admin);
    expect(countOf(queues, 'withdrawals')).toBe(before + 1);
    expect(queues.find((q) => q.identifier === 'withdrawals')?.title).toMatch(/[\u0600-\u06FF]/);
    // Who only views tasks sees no queue; who pays withdrawals sees theirs and not the payments to complete.
    expect(await queuesOf((await money.staffWithActions(['viewTasks'])).token)).toEqual([]);
    const payer = await queuesOf((await money.staffWithActions(['viewTasks', 'manageWithdrawals'])).token);
    expect(payer.map((q) => q.identifier)).toEqual(['withdrawals']);
  });

  it('lists and counts online payments never confirmed, and drops one once completed by hand', async () => {
    const cashier = await money.staffWithActions(['viewTasks', 'manageCollections']);
    const before = countOf(await queuesOf(cashier.token), 'unconfirmedPayments') ?? 0;
    const who = await money.customer();
    const purchase = await money.request(who);
    const paying = await money.payOk(who, purchase.id);
    await money.payAtSandboxBankOnly(who, paying.gatewayUrl!);
    expect(countOf(await queuesOf(cashier.token), 'unconfirmedPayments')).toBe(before + 1);

    const list = await post(
      server,
      '/api/sys/searchUnconfirmedPayments',
      { search: String(purchase.id) },
      bearer(cashier.token),
    );
    expect(list.status, list.body.msg).toBe(200);
    const rows = (list.body.data as { items: Array<Record<string, unknown>> }).items;
    expect(rows).toEqual([
      expect.objectContaining({ purchaseId: purchase.id, amount: purchase.expectedPrice, customerName: 'سارا کریمی' }),
    ]);

    const accounts = await post(server, '/api/sys/searchInternalBankAccounts', {}, bearer(cashier.token));
    const bank = (accounts.body.data as { items: Array<{ id: number; isActive: boolean }> }).items.find(
      (a) => a.isActive,
    )!;
    const done = await post(
      server,
      '/api/sys/payOffline',
      {
        formIsValid: true,
        onlineProformaToken: String(rows[0]!.token),
        collectionAmount: purchase.expectedPrice,
        collectionTrackingCode: `WAIT-${process.pid}`,
        collectionSourceAccountNo: '6037991234567890',
        collectionDestinationAccount: bank.id,
      },
      bearer(cashier.token),
    );
    expect(done.status, done.body.msg).toBe(200);
    expect(countOf(await queuesOf(cashier.token), 'unconfirmedPayments')).toBe(before);
    const after = await post(
      server,
      '/api/sys/searchUnconfirmedPayments',
      { search: String(purchase.id) },
      bearer(cashier.token),
    );
    expect((after.body.data as { total: number }).total).toBe(0);

    // Staff without manageCollections, and customers, are refused.
    const clerk = await money.staffWithActions(['viewTasks']);
    for (const token of [clerk.token, who.token])
      expect((await post(server, '/api/sys/searchUnconfirmedPayments', {}, bearer(token))).status).toBe(403);
  });

  it('names the customer a deposit goes to with their balance, and says in Persian when nobody has the number', async () => {
    const cashier = await money.staffWithActions(['manageCollections']);
    const who = await money.customer();
    await money.deposit(who, 1_250_000);
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(who.token))).body.data as {
      mobileNo: string;
    };
    // Any usual spelling of the number: Persian digits, spaces.
    const persian = me.mobileNo.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!).replace(/^(.{4})/, '$1 ');
    const found = await post(
      server,
      '/api/sys/findDepositCustomer',
      { customerMobileNo: persian },
      bearer(cashier.token),
    );
    expect(found.status, found.body.msg).toBe(200);
    expect(found.body.data).toEqual({
      userId: who.userId,
      name: 'سارا کریمی',
      mobileNo: me.mobileNo,
      balance: 1_250_000,
    });

    const missing = await post(
      server,
      '/api/sys/findDepositCustomer',
      { customerMobileNo: '09990000000' },
      bearer(cashier.token),
    );
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('مشتری با این شماره موبایل پیدا نشد.');
    const bad = await post(server, '/api/sys/findDepositCustomer', { customerMobileNo: '12' }, bearer(cashier.token));
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/[\u0600-\u06FF]/);
    expect(
      (await post(server, '/api/sys/findDepositCustomer', { customerMobileNo: me.mobileNo }, bearer(who.token))).status,
    ).toBe(403);
  });

  it('narrows the request list to several states at once (the staff home’s paid and not yet fulfilled)', async () => {
    const who = await money.customer();
    const paid = await money.paidRequest(who);
    const waiting = await money.request(who);
    const res = await post(
      server,
      '/api/sys/searchPurchases',
      { state: 'paid,inProgress', perPage: 500 },
      bearer(admin),
    );
    expect(res.status, res.body.msg).toBe(200);
    const items = (res.body.data as { items: Array<{ id: number; state: string }> }).items;
    expect(items.map((p) => p.id)).toContain(paid.id);
    expect(items.map((p) => p.id)).not.toContain(waiting.id);
    expect(new Set(items.map((p) => p.state))).toEqual(
      new Set(items.map((p) => p.state).filter((s) => ['paid', 'inProgress'].includes(s))),
    );
  });
});
