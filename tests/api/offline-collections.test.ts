/**
 * Manual (offline) collections and the staff money pages on a real server and database (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL): payOffline settles an online payment the customer abandoned at the bank as the gateway
 * would (the request paid), credits a wallet by a plain deposit, uses a tracking code once in any spelling (case, digits, spaces, dashes), refuses a settled
 * payment and another amount; the collections list, customers with balances, one customer's wallet for staff and
 * for that customer only, and the staff home's waiting work. The ledger invariants are checked after every test.
 */
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { connectEcho, nextEvent, subscription, waitConnected } from '../support/echo';
import { type Customer, type MoneyHelpers, withMoneyServer, type Purchase } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let cashier: { token: string; userId: number };
let bankAccount: number;

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  cashier = await money.staffWithActions(['manageCollections', 'viewCustomers', 'viewTasks']);
  const accounts = await post(server, '/api/sys/searchInternalBankAccounts', {}, bearer(cashier.token));
  expect(accounts.status, accounts.body.msg).toBe(200);
  bankAccount = (accounts.body.data as { items: Array<{ id: number; isActive: boolean }> }).items.find(
    (a) => a.isActive,
  )!.id;
});

let codes = 0;
/** A code no earlier test used in any spelling (the letter keeps pid and counter apart once dashes are gone). */
const trackingCode = () => `TRK-${process.pid}-N${codes++}`;

interface OpenPayment {
  onlineProformaId: number;
  token: string;
  amount: number;
  state: string;
  purchaseId: number | null;
}

async function wallet(token: string, userId: number) {
  return post(server, '/api/sys/fetchCustomerWallet', { userId, perPage: 500 }, bearer(token));
}

/** A request whose online payment was made at the bank and never confirmed; its token as staff see it. */
async function abandonedPayment(): Promise<{ who: Customer; purchase: Purchase; open: OpenPayment; back: string }> {
  const who = await money.customer();
  const purchase = await money.request(who);
  const paying = await money.payOk(who, purchase.id);
  const back = await money.payAtSandboxBankOnly(who, paying.gatewayUrl!);
  const seen = await wallet(cashier.token, who.userId);
  expect(seen.status, seen.body.msg).toBe(200);
  const open = (seen.body.data as { openPayments: OpenPayment[] }).openPayments;
  expect(open).toHaveLength(1);
  expect(open[0]).toMatchObject({ state: 'pending', amount: purchase.expectedPrice, purchaseId: purchase.id });
  return { who, purchase, open: open[0]!, back };
}

function payOffline(token: string, fields: Record<string, unknown>) {
  return post(
    server,
    '/api/sys/payOffline',
    {
      formIsValid: true,
      collectionSourceAccountNo: '6037-9912-3456-7890',
      collectionDestinationAccount: bankAccount,
      collectionTrackingCode: trackingCode(),
      ...fields,
    },
    bearer(token),
  );
}

async function mobileOf(who: Customer): Promise<string> {
  const me = await post(server, '/api/me/fetchUserData', undefined, bearer(who.token));
  return (me.body.data as { mobileNo: string }).mobileNo;
}

describe('payOffline', () => {
  it('settles an abandoned online payment as the gateway would: collection, transaction_B, the request paid', async () => {
    const { who, purchase, open, back } = await abandonedPayment();
    const code = trackingCode();
    const res = await payOffline(cashier.token, {
      onlineProformaToken: open.token,
      collectionAmount: purchase.expectedPrice,
      collectionTrackingCode: code,
    });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.msg).toBe('دریافت با موفقیت ثبت شد.');
    expect(res.body.data).toMatchObject({ purchaseId: purchase.id, outcome: 'success' });

    const detail = await money.purchaseOf(who, purchase.id);
    expect(detail.purchase.state).toBe('paid');
    expect(detail.history.map((h) => [h.state, h.cause])).toEqual([
      ['waitingForPayment', 'submitted'],
      ['paid', 'paidOffline'],
    ]);
    expect(detail.payments[0]).toMatchObject({ state: 'settled' });
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: purchase.expectedPrice });
    const moves = await money.transactions(who);
    expect(moves.map((t) => t.type)).toEqual(['transaction_C', 'transaction_B']);
    expect(moves[1]).toMatchObject({
      collectionAmount: purchase.expectedPrice,
      walletAccountEffect: purchase.expectedPrice,
      purchaseId: purchase.id,
      customerAccountNo: '6037-9912-3456-7890',
    });
    expect(moves[0]!.traceCode).toBe(moves[1]!.traceCode);

    // The staff task opened as for an online payment, the action is audit-logged.
    const task = await db.selectFrom('tasks').select('type').where('purchaseId', '=', purchase.id).executeTakeFirst();
    expect(task?.type).toBe('uafCprCpTask');
    const logged = await db
      .selectFrom('auditLog')
      .select(['actorUserId', 'entityId'])
      .where('action', '=', 'payOffline')
      .where('entityId', '=', String(moves[1]!.collectionId))
      .executeTakeFirst();
    expect(logged?.actorUserId).toBe(cashier.userId);

    // The bank's late callback finds it settled and moves nothing again.
    const late = await fetch(back, { redirect: 'manual' });
    expect(late.status).toBe(303);
    expect(new URL(late.headers.get('location')!, server.url).searchParams.get('payment')).toBe('success');
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: purchase.expectedPrice });

    // The collections page lists it, found by the tracking code and by source.
    const found = await post(server, '/api/sys/searchCollections', { search: code }, bearer(cashier.token));
    expect(found.status, found.body.msg).toBe(200);
    expect((found.body.data as { items: unknown[] }).items).toEqual([
      expect.objectContaining({
        source: 'offline',
        trackingCode: code,
        amount: purchase.expectedPrice,
        purchaseId: purchase.id,
        userId: who.userId,
        recordedByName: expect.any(String),
      }),
    ]);
    const online = await post(
      server,
      '/api/sys/searchCollections',
      { source: 'online', search: code },
      bearer(cashier.token),
    );
    expect((online.body.data as { total: number }).total).toBe(0);
  });

  it('an empty token is a deposit to the wallet of the customer named by mobile number; a tracking code is used once', async () => {
    const who = await money.customer();
    const code = trackingCode();
    const first = await payOffline(cashier.token, {
      onlineProformaToken: '',
      customerMobileNo: await mobileOf(who),
      collectionAmount: 2_500_000,
      collectionTrackingCode: code,
    });
    expect(first.status, first.body.msg).toBe(200);
    expect(first.body.data).toMatchObject({ purchaseId: null, outcome: 'walletCredited' });
    expect(await money.balanceOf(who)).toEqual({ balance: 2_500_000, reserved: 0 });

    // Persian digits and spaces around the same code are the same code.
    const again = await payOffline(cashier.token, {
      onlineProformaToken: '',
      customerMobileNo: await mobileOf(who),
      collectionAmount: 2_500_000,
      collectionTrackingCode: ` ${code.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!)} `,
    });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('این کد پیگیری پیش‌تر ثبت شده است؛ هر واریز یک بار ثبت می‌شود.');
    expect(await money.balanceOf(who)).toEqual({ balance: 2_500_000, reserved: 0 });

    // Nor is it another code in another letter case, without its dashes, with spaces inside, in Arabic-Indic digits.
    const spellings = [
      code.toLowerCase(),
      code.replaceAll('-', ''),
      code.replaceAll('-', ' - '),
      code
        .toLowerCase()
        .replaceAll('-', '–')
        .replace(/\d/g, (d) => '٠١٢٣٤٥٦٧٨٩'[Number(d)]!),
    ];
    for (const spelling of spellings) {
      const reused = await payOffline(cashier.token, {
        onlineProformaToken: '',
        customerMobileNo: await mobileOf(who),
        collectionAmount: 2_500_000,
        collectionTrackingCode: spelling,
      });
      expect(reused.status, spelling).toBe(409);
      expect(reused.body.msg).toBe('این کد پیگیری پیش‌تر ثبت شده است؛ هر واریز یک بار ثبت می‌شود.');
    }
    expect(await money.balanceOf(who)).toEqual({ balance: 2_500_000, reserved: 0 });

    // Two staff recording one new deposit at once, each spelling it their way: it is credited once.
    const next = trackingCode();
    const both = await Promise.all(
      [next.toUpperCase(), next.toLowerCase().replaceAll('-', '')].map(async (spelling) =>
        payOffline(cashier.token, {
          onlineProformaToken: '',
          customerMobileNo: await mobileOf(who),
          collectionAmount: 1_000_000,
          collectionTrackingCode: spelling,
        }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await money.balanceOf(who)).toEqual({ balance: 3_500_000, reserved: 0 });

    const noCustomer = await payOffline(cashier.token, { onlineProformaToken: '', collectionAmount: 1_000 });
    expect(noCustomer.status).toBe(422);
    expect(noCustomer.body.msg).toBe('بدون شناسه پرداخت آنلاین، شماره موبایل مشتری را وارد نمایید.');
  });

  it('refuses a payment already settled, another amount, an unknown token and missing fields, in Persian', async () => {
    const who = await money.customer();
    const purchase = await money.request(who);
    const paying = await money.payOk(who, purchase.id);
    const back = await money.payAtSandboxBankOnly(who, paying.gatewayUrl!);
    const token = new URL(back).pathname.split('/').at(-1)!;
    const settled = await fetch(back, { redirect: 'manual' });
    expect(new URL(settled.headers.get('location')!, server.url).searchParams.get('payment')).toBe('success');

    const twice = await payOffline(cashier.token, {
      onlineProformaToken: token,
      collectionAmount: purchase.expectedPrice,
    });
    expect(twice.status).toBe(409);
    expect(twice.body.msg).toBe('این پرداخت آنلاین پیش‌تر تسویه شده است و دوباره ثبت نمی‌شود.');

    const other = await abandonedPayment();
    const wrong = await payOffline(cashier.token, {
      onlineProformaToken: other.open.token,
      collectionAmount: other.purchase.expectedPrice - 1,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.msg).toMatch(/^مبلغ باید برابر مبلغ پرداخت آنلاین \([۰-۹,]+ ریال\) باشد\.$/);
    expect(await money.balanceOf(other.who)).toEqual({ balance: 0, reserved: 0 });
    expect((await money.purchaseOf(other.who, other.purchase.id)).purchase.state).toBe('waitingForPayment');

    const unknown = await payOffline(cashier.token, { onlineProformaToken: 'no-such-token', collectionAmount: 10 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('پرداخت آنلاینی با این شناسه پیدا نشد.');

    const missing = await post(
      server,
      '/api/sys/payOffline',
      { formIsValid: true, onlineProformaToken: '', collectionDestinationAccount: bankAccount, collectionAmount: 10 },
      bearer(cashier.token),
    );
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toMatch(/شماره حساب یا کارت مبدا را وارد نمایید|کد پیگیری را وارد نمایید/);
    const zero = await payOffline(cashier.token, { onlineProformaToken: '', collectionAmount: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.msg).toBe('مبلغ باید عددی صحیح و بزرگ‌تر از صفر (ریال) باشد.');
  });

  it('is refused to customers and to staff without manageCollections (403)', async () => {
    const { who, purchase, open } = await abandonedPayment();
    const clerk = await money.staffWithActions(['viewTasks']);
    for (const token of [who.token, clerk.token]) {
      const res = await payOffline(token, {
        onlineProformaToken: open.token,
        collectionAmount: purchase.expectedPrice,
      });
      expect(res.status).toBe(403);
      expect((await post(server, '/api/sys/searchCollections', {}, bearer(token))).status).toBe(403);
      expect((await post(server, '/api/sys/searchCustomers', {}, bearer(token))).status).toBe(403);
    }
    expect((await post(server, '/api/sys/fetchWaitingWork', {}, bearer(who.token))).status).toBe(403);
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: 0 });
  });

  it("tells the customer's open pages live: wallet.changed and purchase.changed", async () => {
    const { who, purchase, open } = await abandonedPayment();
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(who.token))).body.data as { uid: string };
    const echo = connectEcho(server.url, who.token);
    try {
      await waitConnected(echo);
      const joined = subscription(echo, `private-user.${me.uid}`);
      const channel = echo.private(`user.${me.uid}`);
      const walletChanged = nextEvent<{ balance: number }>(channel, '.wallet.changed');
      const changed = nextEvent<{ purchaseId: number; state: string }>(channel, '.purchase.changed');
      expect(await joined).toBe('joined');
      const res = await payOffline(cashier.token, {
        onlineProformaToken: open.token,
        collectionAmount: purchase.expectedPrice,
      });
      expect(res.status, res.body.msg).toBe(200);
      expect(await walletChanged).toEqual({ balance: 0 });
      expect(await changed).toEqual({ purchaseId: purchase.id, state: 'paid' });
    } finally {
      echo.disconnect();
    }
  });
});

describe('staff money pages', () => {
  it("a customer's wallet: staff with viewCustomers see anyone's, a customer only their own", async () => {
    const alice = await money.customer();
    const bob = await money.customer();
    await money.deposit(alice, 700_000);

    const own = await wallet(alice.token, alice.userId);
    expect(own.status, own.body.msg).toBe(200);
    expect(own.body.data).toMatchObject({
      customer: { id: alice.userId },
      balance: 700_000,
      reserved: 0,
      openPayments: [],
      transactions: { total: 1 },
    });

    const other = await wallet(bob.token, alice.userId);
    expect(other.status).toBe(404);
    expect(other.body.msg).toBe('موجودی این مشتری پیدا نشد.');
    expect(JSON.stringify(other.body)).not.toContain('700');
    const clerk = await money.staffWithActions(['viewTasks']);
    expect((await wallet(clerk.token, alice.userId)).status).toBe(404);
    expect((await post(server, '/api/sys/fetchCustomerWallet', { userId: alice.userId })).status).toBe(401);

    const staff = await wallet(cashier.token, alice.userId);
    expect(staff.status).toBe(200);
    expect(staff.body.data).toMatchObject({ balance: 700_000, transactions: { total: 1 } });
    // Staff accounts are not customers' wallets.
    expect((await wallet(cashier.token, clerk.userId)).status).toBe(404);

    const customers = await post(
      server,
      '/api/sys/searchCustomers',
      { search: (await mobileOf(alice)).slice(-7) },
      bearer(cashier.token),
    );
    expect(customers.status, customers.body.msg).toBe(200);
    expect((customers.body.data as { items: unknown[] }).items).toEqual([
      expect.objectContaining({ id: alice.userId, balance: 700_000, reserved: 0 }),
    ]);
  });

  it('the staff home lists open tasks by type with colours and the paid requests waiting, oldest first', async () => {
    const who = await money.customer();
    const paid = await money.paidRequest(who);
    const admin = await loginAdmin(server);
    const res = await post(server, '/api/sys/fetchWaitingWork', {}, bearer(admin));
    expect(res.status, res.body.msg).toBe(200);
    const work = res.body.data as {
      taskTypes: Array<{ identifier: string; color: string; openCount: number }>;
      paidRequests: { total: number; items: Array<{ id: number; waitingSeconds: number; customerName: string }> };
    };
    const fulfil = work.taskTypes.find((t) => t.identifier === 'uafCprCpTask');
    expect(fulfil?.openCount).toBeGreaterThanOrEqual(1);
    expect(fulfil?.color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(work.paidRequests.total).toBeGreaterThanOrEqual(1);
    const row = work.paidRequests.items.find((p) => p.id === paid.id);
    expect(row).toMatchObject({ customerName: 'سارا کریمی' });
    expect(row!.waitingSeconds).toBeGreaterThanOrEqual(0);

    // A member who only views tasks sees only the task types their actions open, and no customer's request.
    const clerk = await money.staffWithActions(['viewTasks']);
    const limited = await post(server, '/api/sys/fetchWaitingWork', {}, bearer(clerk.token));
    expect(limited.status).toBe(200);
    expect(limited.body.data).toEqual({ taskTypes: [], queues: [], paidRequests: { total: 0, items: [] } });
    // Who carries requests out sees their task type and the paid requests waiting.
    const fulfiller = await money.staffWithActions(['viewTasks', 'manageCurrencyPayments']);
    const own = (await post(server, '/api/sys/fetchWaitingWork', {}, bearer(fulfiller.token))).body.data as typeof work;
    expect(own.taskTypes.map((t) => t.identifier)).toEqual(
      expect.arrayContaining(['uafCprCpTask', 'completeCurrencyPaymentTask']),
    );
    expect(own.paidRequests.items.map((p) => p.id)).toContain(paid.id);
  });
});
