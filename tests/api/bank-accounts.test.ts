/**
 * Bank accounts and withdrawals on a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * IBANs refused in Persian, the ownership review through its task, withdrawals only to an approved account and
 * never beyond the wallet (also twenty at once), staff closing a withdrawal once, access, and other customers'
 * rows. The ledger invariants are checked after every test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { IBAN_MESSAGES, ibanMod97 } from '../../src/shared/iban';
import { checkInvariants } from '../../src/server/modules/ledger/invariants';
import { postTransaction, userBalance } from '../../src/server/modules/ledger/service';
import { bearer, loginByCode, post, type RunningServer, startServer, staffWithActions } from '../support/server';

let server: RunningServer;
let db: DB;
let reviewer: string;
let cashier: string;

beforeAll(async () => {
  server = await startServer({ web: false });
  db = server.app.database.db;
  reviewer = (await staffWithActions(server, ['approveBankAccountOwnership', 'viewTasks'], '09140000201')).token;
  cashier = (await staffWithActions(server, ['manageWithdrawals'], '09140000202')).token;
});
afterAll(async () => server?.stop());
afterEach(async () => {
  expect(await checkInvariants(db)).toEqual([]);
});

interface Customer {
  token: string;
  userId: number;
}
let customers = 0;
async function customer(): Promise<Customer> {
  const token = await loginByCode(server, `0913${String(5_000_000 + customers++)}`);
  const me = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
  return { token, userId: (me.body.data as { id: number }).id };
}

/** A valid IBAN of Bank Mellat (012) for account number `n`. */
function iban(n: number): string {
  const account = String(n).padStart(19, '0');
  const check = 98 - ibanMod97(`IR00012${account}`);
  return `IR${String(check).padStart(2, '0')}012${account}`;
}
let ibans = 0;

interface Account {
  id: number;
  userId: number;
  iban: string;
  bankName: string;
  ownershipApproved: 0 | 1 | null;
  decisionReason: string | null;
}
interface Withdrawal {
  id: number;
  bankAccount: number;
  amount: number;
  state: string;
  bankReference: string | null;
  decisionReason: string | null;
}

async function saveAccount(who: Customer, value = iban(++ibans)): Promise<Account> {
  const res = await post(
    server,
    '/api/me/saveUserBankAccount',
    { iban: value, ownerName: 'سارا کریمی' },
    bearer(who.token),
  );
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as Account;
}

async function taskOf(account: Account): Promise<number> {
  const row = await db
    .selectFrom('tasks')
    .select('id')
    .where('userBankAccountId', '=', account.id)
    .where('state', 'in', ['open', 'claimed'])
    .executeTakeFirstOrThrow();
  return row.id;
}

async function approvedAccount(who: Customer): Promise<Account> {
  const account = await saveAccount(who);
  const taskId = await taskOf(account);
  expect((await post(server, '/api/sys/fetchApproveUbaOwnerTaskData', { taskId }, bearer(reviewer))).status).toBe(200);
  const res = await post(server, '/api/sys/approveUserBankAccountOwnership', { taskId }, bearer(reviewer));
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as Account;
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
  post(server, '/api/me/requestWithdrawal', { bankAccount, amount }, { ...bearer(who.token), 'idempotency-key': key });

describe('bank accounts', () => {
  it('refuses invalid IBANs with a Persian message and accepts spaces and Persian digits', async () => {
    const who = await customer();
    const bad = await post(
      server,
      '/api/me/saveUserBankAccount',
      { iban: 'IR870570028180010653892102' },
      bearer(who.token),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.msg).toBe(IBAN_MESSAGES.checksum);
    const short = await post(server, '/api/me/saveUserBankAccount', { iban: 'IR8705700281' }, bearer(who.token));
    expect(short.status).toBe(422);
    expect(short.body.msg).toBe(IBAN_MESSAGES.length);
    const empty = await post(server, '/api/me/saveUserBankAccount', { iban: '' }, bearer(who.token));
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('شماره شبا را وارد کنید.');

    const typed = 'ir۸۷ ۰۵۷۰ ۰۲۸۱ ۸۰۰۱ ۰۶۵۳ ۸۹۲۱ ۰۱';
    const saved = await post(
      server,
      '/api/me/saveUserBankAccount',
      { iban: typed, ownerName: 'سارا' },
      bearer(who.token),
    );
    expect(saved.status, saved.body.msg).toBe(200);
    expect(saved.body.data).toMatchObject({
      iban: 'IR870570028180010653892101',
      bankCode: '057',
      bankName: 'بانک پاسارگاد',
      ownershipApproved: null,
    });
    // Saving it again answers with the same account and opens no second review.
    const again = await post(
      server,
      '/api/me/saveUserBankAccount',
      { iban: 'IR870570028180010653892101', ownerName: 'سارا' },
      bearer(who.token),
    );
    expect((again.body.data as Account).id).toBe((saved.body.data as Account).id);
    const tasks = await db
      .selectFrom('tasks')
      .select('id')
      .where('userBankAccountId', '=', (saved.body.data as Account).id)
      .execute();
    expect(tasks).toHaveLength(1);
  });

  it('asks for the holder name when the profile has none', async () => {
    const who = await customer();
    const res = await post(server, '/api/me/saveUserBankAccount', { iban: iban(++ibans) }, bearer(who.token));
    expect(res.status).toBe(422);
    expect(res.body.msg).toMatch(/نام صاحب حساب/);
  });

  it('staff approve ownership through the task, once; a rejected account saved again is reviewed again', async () => {
    const who = await customer();
    const account = await saveAccount(who);
    const taskId = await taskOf(account);
    // Deciding before opening (claiming) the task is refused.
    expect((await post(server, '/api/sys/approveUserBankAccountOwnership', { taskId }, bearer(reviewer))).status).toBe(
      409,
    );
    const opened = await post(server, '/api/sys/fetchApproveUbaOwnerTaskData', { taskId }, bearer(reviewer));
    expect(opened.status, opened.body.msg).toBe(200);
    expect(opened.body.data).toMatchObject({
      task: { id: taskId, type: 'approveUbaOwnerTask', state: 'claimed' },
      bankAccount: { id: account.id },
    });
    const approved = await post(server, '/api/sys/approveUserBankAccountOwnership', { taskId }, bearer(reviewer));
    expect(approved.status, approved.body.msg).toBe(200);
    expect(approved.body.data).toMatchObject({ id: account.id, ownershipApproved: 1 });
    const second = await post(
      server,
      '/api/sys/rejectUserBankAccountOwnership',
      { taskId, reason: 'نام صاحب حساب' },
      bearer(reviewer),
    );
    expect(second.status).toBe(409);
    const audit = await db
      .selectFrom('auditLog')
      .select('action')
      .where('entity', '=', 'userBankAccount')
      .where('entityId', '=', String(account.id))
      .execute();
    expect(audit.map((a) => a.action)).toContain('approveUserBankAccountOwnership');

    const other = await saveAccount(who);
    const otherTask = await taskOf(other);
    await post(server, '/api/sys/fetchApproveUbaOwnerTaskData', { taskId: otherTask }, bearer(reviewer));
    const rejected = await post(
      server,
      '/api/sys/rejectUserBankAccountOwnership',
      { taskId: otherTask, reason: 'حساب به نام شخص دیگری است' },
      bearer(reviewer),
    );
    expect(rejected.status).toBe(200);
    const mine = (await post(server, '/api/me/searchUserBankAccounts', undefined, bearer(who.token))).body.data as {
      items: Account[];
    };
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
    for (const token of [who.token, cashier]) {
      expect((await post(server, '/api/sys/fetchApproveUbaOwnerTaskData', { taskId }, bearer(token))).status).toBe(403);
      expect((await post(server, '/api/sys/approveUserBankAccountOwnership', { taskId }, bearer(token))).status).toBe(
        403,
      );
      expect(
        (await post(server, '/api/sys/rejectUserBankAccountOwnership', { taskId, reason: 'دلیل رد' }, bearer(token)))
          .status,
      ).toBe(403);
    }
    for (const token of [who.token, reviewer]) {
      expect((await post(server, '/api/sys/searchWithdrawals', {}, bearer(token))).status).toBe(403);
      expect(
        (await post(server, '/api/sys/withdrawalDone', { withdrawal: 1, reference: 'R1' }, bearer(token))).status,
      ).toBe(403);
      expect(
        (await post(server, '/api/sys/withdrawalRefused', { withdrawal: 1, reason: 'دلیل رد' }, bearer(token))).status,
      ).toBe(403);
    }
    const profileTask = await db
      .insertInto('tasks')
      .values({ type: 'approveProfileAsL1Task', subjectUserId: who.userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(
      (await post(server, '/api/sys/fetchApproveUbaOwnerTaskData', { taskId: profileTask.id }, bearer(reviewer)))
        .status,
    ).toBe(404);
    await db.deleteFrom('tasks').where('id', '=', profileTask.id).execute();
  });
});

describe('bank accounts to approve (staff page)', () => {
  interface Row {
    id: number;
    userId: number;
    ownershipApproved: 0 | 1 | null;
    customerName: string;
    mobileNo: string | null;
    taskId: number | null;
    taskClaimedByName: string | null;
    decidedByName: string | null;
    decisionReason: string | null;
  }
  const search = async (body: Record<string, unknown>, token = reviewer) => {
    const res = await post(server, '/api/sys/searchUserBankAccounts', body, bearer(token));
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data as { items: Row[]; total: number };
  };

  it('lists accounts by ownership with the customer and the open review task, searchable and by day', async () => {
    const who = await customer();
    const mobileNo = (
      (await post(server, '/api/me/fetchUserData', undefined, bearer(who.token))).body.data as {
        mobileNo: string;
      }
    ).mobileNo;
    const waiting = await saveAccount(who);
    const approved = await approvedAccount(who);
    const rejected = await saveAccount(who);
    const rejectTask = await taskOf(rejected);
    await post(server, '/api/sys/fetchApproveUbaOwnerTaskData', { taskId: rejectTask }, bearer(reviewer));
    const reason = 'نام صاحب حساب با نام مشتری یکی نیست';
    expect(
      (await post(server, '/api/sys/rejectUserBankAccountOwnership', { taskId: rejectTask, reason }, bearer(reviewer)))
        .status,
    ).toBe(200);

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
    await post(server, '/api/sys/fetchApproveUbaOwnerTaskData', { taskId: await taskOf(waiting) }, bearer(reviewer));
    expect((await search({ ownership: 'waiting', search: mobileNo })).items[0]!.taskClaimedByName).toBe('09140000201');
  });

  it('is refused to customers, to staff without approveBankAccountOwnership, and to guests', async () => {
    const who = await customer();
    for (const token of [who.token, cashier]) {
      const res = await post(server, '/api/sys/searchUserBankAccounts', {}, bearer(token));
      expect(res.status).toBe(403);
      expect(res.body.msg).toMatch(/[\u0600-\u06FF]/);
    }
    expect((await post(server, '/api/sys/searchUserBankAccounts', {})).status).toBe(401);
    expect(
      (await post(server, '/api/sys/searchUserBankAccounts', { ownership: 'maybe' }, bearer(reviewer))).status,
    ).toBe(400);
  });
});

describe('withdrawals', () => {
  it('go only to an approved account of the customer, within the wallet, in integer rial', async () => {
    const who = await customer();
    await deposit(who, 1_000_000);
    const pending = await saveAccount(who);
    const refused = await withdraw(who, pending.id, 100_000);
    expect(refused.status).toBe(422);
    expect(refused.body.msg).toBe('برداشت فقط به حسابی ممکن است که مالکیت آن تایید شده باشد.');
    const account = await approvedAccount(who);
    const tooMuch = await withdraw(who, account.id, 1_000_001);
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.msg).toBe('مبلغ برداشت از موجودی کیف پول شما بیشتر است.');
    for (const amount of [0, -5, 1.5]) {
      const bad = await withdraw(who, account.id, amount);
      expect(bad.status, String(amount)).toBe(400);
      expect(bad.body.msg).toBe('مبلغ برداشت باید عددی صحیح و بیشتر از صفر به ریال باشد.');
    }
    const noKey = await post(
      server,
      '/api/me/requestWithdrawal',
      { bankAccount: account.id, amount: 10 },
      bearer(who.token),
    );
    expect(noKey.status).toBe(400);

    const key = `wd-once-${process.pid}`;
    const ok = await withdraw(who, account.id, 400_000, key);
    expect(ok.status, ok.body.msg).toBe(200);
    expect(ok.body.data).toMatchObject({
      bankAccount: account.id,
      amount: 400_000,
      state: 'requested',
      bankName: 'بانک ملت',
    });
    // A replay answers with the same withdrawal and moves nothing more; the key for another amount is refused.
    const replay = await withdraw(who, account.id, 400_000, key);
    expect((replay.body.data as Withdrawal).id).toBe((ok.body.data as Withdrawal).id);
    expect((await withdraw(who, account.id, 300_000, key)).status).toBe(422);
    expect(await userBalance(db, who.userId)).toEqual({ balance: 600_000, reserved: 0 });

    const mine = (await post(server, '/api/me/searchWithdrawals', {}, bearer(who.token))).body.data as {
      items: Withdrawal[];
      total: number;
    };
    expect(mine.total).toBe(1);
    const tx = (await post(server, '/api/me/searchTransactions', {}, bearer(who.token))).body.data as {
      items: Array<{ type: string; walletAccountEffect: number }>;
    };
    expect(tx.items[0]).toMatchObject({ type: 'transaction_I', walletAccountEffect: -400_000 });
  });

  it('twenty parallel withdrawals never overdraw the wallet', async () => {
    const who = await customer();
    await deposit(who, 1_000_000);
    const account = await approvedAccount(who);
    const results = await Promise.all(Array.from({ length: 20 }, () => withdraw(who, account.id, 150_000)));
    const accepted = results.filter((r) => r.status === 200);
    expect(accepted).toHaveLength(6);
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 422)).toBe(true);
    expect(await userBalance(db, who.userId)).toEqual({ balance: 100_000, reserved: 0 });
  });

  it('staff record the transfer or refuse, once each; a refusal returns the amount to the wallet', async () => {
    const who = await customer();
    await deposit(who, 500_000);
    const account = await approvedAccount(who);
    const first = (await withdraw(who, account.id, 200_000)).body.data as Withdrawal;
    const second = (await withdraw(who, account.id, 300_000)).body.data as Withdrawal;
    expect(await userBalance(db, who.userId)).toEqual({ balance: 0, reserved: 0 });

    const listed = (await post(server, '/api/sys/searchWithdrawals', { state: 'requested' }, bearer(cashier))).body
      .data as { items: Withdrawal[] };
    expect(listed.items.map((w) => w.id)).toEqual(expect.arrayContaining([first.id, second.id]));

    const done = await post(
      server,
      '/api/sys/withdrawalDone',
      { withdrawal: first.id, reference: ' ۱۲۳۴۵ ' },
      bearer(cashier),
    );
    expect(done.status, done.body.msg).toBe(200);
    expect(done.body.data).toMatchObject({ state: 'done', bankReference: '۱۲۳۴۵' });
    expect(
      (await post(server, '/api/sys/withdrawalDone', { withdrawal: first.id, reference: 'X' }, bearer(cashier))).status,
    ).toBe(409);
    expect(
      (await post(server, '/api/sys/withdrawalRefused', { withdrawal: first.id, reason: 'دلیل رد' }, bearer(cashier)))
        .status,
    ).toBe(409);

    const refused = await post(
      server,
      '/api/sys/withdrawalRefused',
      { withdrawal: second.id, reason: 'حساب مسدود است' },
      bearer(cashier),
    );
    expect(refused.status, refused.body.msg).toBe(200);
    expect(refused.body.data).toMatchObject({ state: 'refused', decisionReason: 'حساب مسدود است' });
    expect(
      (await post(server, '/api/sys/withdrawalRefused', { withdrawal: second.id, reason: 'دلیل رد' }, bearer(cashier)))
        .status,
    ).toBe(409);
    expect(
      (await post(server, '/api/sys/withdrawalDone', { withdrawal: second.id, reference: 'R' }, bearer(cashier)))
        .status,
    ).toBe(409);
    expect(await userBalance(db, who.userId)).toEqual({ balance: 300_000, reserved: 0 });

    const parallel = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        post(server, '/api/sys/withdrawalRefused', { withdrawal: first.id, reason: `دلیل ${i}` }, bearer(cashier)),
      ),
    );
    expect(parallel.every((r) => r.status === 409)).toBe(true);
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
    expect(
      (await post(server, '/api/sys/withdrawalDone', { withdrawal: 99_999_999, reference: 'R' }, bearer(cashier)))
        .status,
    ).toBe(404);
  });

  it("another customer's account and withdrawals stay out of reach", async () => {
    const owner = await customer();
    const stranger = await customer();
    await deposit(owner, 100_000);
    await deposit(stranger, 100_000);
    const account = await approvedAccount(owner);
    const res = await withdraw(stranger, account.id, 10_000);
    expect(res.status).toBe(404);
    const mine = (await withdraw(owner, account.id, 10_000)).body.data as Withdrawal;
    const theirs = (await post(server, '/api/me/searchWithdrawals', {}, bearer(stranger.token))).body.data as {
      items: Withdrawal[];
    };
    expect(theirs.items.map((w) => w.id)).not.toContain(mine.id);
    const accounts = (await post(server, '/api/me/searchUserBankAccounts', undefined, bearer(stranger.token))).body
      .data as { items: Account[] };
    expect(accounts.items).toHaveLength(0);
    expect(await userBalance(db, stranger.userId)).toEqual({ balance: 100_000, reserved: 0 });
  });
});
