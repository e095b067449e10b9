/**
 * Google Ads accounts on a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL): a customer asks
 * for an account (e-mail lists and terms checked, Persian refusals); staff keep manager panels and make the account
 * under one from the makeGoogleAdsAccountTask (or reject it with a reason the customer sees); the customer charges
 * only their own active account (another customer's is 403, a suspended one cannot be charged) and pays; staff
 * complete the charge with its reference (the reservation spent to zero, fee and tax recognised) or fail it; staff
 * operations are refused without their action. Ledger invariants after every test.
 */
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { purchaseReservation } from '../../src/server/modules/ledger/service';
import { type Customer, type MoneyHelpers, withMoneyServer, type Purchase } from '../support/money';
import { bearer, loginAdmin, loginByCode, post, type RunningServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let adsStaff: { token: string; userId: number };
let mccStaff: { token: string; userId: number };
let currencyStaff: { token: string; userId: number };
let mccId: number;

const EMAIL_LIST_INVALID = 'ایمیل‌ها باید با کاما جدا شده و معتبر باشند.';

withMoneyServer(
  { web: false },
  async (t) => {
    ({ server, db, money } = t);
    adsStaff = await money.staffWithActions(['manageGoogleAds', 'viewTasks']);
    mccStaff = await money.staffWithActions(['manageGoogleMccAccounts']);
    currencyStaff = await money.staffWithActions(['manageCurrencyPayments', 'viewTasks']);
    const mcc = await post(
      server,
      '/api/sys/saveGoogleMccAccount',
      { title: 'پنل اصلی', googleCustomerId: '۱۲۳۴۵۶۷۸۹۰', currency: money.usd.id, notes: 'حساب شرکت' },
      bearer(mccStaff.token),
    );
    expect(mcc.status, mcc.body.msg).toBe(200);
    mccId = (mcc.body.data as { id: number }).id;
  },
  180_000,
);

interface AccountRequest {
  id: number;
  state: string;
  decisionReason: string | null;
  googleAdsAccountId: number | null;
  requestedCustomerStandardUsers: string;
}
interface Account {
  id: number;
  googleCustomerId: string;
  status: string;
  chargedAmount: number;
  chargeCount: number;
  charges: Array<{ purchaseId: number; amount: number; chargeReference: string }>;
}

/** A verified customer who also accepted the Google Ads terms. */
/** A call by the staff member who works the Google Ads tasks. */
const asAdsStaff = (path: string, body: Record<string, unknown>) => post(server, path, body, bearer(adsStaff.token));

async function adsCustomer(): Promise<Customer> {
  const who = await money.customer();
  const approved = await post(server, '/api/me/approveGoogleAdsPolicy', undefined, bearer(who.token));
  expect(approved.status, approved.body.msg).toBe(200);
  return who;
}

const validRequest = () => ({
  accountCurrency: money.usd.id,
  customerWebsite: 'https://shop.example.ir',
  customerBusinessTitle: 'فروشگاه کتاب',
  requestedCustomerStandardUsers: 'owner@shop.example.ir, ads@shop.example.ir',
});

const askForAccount = (who: Customer, body: Record<string, unknown> = validRequest()) =>
  post(server, '/api/me/createGoogleAdsAccount', body, bearer(who.token));

async function makeTaskOf(requestId: number) {
  return db
    .selectFrom('tasks')
    .select(['id', 'state', 'type'])
    .where('googleAdsAccountRequestId', '=', requestId)
    .executeTakeFirstOrThrow();
}

let customerIds = 0;
/** Google's customer ids, distinct per account. */
const nextCustomerId = () => `987-654-${String(1000 + customerIds++).padStart(4, '0')}`;

/** A customer's request made into an account by staff: returns the account. */
async function accountFor(who: Customer): Promise<Account> {
  const asked = await askForAccount(who);
  expect(asked.status, asked.body.msg).toBe(200);
  const task = await makeTaskOf((asked.body.data as AccountRequest).id);
  const opened = await asAdsStaff('/api/sys/fetchMakeGoogleAdsAccountTaskData', { taskId: task.id });
  expect(opened.status, opened.body.msg).toBe(200);
  const made = await asAdsStaff('/api/sys/makeGoogleAdsAccount', {
    taskId: task.id,
    googleMccAccount: mccId,
    googleCustomerId: nextCustomerId(),
  });
  expect(made.status, made.body.msg).toBe(200);
  const mine = await myAccounts(who);
  return mine.find((a) => a.id === (made.body.data as { id: number }).id)!;
}

async function myAccounts(who: Customer): Promise<Account[]> {
  const res = await post(server, '/api/me/searchGoogleAdsAccounts', {}, bearer(who.token));
  expect(res.status, res.body.msg).toBe(200);
  return (res.body.data as { items: Account[] }).items;
}

const quote = (who: Customer, googleAdsAccount: number, chargeAmount = 50) =>
  post(server, '/api/me/desks/googleAdsAccountCr/priceInquiry', { googleAdsAccount, chargeAmount }, bearer(who.token));

/** A recharge of `account` submitted and paid from a deposit of exactly its price: it waits for staff. */
async function paidRecharge(who: Customer, account: number, chargeAmount = 50): Promise<Purchase> {
  const priced = await quote(who, account, chargeAmount);
  expect(priced.status, priced.body.msg).toBe(200);
  const submitted = await post(
    server,
    '/api/me/desks/googleAdsAccountCr/requests',
    {
      googleAdsAccount: account,
      currency: money.usd.id,
      chargeAmount,
      customerDescription: 'شارژ ماهانه',
      quoteId: (priced.body.data as { quoteId: string }).quoteId,
    },
    { ...bearer(who.token), 'idempotency-key': money.newKey() },
  );
  expect(submitted.status, submitted.body.msg).toBe(200);
  const purchase = submitted.body.data as Purchase;
  await money.deposit(who, purchase.expectedPrice);
  const paid = await money.payOk(who, purchase.id);
  expect(paid.purchase.state).toBe('paid');
  return paid.purchase;
}

const chargeTaskOf = (purchaseId: number) =>
  db
    .selectFrom('tasks')
    .select(['id', 'type', 'state', 'decidedBy'])
    .where('purchaseId', '=', purchaseId)
    .executeTakeFirstOrThrow();

const systemBalances = async () => {
  const rows = await db.selectFrom('ledgerAccounts').select(['kind', 'balance']).where('userId', 'is', null).execute();
  return Object.fromEntries(rows.map((r) => [r.kind, r.balance])) as Record<string, number>;
};

describe('asking for an account', () => {
  it('refuses invalid e-mail lists, a missing full-access list and a currency not for Google Ads, in Persian', async () => {
    const who = await adsCustomer();
    const bad = [
      { requestedCustomerStandardUsers: 'owner@shop.example.ir, not-an-email' },
      { requestedCustomerStandardUsers: 'owner@shop.example.ir,,ads@shop.example.ir' },
      { requestedCustomerStandardUsers: 'owner@shop' },
      { requestedCustomerReadonlyUsers: 'viewer@shop.example.ir; other@shop.example.ir' },
      { requestedCustomerReadonlyUsers: '' },
    ];
    for (const change of bad) {
      const res = await askForAccount(who, { ...validRequest(), ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.msg).toBe(EMAIL_LIST_INVALID);
    }
    const { requestedCustomerStandardUsers: _, ...withoutStandard } = validRequest();
    const missing = await askForAccount(who, withoutStandard);
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('ایمیل‌های دسترسی کامل را وارد نمایید.');
    const noSite = await askForAccount(who, { ...validRequest(), customerWebsite: '  ' });
    expect(noSite.body.msg).toBe('آدرس وب‌سایت را وارد نمایید.');

    const currencies = await db.selectFrom('currencies').select(['id', 'useForGoogleAdsAccountCr']).execute();
    const notForAds = currencies.find((c) => !c.useForGoogleAdsAccountCr);
    if (notForAds) {
      const res = await askForAccount(who, { ...validRequest(), accountCurrency: notForAds.id });
      expect(res.status).toBe(422);
      expect(res.body.msg).toBe('ساخت حساب گوگل ادز با این ارز ممکن نیست.');
    }
    expect(
      await db.selectFrom('googleAdsAccountRequests').select('id').where('userId', '=', who.userId).execute(),
    ).toEqual([]);
  });

  it('requires the googleAds terms approved', async () => {
    const token = await loginByCode(server, '09137777001');
    const res = await post(server, '/api/me/createGoogleAdsAccount', validRequest(), bearer(token));
    expect(res.status).toBe(422);
    expect(res.body.msg).toBe('برای ساخت حساب گوگل ادز ابتدا قوانین و مقررات گوگل ادز را بپذیرید.');
    const approved = await post(server, '/api/me/approveGoogleAdsPolicy', undefined, bearer(token));
    expect(approved.status).toBe(200);
    const again = await post(server, '/api/me/createGoogleAdsAccount', validRequest(), bearer(token));
    expect(again.status, again.body.msg).toBe(200);
  });

  it('opens one makeGoogleAdsAccountTask; one request waits at a time; optional read-only e-mails are kept', async () => {
    const who = await adsCustomer();
    const res = await askForAccount(who, {
      ...validRequest(),
      requestedCustomerStandardUsers: ' owner@shop.example.ir ،ads@shop.example.ir ',
      requestedCustomerReadonlyUsers: 'viewer@shop.example.ir',
    });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.msg).toBe('درخواست ساخت حساب گوگل ادز ثبت شد و پس از بررسی کارشناسان ساخته می‌شود.');
    const request = res.body.data as AccountRequest & { requestedCustomerReadonlyUsers: string };
    expect(request).toMatchObject({
      state: 'requested',
      googleAdsAccountId: null,
      requestedCustomerStandardUsers: 'owner@shop.example.ir, ads@shop.example.ir',
      requestedCustomerReadonlyUsers: 'viewer@shop.example.ir',
    });
    const task = await makeTaskOf(request.id);
    expect(task).toMatchObject({ type: 'makeGoogleAdsAccountTask', state: 'open' });
    const queue = await asAdsStaff('/api/me/searchTasks', { type: 'makeGoogleAdsAccountTask' });
    expect((queue.body.data as { items: Array<{ id: number }> }).items.map((t) => t.id)).toContain(task.id);

    const twice = await askForAccount(who);
    expect(twice.status).toBe(409);
    const mine = await post(server, '/api/me/searchGoogleAdsAccountRequests', {}, bearer(who.token));
    expect((mine.body.data as { items: AccountRequest[] }).items.map((r) => r.id)).toEqual([request.id]);
  });
});

describe('manager panels', () => {
  it('checks Google customer ids, refuses one in use, edits and searches', async () => {
    const save = (body: Record<string, unknown>) =>
      post(server, '/api/sys/saveGoogleMccAccount', body, bearer(mccStaff.token));
    const bad = await save({ title: 'پنل', googleCustomerId: '12345', currency: money.usd.id });
    expect(bad.status).toBe(422);
    expect(bad.body.msg).toBe('شناسه مشتری گوگل باید ۱۰ رقم باشد (مانند ۱۲۳-۴۵۶-۷۸۹۰).');
    const taken = await save({ title: 'پنل دوم', googleCustomerId: '123 456 7890', currency: money.usd.id });
    expect(taken.status).toBe(409);
    const second = await save({ title: 'پنل دوم', googleCustomerId: '111-222-3333', currency: money.usd.id });
    expect(second.status, second.body.msg).toBe(200);
    const id = (second.body.data as { id: number }).id;
    const edited = await save({
      id,
      title: 'پنل ذخیره',
      googleCustomerId: '1112223333',
      currency: money.usd.id,
      status: 'inactive',
    });
    expect(edited.body.data).toMatchObject({
      id,
      title: 'پنل ذخیره',
      googleCustomerId: '111-222-3333',
      status: 'inactive',
    });

    const found = await post(server, '/api/sys/searchGoogleMccAccounts', { search: 'ذخیره' }, bearer(mccStaff.token));
    expect((found.body.data as { items: Array<{ id: number }> }).items.map((m) => m.id)).toEqual([id]);
    const active = await post(server, '/api/sys/searchGoogleMccAccounts', { status: 'active' }, bearer(mccStaff.token));
    expect((active.body.data as { items: Array<{ id: number }> }).items.map((m) => m.id)).toEqual([mccId]);

    // An inactive panel takes no new account.
    const who = await adsCustomer();
    const asked = await askForAccount(who);
    const task = await makeTaskOf((asked.body.data as AccountRequest).id);
    await asAdsStaff('/api/sys/fetchMakeGoogleAdsAccountTaskData', { taskId: task.id });
    const refused = await asAdsStaff('/api/sys/makeGoogleAdsAccount', {
      taskId: task.id,
      googleMccAccount: id,
      googleCustomerId: nextCustomerId(),
    });
    expect(refused.status).toBe(422);
    expect(refused.body.msg).toBe('این پنل مدیریت غیرفعال است و حساب تازه‌ای زیر آن ساخته نمی‌شود.');
    expect((await makeTaskOf((asked.body.data as AccountRequest).id)).state).toBe('claimed');
  });
});

describe('making the account', () => {
  it('records the account under the panel, links it to the customer, once; the customer sees it', async () => {
    const who = await adsCustomer();
    const asked = await askForAccount(who);
    const request = asked.body.data as AccountRequest;
    const task = await makeTaskOf(request.id);

    const unclaimed = await asAdsStaff('/api/sys/makeGoogleAdsAccount', {
      taskId: task.id,
      googleMccAccount: mccId,
      googleCustomerId: '555-000-1111',
    });
    expect(unclaimed.status).toBe(409);
    const opened = await asAdsStaff('/api/sys/fetchMakeGoogleAdsAccountTaskData', { taskId: task.id });
    expect(opened.status, opened.body.msg).toBe(200);
    expect(opened.body.data).toMatchObject({
      task: { id: task.id, state: 'claimed', claimedBy: adsStaff.userId },
      request: { id: request.id, customerBusinessTitle: 'فروشگاه کتاب' },
      user: { id: who.userId },
      operations: 'manual',
    });
    expect((opened.body.data as { mccAccounts: Array<{ id: number }> }).mccAccounts.map((m) => m.id)).toContain(mccId);
    expect(await myAccounts(who)).toEqual([]);

    const badId = await asAdsStaff('/api/sys/makeGoogleAdsAccount', {
      taskId: task.id,
      googleMccAccount: mccId,
      googleCustomerId: '555-000',
    });
    expect(badId.status).toBe(422);
    const made = await asAdsStaff('/api/sys/makeGoogleAdsAccount', {
      taskId: task.id,
      googleMccAccount: mccId,
      googleCustomerId: '۵۵۵۰۰۰۱۱۱۱',
    });
    expect(made.status, made.body.msg).toBe(200);
    expect(made.body.msg).toBe('حساب گوگل ادز ثبت و به مشتری متصل شد.');
    expect(made.body.data).toMatchObject({
      googleCustomerId: '555-000-1111',
      googleMccAccountId: mccId,
      userId: who.userId,
      status: 'active',
      ownershipApproved: 0,
      requestId: request.id,
      title: 'فروشگاه کتاب',
    });
    const again = await asAdsStaff('/api/sys/makeGoogleAdsAccount', {
      taskId: task.id,
      googleMccAccount: mccId,
      googleCustomerId: '555-000-2222',
    });
    expect(again.status).toBe(409);
    expect((await makeTaskOf(request.id)).state).toBe('done');

    const mine = await myAccounts(who);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ googleCustomerId: '555-000-1111', status: 'active', chargeCount: 0, charges: [] });
    const requests = await post(server, '/api/me/searchGoogleAdsAccountRequests', {}, bearer(who.token));
    expect((requests.body.data as { items: AccountRequest[] }).items[0]).toMatchObject({
      state: 'created',
      googleAdsAccountId: mine[0]!.id,
    });
    // Another customer sees none of it.
    const other = await adsCustomer();
    expect(await myAccounts(other)).toEqual([]);
    const staffList = await asAdsStaff('/api/sys/searchGoogleAdsAccounts', { search: '555-000' });
    expect((staffList.body.data as { items: Array<{ id: number }> }).items.map((a) => a.id)).toEqual([mine[0]!.id]);
  });

  it('rejecting gives the customer the reason', async () => {
    const who = await adsCustomer();
    const asked = await askForAccount(who);
    const request = asked.body.data as AccountRequest;
    const task = await makeTaskOf(request.id);
    await asAdsStaff('/api/sys/fetchMakeGoogleAdsAccountTaskData', { taskId: task.id });
    const res = await asAdsStaff('/api/sys/rejectGoogleAdsAccountRequest', {
      taskId: task.id,
      reason: 'آدرس وب‌سایت در دسترس نیست.',
    });
    expect(res.status, res.body.msg).toBe(200);
    expect((await makeTaskOf(request.id)).state).toBe('rejected');
    const mine = await post(server, '/api/me/searchGoogleAdsAccountRequests', {}, bearer(who.token));
    expect((mine.body.data as { items: AccountRequest[] }).items[0]).toMatchObject({
      id: request.id,
      state: 'rejected',
      decisionReason: 'آدرس وب‌سایت در دسترس نیست.',
      googleAdsAccountId: null,
    });
    expect(await myAccounts(who)).toEqual([]);
    // A new request may follow.
    expect((await askForAccount(who)).status).toBe(200);
  });
});

describe('recharging', () => {
  it('a customer charges their own account and pays; staff complete it with the reference; the reservation is spent, fee recognised', async () => {
    const who = await adsCustomer();
    const account = await accountFor(who);
    const purchase = await paidRecharge(who, account.id, 50);
    const task = await chargeTaskOf(purchase.id);
    expect(task).toMatchObject({ type: 'googleAdsAccountCrCpTask', state: 'open' });
    // The staff requests page learns which dialog decides it.
    const admin = await loginAdmin(server);
    const staffView = await post(server, '/api/sys/fetchStaffPurchase', { purchase: purchase.id }, bearer(admin));
    expect(staffView.status, staffView.body.msg).toBe(200);
    expect(staffView.body.data).toMatchObject({ openTaskId: task.id, openTaskType: 'googleAdsAccountCrCpTask' });

    // Currency-payment staff neither open nor decide it.
    const foreign = await post(
      server,
      '/api/sys/fetchFulfilmentTaskData',
      { taskId: task.id },
      bearer(currencyStaff.token),
    );
    expect(foreign.status).toBe(404);
    const wrongPath = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: purchase.id, realPrice: purchase.expectedPrice, currencyPaymentReference: 'X1' },
      bearer(currencyStaff.token),
    );
    expect(wrongPath.status).toBe(422);

    const opened = await asAdsStaff('/api/sys/fetchGoogleAdsChargeTaskData', { taskId: task.id });
    expect(opened.status, opened.body.msg).toBe(200);
    const data = opened.body.data as {
      request: {
        reserved: number;
        costs: { fee: number; tax: number; operationCost: number };
        task: { state: string };
      };
      googleAdsAccount: { id: number; googleCustomerId: string };
    };
    expect(data.request.task.state).toBe('claimed');
    expect(data.request.reserved).toBe(purchase.expectedPrice);
    expect(data.googleAdsAccount).toMatchObject({ id: account.id, googleCustomerId: account.googleCustomerId });

    const noRef = await asAdsStaff('/api/sys/googleAdsAccountCrDone', { purchase: purchase.id, chargeReference: '  ' });
    expect(noRef.status).toBe(400);
    expect(noRef.body.msg).toBe('شماره پیگیری شارژ حساب را وارد نمایید.');

    const before = await systemBalances();
    const done = await asAdsStaff('/api/sys/googleAdsAccountCrDone', {
      purchase: purchase.id,
      chargeReference: ' GADS-4411 ',
    });
    expect(done.status, done.body.msg).toBe(200);
    expect(done.body.msg).toBe('شارژ حساب گوگل ادز ثبت شد.');
    expect(done.body.data).toMatchObject({ id: purchase.id, state: 'purchaseSucceeded' });
    const twice = await asAdsStaff('/api/sys/googleAdsAccountCrDone', {
      purchase: purchase.id,
      chargeReference: 'GADS-4411',
    });
    expect(twice.status).toBe(409);

    const costs = data.request.costs;
    const totalCosts = costs.fee + costs.tax + costs.operationCost;
    expect(costs.fee).toBeGreaterThan(0);
    expect(await purchaseReservation(db, who.userId, purchase.id)).toBe(0);
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: 0 });
    const after = await systemBalances();
    expect(after.currencyPaymentsOut! - before.currencyPaymentsOut!).toBe(purchase.expectedPrice - totalCosts);
    expect(after.fees! - before.fees!).toBe(costs.fee);
    expect(after.tax! - before.tax!).toBe(costs.tax);
    expect((await chargeTaskOf(purchase.id)).state).toBe('done');

    const moves = await money.transactions(who);
    expect(moves.map((t) => t.type)).toEqual(['transaction_F', 'transaction_D', 'transaction_C', 'transaction_B']);
    expect(moves[1]).toMatchObject({ purchaseId: purchase.id, expendedAmount: purchase.expectedPrice - totalCosts });

    const [charged] = await myAccounts(who);
    expect(charged).toMatchObject({ id: account.id, chargedAmount: 50, chargeCount: 1 });
    expect(charged!.charges).toEqual([
      expect.objectContaining({ purchaseId: purchase.id, amount: 50, chargeReference: 'GADS-4411' }),
    ]);
  });

  it("charging another customer's account is 403, at the quote and at submission", async () => {
    const owner = await adsCustomer();
    const account = await accountFor(owner);
    const stranger = await adsCustomer();
    const priced = await quote(stranger, account.id);
    expect(priced.status).toBe(403);
    expect(priced.body.msg).toBe('این حساب گوگل ادز متعلق به شما نیست.');
    // Even with a quote of their own account in hand, the form naming the stranger's account is refused.
    const own = await accountFor(stranger);
    const ownQuote = await quote(stranger, own.id);
    const submitted = await post(
      server,
      '/api/me/desks/googleAdsAccountCr/requests',
      {
        googleAdsAccount: account.id,
        currency: money.usd.id,
        chargeAmount: 50,
        quoteId: (ownQuote.body.data as { quoteId: string }).quoteId,
      },
      { ...bearer(stranger.token), 'idempotency-key': money.newKey() },
    );
    expect(submitted.status).toBe(403);
    expect(await db.selectFrom('purchases').select('id').where('userId', '=', stranger.userId).execute()).toEqual([]);
    const missing = await quote(stranger, 2_000_000_000);
    expect(missing.status).toBe(404);
  });

  it('a suspended account cannot be charged; a paid charge of an account suspended since is failed back to the wallet', async () => {
    const who = await adsCustomer();
    const account = await accountFor(who);
    const purchase = await paidRecharge(who, account.id, 20);
    const suspend = await asAdsStaff('/api/sys/saveGoogleAdsAccount', { id: account.id, status: 'suspended' });
    expect(suspend.status, suspend.body.msg).toBe(200);
    expect((await myAccounts(who))[0]!.status).toBe('suspended');

    const priced = await quote(who, account.id);
    expect(priced.status).toBe(422);
    expect(priced.body.msg).toBe('این حساب گوگل ادز معلق است و شارژ آن ممکن نیست.');

    const task = await chargeTaskOf(purchase.id);
    await asAdsStaff('/api/sys/fetchGoogleAdsChargeTaskData', { taskId: task.id });
    const done = await asAdsStaff('/api/sys/googleAdsAccountCrDone', {
      purchase: purchase.id,
      chargeReference: 'GADS-1',
    });
    expect(done.status).toBe(422);
    expect(done.body.msg).toBe('این حساب گوگل ادز معلق است و شارژ آن ممکن نیست.');
    const failed = await asAdsStaff('/api/sys/googleAdsAccountCrFailed', {
      purchase: purchase.id,
      reason: 'حساب معلق شده است.',
    });
    expect(failed.status, failed.body.msg).toBe(200);
    expect(failed.body.data).toMatchObject({ state: 'purchaseFailed' });
    expect(await money.balanceOf(who)).toEqual({ balance: purchase.expectedPrice, reserved: 0 });
    const detail = await money.purchaseOf(who, purchase.id);
    expect(detail.history.at(-1)).toMatchObject({ state: 'purchaseFailed', reason: 'حساب معلق شده است.' });
    expect((await myAccounts(who))[0]!.chargeCount).toBe(0);

    // Active again, it can be charged.
    await asAdsStaff('/api/sys/saveGoogleAdsAccount', { id: account.id, status: 'active' });
    expect((await quote(who, account.id)).status).toBe(200);
  });

  it('a quote taken while the account was active does not let a suspended account be charged', async () => {
    const who = await adsCustomer();
    const account = await accountFor(who);
    const priced = await quote(who, account.id, 40);
    expect(priced.status, priced.body.msg).toBe(200);
    const suspend = await asAdsStaff('/api/sys/saveGoogleAdsAccount', { id: account.id, status: 'suspended' });
    expect(suspend.status, suspend.body.msg).toBe(200);
    const submitted = await post(
      server,
      '/api/me/desks/googleAdsAccountCr/requests',
      {
        googleAdsAccount: account.id,
        currency: money.usd.id,
        chargeAmount: 40,
        quoteId: (priced.body.data as { quoteId: string }).quoteId,
      },
      { ...bearer(who.token), 'idempotency-key': money.newKey() },
    );
    expect(submitted.status).toBe(422);
    expect(submitted.body.msg).toBe('این حساب گوگل ادز معلق است و شارژ آن ممکن نیست.');
    expect(await db.selectFrom('purchases').select('id').where('userId', '=', who.userId).execute()).toEqual([]);
  });

  it('refuses a base currency other than the account’s', async () => {
    const who = await adsCustomer();
    const account = await accountFor(who);
    const priced = await quote(who, account.id);
    const other = await db.selectFrom('currencies').select('id').where('id', '!=', money.usd.id).executeTakeFirst();
    if (!other) return;
    const submitted = await post(
      server,
      '/api/me/desks/googleAdsAccountCr/requests',
      {
        googleAdsAccount: account.id,
        currency: other.id,
        chargeAmount: 50,
        quoteId: (priced.body.data as { quoteId: string }).quoteId,
      },
      { ...bearer(who.token), 'idempotency-key': money.newKey() },
    );
    expect(submitted.status).toBe(422);
    expect(submitted.body.msg).toBe('ارز پایه انتخاب‌شده با ارز حساب گوگل ادز یکسان نیست.');
  });
});

describe('access', () => {
  it('refuses staff operations without their action, and customers', async () => {
    const who = await adsCustomer();
    const account = await accountFor(who);
    const asked = await askForAccount(await adsCustomer());
    const task = await makeTaskOf((asked.body.data as AccountRequest).id);
    const adsOps: Array<[string, Record<string, unknown>]> = [
      ['/api/sys/searchGoogleAdsAccounts', {}],
      ['/api/sys/saveGoogleAdsAccount', { id: account.id, status: 'suspended' }],
      ['/api/sys/fetchMakeGoogleAdsAccountTaskData', { taskId: task.id }],
      ['/api/sys/makeGoogleAdsAccount', { taskId: task.id, googleMccAccount: mccId, googleCustomerId: '123-123-1234' }],
      ['/api/sys/rejectGoogleAdsAccountRequest', { taskId: task.id, reason: 'دلیل رد' }],
      ['/api/sys/fetchGoogleAdsChargeTaskData', { taskId: task.id }],
      ['/api/sys/googleAdsAccountCrDone', { purchase: 1, chargeReference: 'X' }],
      ['/api/sys/googleAdsAccountCrFailed', { purchase: 1, reason: 'دلیل رد' }],
    ];
    const mccOps: Array<[string, Record<string, unknown>]> = [
      ['/api/sys/searchGoogleMccAccounts', {}],
      ['/api/sys/saveGoogleMccAccount', { title: 'x', googleCustomerId: '999-999-9999', currency: money.usd.id }],
    ];
    for (const [path, body] of adsOps) {
      for (const token of [who.token, mccStaff.token, currencyStaff.token]) {
        const res = await post(server, path, body, bearer(token));
        expect(res.status, path).toBe(403);
        expect(res.body.result).toBe(false);
      }
      expect((await post(server, path, body)).status, path).toBe(401);
    }
    for (const [path, body] of mccOps) {
      for (const token of [who.token, adsStaff.token, currencyStaff.token]) {
        expect((await post(server, path, body, bearer(token))).status, path).toBe(403);
      }
    }
    // Nothing changed.
    expect((await myAccounts(who))[0]!.status).toBe('active');
    expect((await makeTaskOf((asked.body.data as AccountRequest).id)).state).toBe('open');
    const guest = await post(server, '/api/me/searchGoogleAdsAccounts', {});
    expect(guest.status).toBe(401);
  });
});
