/**
 * A request's timeline and the customer's notifications at each step (issue 31, points 1 and 2) on a real server and
 * database (PGlite, or PostgreSQL with TEST_DATABASE_URL): each step writes exactly one notification, in the step's
 * transaction, with its amounts in Persian digits, and one SMS row; a repeated or racing step notifies once; a refused
 * or rolled-back step nobody. The timeline of a full walk in words, the customer's never naming a staff member.
 * Ledger invariants after every test.
 */
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { notifyRequestStep } from '../../src/server/modules/requests/request-steps';
import { openTaskOnce } from '../../src/server/modules/tasks/service';
import { formatRial } from '../../src/shared/format';
import { type Customer, type MoneyHelpers, testIban, withMoneyServer } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let staff: { token: string; userId: number; mobileNo: string };

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  const made = await money.staffWithActions([
    'manageCurrencyPayments',
    'viewTasks',
    'viewRequests',
    'manageWithdrawals',
    'approveBankAccountOwnership',
    'manageCollections',
    'viewCustomers',
  ]);
  const row = await db.selectFrom('users').select('mobileNo').where('id', '=', made.userId).executeTakeFirstOrThrow();
  staff = { ...made, mobileNo: row.mobileNo! };
});

interface Step {
  kind: string;
  at: string;
  words: string;
  actor: string;
  actorTitle: string;
  actorName: string | null;
}
interface Timeline {
  steps: Step[];
  next: { text: string; usualWait: string | null } | null;
}

/** The customer's notifications of `kind`, each with how many SMS rows it queued. */
async function notificationsOf(who: { userId: number }, kind: string) {
  const rows = await db
    .selectFrom('notifications as n')
    .leftJoin('notificationSms as s', 's.notificationId', 'n.id')
    .select(['n.id', 'n.text', 'n.purchaseId', 's.id as smsId', 's.text as smsText'])
    .where('n.userId', '=', who.userId)
    .where('n.kind', '=', kind)
    .execute();
  return rows;
}

/** Exactly one notification of `kind` with its one SMS; returns its text. */
async function exactlyOne(who: { userId: number }, kind: string, purchaseId?: number): Promise<string> {
  const rows = await notificationsOf(who, kind);
  expect(rows, kind).toHaveLength(1);
  expect(rows[0]!.smsId, `${kind} SMS`).not.toBeNull();
  expect(rows[0]!.smsText).toBe(rows[0]!.text);
  if (purchaseId !== undefined) expect(Number(rows[0]!.purchaseId)).toBe(purchaseId);
  const sms = await db
    .selectFrom('notificationSms')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('notificationId', '=', rows[0]!.id)
    .executeTakeFirstOrThrow();
  expect(Number(sms.n)).toBe(1);
  // The worker sends it: the log driver's line is the SMS the person gets, once. Its clock is moved a day on, so an
  // SMS held for the night (22:00–08:00 Tehran) is due whatever the hour the suite runs at.
  const worker = server.app.notificationSms;
  const realClock = worker.now;
  worker.now = () => new Date(Date.now() + 86_400_000);
  try {
    await worker.drain();
  } finally {
    worker.now = realClock;
  }
  const { mobileNo } = await db
    .selectFrom('users')
    .select('mobileNo')
    .where('id', '=', who.userId)
    .executeTakeFirstOrThrow();
  const sent = server.logs.filter((l) => l.msg === 'sms' && l.mobileNo === mobileNo && l.text === rows[0]!.text);
  expect(sent, `${kind} SMS sent by the log driver`).toHaveLength(1);
  return rows[0]!.text;
}

const smsCount = async () =>
  Number(
    (
      await db
        .selectFrom('notificationSms')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const taskOf = (purchaseId: number) =>
  db.selectFrom('tasks').select('id').where('purchaseId', '=', purchaseId).executeTakeFirstOrThrow();

const take = async (purchaseId: number) =>
  post(server, '/api/sys/fetchFulfilmentTaskData', { taskId: (await taskOf(purchaseId)).id }, bearer(staff.token));

const customerTimeline = async (who: Customer, id: number) =>
  ((await money.purchaseOf(who, id)) as unknown as { timeline: Timeline }).timeline;

async function staffTimeline(id: number): Promise<Timeline> {
  const res = await post(server, '/api/sys/fetchStaffPurchase', { purchase: id }, bearer(staff.token));
  expect(res.status, res.body.msg).toBe(200);
  return (res.body.data as { timeline: Timeline }).timeline;
}

describe('a full walk: submit, pay, taken by staff, done with part of the money back', () => {
  it('notifies once at each step and tells the same story on the timeline', async () => {
    const who = await money.customer();
    expect(await exactlyOne(who, 'profileApproved')).toBe('پروفایل شما تأیید شد.');
    const purchase = await money.request(who);
    expect((await customerTimeline(who, purchase.id)).steps.map((s) => s.kind)).toEqual(['submitted']);
    expect((await customerTimeline(who, purchase.id)).next).toMatchObject({ usualWait: null });

    await money.deposit(who, purchase.expectedPrice);
    // Two parallel pays with the same key (a double click): paid once, told once.
    const key = money.newKey();
    const pays = await Promise.all([money.pay(who, purchase.id, key), money.pay(who, purchase.id, key)]);
    expect(pays.some((r) => r.status === 200)).toBe(true);
    const paid = await exactlyOne(who, 'purchasePaid', purchase.id);
    expect(paid).toContain(formatRial(purchase.expectedPrice));
    expect(await notificationsOf(who, 'purchaseTaken')).toHaveLength(0);

    // Staff open the task twice at once (a double click): taken once.
    const opened = await Promise.all([take(purchase.id), take(purchase.id)]);
    expect(opened.map((r) => r.status)).toEqual([200, 200]);
    expect(await exactlyOne(who, 'purchaseTaken', purchase.id)).toContain('کارشناس درخواست');
    expect((await take(purchase.id)).status).toBe(200);
    expect(await notificationsOf(who, 'purchaseTaken')).toHaveLength(1);
    const waiting = await customerTimeline(who, purchase.id);
    expect(waiting.steps.map((s) => s.kind)).toEqual(['submitted', 'paid', 'taken']);
    expect(waiting.next?.text).toBeTruthy();

    const ets = await db
      .selectFrom('thirdParties')
      .select(['id', 'title'])
      .where('title', 'like', 'ETS%')
      .executeTakeFirstOrThrow();
    const back = 120_000;
    const realPrice = purchase.expectedPrice - back;
    const done = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: purchase.id, realPrice, currencyPaymentReference: 'ETS-1', thirdParty: ets.id },
      bearer(staff.token),
    );
    expect(done.status, done.body.msg).toBe(200);
    const doneText = await exactlyOne(who, 'purchaseDone', purchase.id);
    expect(doneText).toContain(formatRial(realPrice));
    expect(doneText).toContain(formatRial(back));
    expect(doneText).toMatch(/[۰-۹]/);
    expect(doneText).not.toMatch(/[0-9]/);
    // A second decision is refused and tells nobody again.
    const again = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: purchase.id, realPrice, currencyPaymentReference: 'ETS-1' },
      bearer(staff.token),
    );
    expect(again.status).toBe(409);
    expect(await notificationsOf(who, 'purchaseDone')).toHaveLength(1);

    const mine = await customerTimeline(who, purchase.id);
    expect(mine.steps.map((s) => s.kind)).toEqual(['submitted', 'paid', 'taken', 'done']);
    expect(mine.steps.map((s) => s.words)).toEqual([
      'درخواست ثبت شد',
      `پرداخت شد؛ ${formatRial(purchase.expectedPrice)} از کیف پول`,
      'کارشناس درخواست را برداشت',
      `هزینه به ${ets.title} پرداخت شد؛ ${formatRial(back)} به کیف پول برگشت`,
    ]);
    expect(mine.steps.map((s) => s.actorTitle)).toEqual(['شما', 'شما', 'کارشناس', 'کارشناس']);
    expect(mine.steps.every((s) => s.actorName === null)).toBe(true);
    expect(JSON.stringify(mine)).not.toContain(staff.mobileNo);
    expect(mine.next).toBeNull();
    const times = mine.steps.map((s) => Date.parse(s.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    const theirs = await staffTimeline(purchase.id);
    expect(theirs.steps.map((s) => s.words)).toEqual(mine.steps.map((s) => s.words));
    expect(theirs.steps.map((s) => s.actorTitle)).toEqual(['مشتری', 'مشتری', 'کارشناس', 'کارشناس']);
    expect(theirs.steps.find((s) => s.kind === 'taken')?.actorName).toBe(staff.mobileNo);
    expect(theirs.steps.find((s) => s.kind === 'done')?.actorName).toBe(staff.mobileNo);
  });

  it('a paid request waits «usually» as long as the desk’s requests of the last 30 days took', async () => {
    const who = await money.customer();
    for (let i = 0; i < 3; i++) {
      const p = await money.paidRequest(who, 10);
      await take(p.id);
      const res = await post(
        server,
        '/api/sys/uafCprDone',
        { purchase: p.id, realPrice: p.expectedPrice, currencyPaymentReference: `U-${i}` },
        bearer(staff.token),
      );
      expect(res.status, res.body.msg).toBe(200);
    }
    const waiting = await money.paidRequest(who, 10);
    const timeline = await customerTimeline(who, waiting.id);
    expect(timeline.steps.at(-1)?.kind).toBe('paid');
    expect(timeline.next).toEqual({
      text: 'کارشناس درخواست را برمی‌دارد و انجام می‌دهد',
      usualWait: 'معمولاً کمتر از یک ساعت',
    });
  });
});

describe('paid through the gateway', () => {
  it('notifies once, whatever the callback is replayed; the bank is who acted', async () => {
    const who = await money.customer();
    const purchase = await money.request(who);
    const started = await money.payOk(who, purchase.id);
    expect(started.gatewayUrl).not.toBeNull();
    const callback = await money.payAtSandboxBankOnly(who, started.gatewayUrl!);
    const answers = await Promise.all([
      fetch(callback, { redirect: 'manual' }),
      fetch(callback, { redirect: 'manual' }),
    ]);
    for (const a of answers) expect(a.status).toBeLessThan(400);
    expect(await exactlyOne(who, 'purchasePaid', purchase.id)).toContain(formatRial(purchase.expectedPrice));
    const paid = (await customerTimeline(who, purchase.id)).steps.find((s) => s.kind === 'paid');
    expect(paid).toMatchObject({ actor: 'bank', actorTitle: 'درگاه بانک' });
  });
});

describe('paid by hand (manual completion)', () => {
  it('staff settling an abandoned gateway payment notifies once, and the late return from the bank not again', async () => {
    const who = await money.customer();
    const purchase = await money.request(who);
    const started = await money.payOk(who, purchase.id);
    const back = await money.payAtSandboxBankOnly(who, started.gatewayUrl!);
    const seen = await post(server, '/api/sys/fetchCustomerWallet', { userId: who.userId }, bearer(staff.token));
    expect(seen.status, seen.body.msg).toBe(200);
    const open = (seen.body.data as { openPayments: Array<{ token: string }> }).openPayments[0]!;
    const accounts = await post(server, '/api/sys/searchInternalBankAccounts', {}, bearer(staff.token));
    const account = (accounts.body.data as { items: Array<{ id: number; isActive: boolean }> }).items.find(
      (a) => a.isActive,
    )!;
    const res = await post(
      server,
      '/api/sys/payOffline',
      {
        formIsValid: true,
        onlineProformaToken: open.token,
        collectionAmount: purchase.expectedPrice,
        collectionSourceAccountNo: '6037-9912-3456-7890',
        collectionDestinationAccount: account.id,
        collectionTrackingCode: `TL-${process.pid}`,
      },
      bearer(staff.token),
    );
    expect(res.status, res.body.msg).toBe(200);
    expect((await fetch(back, { redirect: 'manual' })).status).toBeLessThan(400);
    expect(await exactlyOne(who, 'purchasePaid', purchase.id)).toContain(formatRial(purchase.expectedPrice));
    const paid = (await customerTimeline(who, purchase.id)).steps.find((s) => s.kind === 'paid');
    expect(paid).toMatchObject({ actor: 'staff', actorTitle: 'کارشناس', actorName: null });
  });
});

describe('failed and refunded', () => {
  it('failed: what was released, once', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who);
    await take(purchase.id);
    const reason = 'صفحهٔ پرداخت آزمون از دسترس خارج است';
    const res = await post(server, '/api/sys/uafCprFailed', { purchase: purchase.id, reason }, bearer(staff.token));
    expect(res.status, res.body.msg).toBe(200);
    expect(
      (await post(server, '/api/sys/uafCprFailed', { purchase: purchase.id, reason }, bearer(staff.token))).status,
    ).toBe(409);
    const text = await exactlyOne(who, 'purchaseFailed', purchase.id);
    expect(text).toContain(reason);
    expect(text).toContain(formatRial(purchase.expectedPrice));
    expect((await customerTimeline(who, purchase.id)).steps.at(-1)).toMatchObject({
      kind: 'failed',
      words: `انجام نشد: ${reason}؛ ${formatRial(purchase.expectedPrice)} در کیف پول آزاد شد`,
    });
  });

  it('refunded after a user error: what was kept and why, once', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who);
    const costs = await db
      .selectFrom('purchases')
      .select(['fee', 'tax'])
      .where('id', '=', purchase.id)
      .executeTakeFirstOrThrow();
    const kept = costs.fee + costs.tax;
    const reason = 'نام کاربری اشتباه است';
    const res = await post(
      server,
      '/api/sys/uafCprRefundUserError',
      { purchase: purchase.id, reason },
      bearer(staff.token),
    );
    expect(res.status, res.body.msg).toBe(200);
    const text = await exactlyOne(who, 'purchaseRefunded', purchase.id);
    expect(text).toContain(reason);
    expect(text).toContain(formatRial(kept));
    expect(text).toContain(formatRial(purchase.expectedPrice - kept));
    expect((await customerTimeline(who, purchase.id)).steps.at(-1)?.kind).toBe('refunded');
  });

  it('a refused step and a rolled-back one tell nobody', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who);
    await take(purchase.id);
    const tooHigh = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: purchase.id, realPrice: purchase.expectedPrice + 1, currencyPaymentReference: 'X' },
      bearer(staff.token),
    );
    expect(tooHigh.status).toBe(422);
    expect(await notificationsOf(who, 'purchaseDone')).toHaveLength(0);
    const smsBefore = await smsCount();
    await expect(
      db.transaction().execute(async (trx) => {
        await notifyRequestStep(
          trx,
          { deskForm: () => undefined },
          { id: purchase.id, userId: who.userId, desk: 'toeflGeneralCpr' },
          { kind: 'failed', reason: 'x', releasedAmount: 1 },
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await notificationsOf(who, 'purchaseFailed')).toHaveLength(0);
    expect(await smsCount()).toBe(smsBefore);
  });
});

describe('profile, bank account and withdrawal', () => {
  it('profile rejected: the reason, and each paid request invalidated with what was released', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who);
    const taskId = await openTaskOnce(db, 'approveProfileAsL1Task', who.userId, { level: 1 });
    const admin = await loginAdmin(server);
    await post(server, '/api/sys/fetchApproveProfileAsL1TaskData', { taskId }, bearer(admin));
    const reason = 'تصویر کارت ملی خوانا نیست';
    const res = await post(server, '/api/sys/rejectProfileAsL1', { taskId, reason }, bearer(admin));
    expect(res.status, res.body.msg).toBe(200);
    expect(await exactlyOne(who, 'profileRejected')).toBe(`پروفایل شما تأیید نشد: ${reason}.`);
    expect(await exactlyOne(who, 'purchaseFailed', purchase.id)).toContain(formatRial(purchase.expectedPrice));
    expect((await customerTimeline(who, purchase.id)).steps.at(-1)).toMatchObject({
      kind: 'invalidated',
      actor: 'system',
    });
  });

  it('bank account approved and rejected, withdrawal done and refused: once each, amounts in Persian digits', async () => {
    const who = await money.customer();
    await money.withdrawalWaiting(who, staff.token, testIban(31_001));
    expect(await exactlyOne(who, 'bankAccountApproved')).toContain('حساب بانکی');
    const first = await db
      .selectFrom('withdrawals')
      .select('id')
      .where('userId', '=', who.userId)
      .executeTakeFirstOrThrow();
    const done = await post(
      server,
      '/api/sys/withdrawalDone',
      { withdrawal: first.id, reference: 'W-31' },
      bearer(staff.token),
    );
    expect(done.status, done.body.msg).toBe(200);
    expect(
      (await post(server, '/api/sys/withdrawalDone', { withdrawal: first.id, reference: 'W-31' }, bearer(staff.token)))
        .status,
    ).toBe(409);
    expect(await exactlyOne(who, 'withdrawalDone')).toBe(
      `برداشت ${formatRial(1_000_000)} از کیف پول به حساب شما واریز شد.`,
    );

    const asked = await post(
      server,
      '/api/me/requestWithdrawal',
      {
        bankAccount: (
          await db
            .selectFrom('userBankAccounts')
            .select('id')
            .where('userId', '=', who.userId)
            .executeTakeFirstOrThrow()
        ).id,
        amount: 500_000,
      },
      { ...bearer(who.token), 'idempotency-key': money.newKey() },
    );
    expect(asked.status, asked.body.msg).toBe(200);
    const refused = await post(
      server,
      '/api/sys/withdrawalRefused',
      { withdrawal: (asked.body.data as { id: number }).id, reason: 'حساب مسدود است' },
      bearer(staff.token),
    );
    expect(refused.status, refused.body.msg).toBe(200);
    expect(await exactlyOne(who, 'withdrawalRefused')).toContain(formatRial(500_000));

    const rejectedIban = testIban(31_002);
    const saved = await post(
      server,
      '/api/me/saveUserBankAccount',
      { iban: rejectedIban, ownerName: 'سارا کریمی' },
      bearer(who.token),
    );
    expect(saved.status, saved.body.msg).toBe(200);
    const task = await db
      .selectFrom('tasks')
      .select('id')
      .where('userBankAccountId', '=', (saved.body.data as { id: number }).id)
      .executeTakeFirstOrThrow();
    await post(server, '/api/sys/fetchApproveUbaOwnerTaskData', { taskId: task.id }, bearer(staff.token));
    const reason = 'نام صاحب حساب با نام شما یکی نیست';
    const rejected = await post(
      server,
      '/api/sys/rejectUserBankAccountOwnership',
      { taskId: task.id, reason },
      bearer(staff.token),
    );
    expect(rejected.status, rejected.body.msg).toBe(200);
    expect(await exactlyOne(who, 'bankAccountRejected')).toContain(reason);
  });
});
