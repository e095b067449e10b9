/**
 * Bank accounts and withdrawals on a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * IBANs refused in Persian, the ownership review through its task, withdrawals only to an approved account and
 * never beyond the wallet (also twenty at once), staff closing a withdrawal once, access, and other customers'
 * rows. The ledger invariants are checked after every test. Calls go through the typed client; the few bodies the
 * contract refuses (an empty IBAN, a fractional amount, an unknown filter) are sent raw with `post`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { IBAN_MESSAGES, ibanMod97 } from '../../src/shared/iban';
import { checkInvariants } from '../../src/server/modules/ledger/invariants';
import { postTransaction, userBalance } from '../../src/server/modules/ledger/service';
import { bearer, loginByCode, post, type RunningServer, startServer, staffWithActions } from '../support/server';
import { type BodyOf, dataOf, refusal, type TypedApi, typedApi } from '../support/typed-api';

let server: RunningServer;
let db: DB;
let reviewer: TypedApi;
let reviewerToken: string;
let cashier: TypedApi;

beforeAll(async () => {
  server = await startServer({ web: false });
  db = server.app.database.db;
  reviewerToken = (await staffWithActions(server, ['approveBankAccountOwnership', 'viewTasks'], '09140000201')).token;
  reviewer = typedApi(server, reviewerToken);
  cashier = typedApi(server, (await staffWithActions(server, ['manageWithdrawals'], '09140000202')).token);
});
afterAll(async () => server?.stop());
afterEach(async () => {
  expect(await checkInvariants(db)).toEqual([]);
});

interface Customer {
  api: TypedApi;
  token: string;
  userId: number;
}
let customers = 0;
async function customer(): Promise<Customer> {
  const token = await loginByCode(server, `0913${String(5_000_000 + customers++)}`);
  const api = typedApi(server, token);
  return { api, token, userId: (await dataOf(api.POST('/api/me/fetchUserData'))).id };
}

/** A valid IBAN of Bank Mellat (012) for account number `n`. */
function iban(n: number): string {
  const account = String(n).padStart(19, '0');
  const check = 98 - ibanMod97(`IR00012${account}`);
  return `IR${String(check).padStart(2, '0')}012${account}`;
}
let ibans = 0;

const saveAccountCall = (who: Customer, body: BodyOf<'saveUserBankAccount'>) =>
  who.api.POST('/api/me/saveUserBankAccount', { body });
const saveAccount = (who: Customer, value = iban(++ibans)) =>
  dataOf(saveAccountCall(who, { iban: value, ownerName: 'سارا کریمی' }));
type Account = Awaited<ReturnType<typeof saveAccount>>;

async function taskOf(account: Account): Promise<number> {
  const row = await db
    .selectFrom('tasks')
    .select('id')
    .where('userBankAccountId', '=', account.id)
    .where('state', 'in', ['open', 'claimed'])
    .executeTakeFirstOrThrow();
  return row.id;
}

const openTask = (taskId: number, api = reviewer) =>
  api.POST('/api/sys/fetchApproveUbaOwnerTaskData', { body: { taskId } });
const approve = (taskId: number, api = reviewer) =>
  api.POST('/api/sys/approveUserBankAccountOwnership', { body: { taskId } });
const reject = (taskId: number, reason: string, api = reviewer) =>
  api.POST('/api/sys/rejectUserBankAccountOwnership', { body: { taskId, reason } });

async function approvedAccount(who: Customer): Promise<Account> {
  const account = await saveAccount(who);
  const taskId = await taskOf(account);
  await dataOf(openTask(taskId));
  return dataOf(approve(taskId));
}

async function deposit(who: Customer, amount: number): Promise<void> {
  await db
    .transaction()
    .execute((trx) =>
      postTransaction(trx, { type: 'transaction_B', userId: who.userId, amounts: { collectionAmount: amount } }),
    );
}

let keys = 0;
const withdraw = (who: Customer, bankAccount: number, amount: number, key = `wd-key-${process.pid}-${keys++}`) =>
  who.api.POST('/api/me/requestWithdrawal', {
    params: { header: { 'Idempotency-Key': key } },
    body: { bankAccount, amount },
  });
const done = (withdrawal: number, reference: string) =>
  cashier.POST('/api/sys/withdrawalDone', { body: { withdrawal, reference } });
const refuse = (withdrawal: number, reason: string) =>
  cashier.POST('/api/sys/withdrawalRefused', { body: { withdrawal, reason } });
const statusOf = async (call: Promise<{ response: Response }>) => (await call).response.status;

describe('bank accounts', () => {
  it('refuses invalid IBANs with a Persian message and accepts spaces and Persian digits', async () => {
    const who = await customer();
    expect(await refusal(saveAccountCall(who, { iban: 'IR870570028180010653892102' }))).toEqual({
      status: 422,
      msg: IBAN_MESSAGES.checksum,
    });
    expect(await refusal(saveAccountCall(who, { iban: 'IR8705700281' }))).toEqual({
      status: 422,
      msg: IBAN_MESSAGES.length,
    });
    const empty = await post(server, '/api/me/saveUserBankAccount', { iban: '' }, bearer(who.token));
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('شماره شبا را وارد کنید.');

    const typed = 'ir۸۷ ۰۵۷۰ ۰۲۸۱ ۸۰۰۱ ۰۶۵۳ ۸۹۲۱ ۰۱';
    const saved = await dataOf(saveAccountCall(who, { iban: typed, ownerName: 'سارا' }));
    expect(saved).toMatchObject({
      iban: 'IR870570028180010653892101',
      bankCode: '057',
      bankName: 'بانک پاسارگاد',
      ownershipApproved: null,
    });
    // Saving it again answers with the same account and opens no second review.
    const again = await dataOf(saveAccountCall(who, { iban: 'IR870570028180010653892101', ownerName: 'سارا' }));
    expect(again.id).toBe(saved.id);
    const tasks = await db.selectFrom('tasks').select('id').where('userBankAccountId', '=', saved.id).execute();
    expect(tasks).toHaveLength(1);
  });

  it('asks for the holder name when the profile has none', async () => {
    const who = await customer();
    const res = await refusal(saveAccountCall(who, { iban: iban(++ibans) }));
    expect(res.status).toBe(422);
    expect(res.msg).toMatch(/نام صاحب حساب/);
  });

  it('staff approve ownership through the task, once; a rejected account saved again is reviewed again', async () => {
    const who = await customer();
    const account = await saveAccount(who);
    const taskId = await taskOf(account);
    // Deciding before opening (claiming) the task is refused.
    expect(await statusOf(approve(taskId))).toBe(409);
    expect(await dataOf(openTask(taskId))).toMatchObject({
      task: { id: taskId, type: 'approveUbaOwnerTask', state: 'claimed' },
      bankAccount: { id: account.id },
    });
    expect(await dataOf(approve(taskId))).toMatchObject({ id: account.id, ownershipApproved: 1 });
    expect(await statusOf(reject(taskId, 'نام صاحب حساب'))).toBe(409);
    const audit = await db
      .selectFrom('auditLog')
      .select('action')
      .where('entity', '=', 'userBankAccount')
      .where('entityId', '=', String(account.id))
      .execute();
    expect(audit.map((a) => a.action)).toContain('approveUserBankAccountOwnership');

    const other = await saveAccount(who);
    const otherTask = await taskOf(other);
    await dataOf(openTask(otherTask));
    expect(await statusOf(reject(otherTask, 'حساب به نام شخص دیگری است'))).toBe(200);
    const mine = await dataOf(who.api.POST('/api/me/searchUserBankAccounts'));
    expect(mine.items.find((a) => a.id === other.id)).toMatchObject({
      ownershipApproved: 0,
      decisionReason: 'حساب به نام شخص دیگری است',
    });
    expect(mine.items.find((a) => a.id === account.id)).toMatchObject({ ownershipApproved: 1 });
    const resaved = await saveAccount(who, other.iban);
    expect(resaved).toMatchObject({ id: other.id, ownershipApproved: null, decisionReason: null });
    expect(await taskOf(resaved)).not.toBe(otherTask);
  });

  it('refuses staff without the action, customers, and tasks of another type', async () => {
    const who = await customer();
    const account = await saveAccount(who);
    const taskId = await taskOf(account);
    for (const api of [who.api, cashier]) {
      expect(await statusOf(openTask(taskId, api))).toBe(403);
      expect(await statusOf(approve(taskId, api))).toBe(403);
      expect(await statusOf(reject(taskId, 'دلیل رد', api))).toBe(403);
    }
    for (const api of [who.api, reviewer]) {
      expect(await statusOf(api.POST('/api/sys/searchWithdrawals', { body: {} }))).toBe(403);
      expect(await statusOf(api.POST('/api/sys/withdrawalDone', { body: { withdrawal: 1, reference: 'R1' } }))).toBe(
        403,
      );
      expect(
        await statusOf(api.POST('/api/sys/withdrawalRefused', { body: { withdrawal: 1, reason: 'دلیل رد' } })),
      ).toBe(403);
    }
    const profileTask = await db
      .insertInto('tasks')
      .values({ type: 'approveProfileAsL1Task', subjectUserId: who.userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await statusOf(openTask(profileTask.id))).toBe(404);
    await db.deleteFrom('tasks').where('id', '=', profileTask.id).execute();
  });
});

describe('bank accounts to approve (staff page)', () => {
  const search = (body: BodyOf<'searchStaffBankAccounts'>, api = reviewer) =>
    dataOf(api.POST('/api/sys/searchUserBankAccounts', { body }));

  it('lists accounts by ownership with the customer and the open review task, searchable and by day', async () => {
    const who = await customer();
    const mobileNo = (await dataOf(who.api.POST('/api/me/fetchUserData'))).mobileNo!;
    const waiting = await saveAccount(who);
    const approved = await approvedAccount(who);
    const rejected = await saveAccount(who);
    const rejectTask = await taskOf(rejected);
    await dataOf(openTask(rejectTask));
    const reason = 'نام صاحب حساب با نام مشتری یکی نیست';
    expect(await statusOf(reject(rejectTask, reason))).toBe(200);

    // Waiting: the oldest first, with the task the decision takes; not yet claimed by anyone.
    const queue = await search({ ownership: 'waiting', search: mobileNo });
    expect(queue.items.map((r) => r.id)).toEqual([waiting.id]);
    expect(queue.items[0]).toMatchObject({
      userId: who.userId,
      ownershipApproved: null,
      mobileNo,
      customerName: mobileNo,
      taskId: await taskOf(waiting),
      taskClaimedByName: null,
      decidedByName: null,
    });
    const all = await search({ ownership: 'waiting', perPage: 500 });
    const created = all.items.map((r) => r.id);
    expect(created).toEqual([...created].sort((a, b) => a - b));

    const done = await search({ ownership: 'approved', search: mobileNo });
    expect(done.items.map((r) => [r.id, r.taskId])).toEqual([[approved.id, null]]);
    expect(done.items[0]!.decidedByName).toBe('09140000201');
    const refused = await search({ ownership: 'rejected', search: mobileNo });
    expect(refused.items).toHaveLength(1);
    expect(refused.items[0]).toMatchObject({ id: rejected.id, decisionReason: reason, taskId: null });
    expect((await search({ search: mobileNo })).total).toBe(3);

    // The IBAN as staff type it: grouped, with Persian digits; the account id; a day range.
    const typed = waiting.iban
      .replace(/(.{4})/g, '$1 ')
      .replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!)
      .trim();
    expect((await search({ search: typed })).items.map((r) => r.id)).toEqual([waiting.id]);
    expect((await search({ search: String(waiting.id) })).items.map((r) => r.id)).toContain(waiting.id);
    const today = new Date().toISOString().slice(0, 10);
    expect((await search({ search: mobileNo, from: today, to: today })).total).toBe(3);
    expect((await search({ search: mobileNo, to: '2020-01-01' })).total).toBe(0);
    expect((await search({ search: '%' })).total).toBe(0);

    // Opening the review claims it: the list says who holds it.
    await dataOf(openTask(await taskOf(waiting)));
    expect((await search({ ownership: 'waiting', search: mobileNo })).items[0]!.taskClaimedByName).toBe('09140000201');
  });

  it('is refused to customers, to staff without approveBankAccountOwnership, and to guests', async () => {
    const who = await customer();
    for (const api of [who.api, cashier]) {
      const res = await refusal(api.POST('/api/sys/searchUserBankAccounts', { body: {} }));
      expect(res.status).toBe(403);
      expect(res.msg).toMatch(/[\u0600-\u06FF]/);
    }
    expect(await statusOf(typedApi(server).POST('/api/sys/searchUserBankAccounts', { body: {} }))).toBe(401);
    const unknownFilter = { ownership: 'maybe' };
    expect((await post(server, '/api/sys/searchUserBankAccounts', unknownFilter, bearer(reviewerToken))).status).toBe(
      400,
    );
  });
});

describe('withdrawals', () => {
  it('go only to an approved account of the customer, within the wallet, in integer rial', async () => {
    const who = await customer();
    await deposit(who, 1_000_000);
    const pending = await saveAccount(who);
    expect(await refusal(withdraw(who, pending.id, 100_000))).toEqual({
      status: 422,
      msg: 'برداشت فقط به حسابی ممکن است که مالکیت آن تایید شده باشد.',
    });
    const account = await approvedAccount(who);
    expect(await refusal(withdraw(who, account.id, 1_000_001))).toEqual({
      status: 422,
      msg: 'مبلغ برداشت از موجودی کیف پول شما بیشتر است.',
    });
    for (const amount of [0, -5, 1.5]) {
      const bad = await refusal(withdraw(who, account.id, amount));
      expect(bad, String(amount)).toEqual({
        status: 400,
        msg: 'مبلغ برداشت باید عددی صحیح و بیشتر از صفر به ریال باشد.',
      });
    }
    const noKey = await post(
      server,
      '/api/me/requestWithdrawal',
      { bankAccount: account.id, amount: 10 },
      bearer(who.token),
    );
    expect(noKey.status).toBe(400);

    const key = `wd-once-${process.pid}`;
    const ok = await dataOf(withdraw(who, account.id, 400_000, key));
    expect(ok).toMatchObject({
      bankAccount: account.id,
      amount: 400_000,
      state: 'requested',
      bankName: 'بانک ملت',
    });
    // A replay answers with the same withdrawal and moves nothing more; the key for another amount is refused.
    const replay = await dataOf(withdraw(who, account.id, 400_000, key));
    expect(replay.id).toBe(ok.id);
    expect(await statusOf(withdraw(who, account.id, 300_000, key))).toBe(422);
    expect(await userBalance(db, who.userId)).toEqual({ balance: 600_000, reserved: 0 });

    const mine = await dataOf(who.api.POST('/api/me/searchWithdrawals', { body: {} }));
    expect(mine.total).toBe(1);
    const tx = await dataOf(who.api.POST('/api/me/searchTransactions', { body: {} }));
    expect(tx.items[0]).toMatchObject({ type: 'transaction_I', walletAccountEffect: -400_000 });
  });

  it('twenty parallel withdrawals never overdraw the wallet', async () => {
    const who = await customer();
    await deposit(who, 1_000_000);
    const account = await approvedAccount(who);
    const results = await Promise.all(
      Array.from({ length: 20 }, async () => (await withdraw(who, account.id, 150_000)).response.status),
    );
    expect(results.filter((status) => status === 200)).toHaveLength(6);
    expect(results.filter((status) => status !== 200).every((status) => status === 422)).toBe(true);
    expect(await userBalance(db, who.userId)).toEqual({ balance: 100_000, reserved: 0 });
  });

  it('staff record the transfer or refuse, once each; a refusal returns the amount to the wallet', async () => {
    const who = await customer();
    await deposit(who, 500_000);
    const account = await approvedAccount(who);
    const first = await dataOf(withdraw(who, account.id, 200_000));
    const second = await dataOf(withdraw(who, account.id, 300_000));
    expect(await userBalance(db, who.userId)).toEqual({ balance: 0, reserved: 0 });

    const listed = await dataOf(cashier.POST('/api/sys/searchWithdrawals', { body: { state: 'requested' } }));
    expect(listed.items.map((w) => w.id)).toEqual(expect.arrayContaining([first.id, second.id]));

    expect(await dataOf(done(first.id, ' ۱۲۳۴۵ '))).toMatchObject({ state: 'done', bankReference: '۱۲۳۴۵' });
    expect(await statusOf(done(first.id, 'X'))).toBe(409);
    expect(await statusOf(refuse(first.id, 'دلیل رد'))).toBe(409);

    expect(await dataOf(refuse(second.id, 'حساب مسدود است'))).toMatchObject({
      state: 'refused',
      decisionReason: 'حساب مسدود است',
    });
    expect(await statusOf(refuse(second.id, 'دلیل رد'))).toBe(409);
    expect(await statusOf(done(second.id, 'R'))).toBe(409);
    expect(await userBalance(db, who.userId)).toEqual({ balance: 300_000, reserved: 0 });

    const parallel = await Promise.all(Array.from({ length: 5 }, (_, i) => statusOf(refuse(first.id, `دلیل ${i}`))));
    expect(parallel.every((status) => status === 409)).toBe(true);
    const audit = await db
      .selectFrom('auditLog')
      .select('action')
      .where('entity', '=', 'withdrawal')
      .where('entityId', 'in', [String(first.id), String(second.id)])
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual([
      'requestWithdrawal',
      'requestWithdrawal',
      'withdrawalDone',
      'withdrawalRefused',
    ]);
    expect(await statusOf(done(99_999_999, 'R'))).toBe(404);
  });

  it("another customer's account and withdrawals stay out of reach", async () => {
    const owner = await customer();
    const stranger = await customer();
    await deposit(owner, 100_000);
    await deposit(stranger, 100_000);
    const account = await approvedAccount(owner);
    expect(await statusOf(withdraw(stranger, account.id, 10_000))).toBe(404);
    const mine = await dataOf(withdraw(owner, account.id, 10_000));
    const theirs = await dataOf(stranger.api.POST('/api/me/searchWithdrawals', { body: {} }));
    expect(theirs.items.map((w) => w.id)).not.toContain(mine.id);
    const accounts = await dataOf(stranger.api.POST('/api/me/searchUserBankAccounts'));
    expect(accounts.items).toHaveLength(0);
    expect(await userBalance(db, stranger.userId)).toEqual({ balance: 100_000, reserved: 0 });
  });
});
