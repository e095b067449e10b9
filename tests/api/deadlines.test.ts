/**
 * Deadlines (issue 31, point 4) on a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the
 * deadline a desk's form marks `x-deadline` is stored with the request; the staff queue orders paid requests' tasks
 * by it and flags those with less than `deadlineAtRiskHours` left; a request entering "at risk" notifies its
 * customer and the staff who hold its task's action exactly once (the sweep run with the test's clock, and at
 * payment when it is at risk already); a done request is never told.
 */
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { deadlineEnd } from '../../src/shared/deadline';
import { toPersianDigits } from '../../src/shared/digits';
import { type Customer, type MoneyHelpers, type Purchase, withMoneyServer } from '../support/money';
import { bearer, post, type RunningServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let staff: { token: string; userId: number };
let cardGroup: number;

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  staff = await money.staffWithActions(['manageCurrencyPayments', 'viewTasks']);
  const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
    items: Array<{ id: number; isCash: boolean }>;
  };
  cardGroup = groups.items.find((g) => !g.isCash)!.id;
});

const HOUR = 3_600_000;
/** Tehran's calendar date `days` from today, as the form sends it (ISO Gregorian). */
const tehranDate = (days: number) => new Date(Date.now() + 210 * 60_000 + days * 24 * HOUR).toISOString().slice(0, 10);

type WithDeadline = Purchase & { deadlineAt: string | null };

/** A TOEFL request with the registration's closing date `deadlineDate` (none when undefined). */
async function submit(who: Customer, deadlineDate?: string) {
  const form = { currency: money.usd.id, amount: 10, requestedPaymentMethodGroup: cardGroup };
  const quote = await post(server, '/api/me/desks/toeflGeneralCpr/priceInquiry', form, bearer(who.token));
  expect(quote.status, quote.body.msg).toBe(200);
  return post(
    server,
    '/api/me/desks/toeflGeneralCpr/requests',
    {
      ...form,
      quoteId: (quote.body.data as { quoteId: string }).quoteId,
      targetPageAddress: 'https://www.ets.org/toefl/pay',
      targetPageUsername: 'student1',
      targetPagePassword: 'secret',
      ...(deadlineDate === undefined ? {} : { deadlineDate }),
    },
    { ...bearer(who.token), 'idempotency-key': money.newKey() },
  );
}

/** A paid request with its deadline on the Tehran date `days` from today (none when undefined). */
async function paid(who: Customer, days?: number): Promise<WithDeadline> {
  const res = await submit(who, days === undefined ? undefined : tehranDate(days));
  expect(res.status, res.body.msg).toBe(200);
  const purchase = res.body.data as WithDeadline;
  await money.deposit(who, purchase.expectedPrice);
  const done = await money.payOk(who, purchase.id);
  expect(done.purchase.state).toBe('paid');
  return purchase;
}

const notificationsOf = (purchaseId: number) =>
  db
    .selectFrom('notifications')
    .select(['userId', 'kind', 'text'])
    .where('purchaseId', '=', purchaseId)
    .where('kind', 'in', ['deadlineAtRisk', 'staffDeadlineAtRisk'])
    .orderBy('id')
    .execute();

interface TaskRow {
  id: number;
  deadlineAt: string | null;
  deadlineAtRisk: boolean;
}

async function queue(): Promise<Array<TaskRow & { purchaseId: number }>> {
  const res = await post(server, '/api/me/searchTasks', { type: 'uafCprCpTask', perPage: 100 }, bearer(staff.token));
  expect(res.status, res.body.msg).toBe(200);
  const items = (res.body.data as { items: TaskRow[] }).items;
  const rows = await db.selectFrom('tasks').select(['id', 'purchaseId']).execute();
  return items.map((t) => ({ ...t, purchaseId: rows.find((r) => r.id === t.id)!.purchaseId! }));
}

describe('the deadline of a request', () => {
  it('is stored from the form as the end of its day in Tehran (23:59:59); none without one; a wrong date is refused', async () => {
    const who = await money.customer();
    const date = tehranDate(10);
    const res = await submit(who, date);
    expect(res.status, res.body.msg).toBe(200);
    const purchase = res.body.data as WithDeadline;
    expect(purchase.deadlineAt).toBe(deadlineEnd(date)!.toISOString());
    const row = await db.selectFrom('purchases').select('deadlineAt').where('id', '=', purchase.id).executeTakeFirst();
    expect(new Date(row!.deadlineAt!).toISOString()).toBe(purchase.deadlineAt);
    expect((await money.purchaseOf(who, purchase.id)).purchase).toMatchObject({ deadlineAt: purchase.deadlineAt });

    const none = await submit(who);
    expect(none.status, none.body.msg).toBe(200);
    expect((none.body.data as WithDeadline).deadlineAt).toBeNull();

    const wrong = await submit(who, '2026-13-45');
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('تاریخ معتبر نیست.');
  });
});

describe('the staff queue', () => {
  it('orders paid requests by deadline, earliest first, none after, and flags those at risk', async () => {
    const who = await money.customer();
    const later = await paid(who, 10);
    const none = await paid(who);
    const soon = await paid(who, 1);
    const middle = await paid(who, 4);
    const mine = (await queue()).filter((t) => [later.id, none.id, soon.id, middle.id].includes(t.purchaseId));
    expect(mine.map((t) => t.purchaseId)).toEqual([soon.id, middle.id, later.id, none.id]);
    expect(mine.map((t) => t.deadlineAtRisk)).toEqual([true, false, false, false]);
    expect(mine[0]!.deadlineAt).toBe(deadlineEnd(tehranDate(1))!.toISOString());
    expect(mine[3]!.deadlineAt).toBeNull();
    // Every task with a deadline comes before every task without one.
    const all = await queue();
    const firstWithout = all.findIndex((t) => t.deadlineAt === null);
    expect(all.slice(firstWithout).every((t) => t.deadlineAt === null)).toBe(true);
  });
});

describe('entering at risk', () => {
  it('notifies the customer and the staff holding the task action once: at payment when at risk already', async () => {
    const who = await money.customer();
    const soon = await paid(who, 1);
    const told = await notificationsOf(soon.id);
    expect(told.filter((n) => n.kind === 'deadlineAtRisk')).toEqual([
      {
        userId: who.userId,
        kind: 'deadlineAtRisk',
        text: `مهلت درخواست «آزمون تافل (${toPersianDigits(soon.id)})» کمتر از ۴۸ ساعت دیگر است.`,
      },
    ]);
    expect(told.filter((n) => n.kind === 'staffDeadlineAtRisk' && n.userId === staff.userId)).toHaveLength(1);
    await server.app.sweepDeadlines(new Date(Date.now() + 5 * HOUR));
    expect(await notificationsOf(soon.id)).toEqual(told);
  });

  it('notifies once when the sweep finds it at risk, whoever sweeps how often; never a done request', async () => {
    const who = await money.customer();
    const later = await paid(who, 10);
    const finished = await paid(who, 10);
    const task = await db.selectFrom('tasks').select('id').where('purchaseId', '=', finished.id).executeTakeFirst();
    await post(server, '/api/sys/fetchFulfilmentTaskData', { taskId: task!.id }, bearer(staff.token));
    const done = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: finished.id, realPrice: finished.expectedPrice, currencyPaymentReference: 'ETS-1' },
      bearer(staff.token),
    );
    expect(done.status, done.body.msg).toBe(200);

    // Not yet at risk now: nothing.
    await server.app.sweepDeadlines();
    expect(await notificationsOf(later.id)).toEqual([]);

    // A day before the deadline: told, once, however many sweeps run at once or later.
    const dayBefore = new Date(new Date(later.deadlineAt!).getTime() - 24 * HOUR);
    await Promise.all([server.app.sweepDeadlines(dayBefore), server.app.sweepDeadlines(dayBefore)]);
    await server.app.sweepDeadlines(new Date(dayBefore.getTime() + HOUR));
    const told = await notificationsOf(later.id);
    expect(told.filter((n) => n.kind === 'deadlineAtRisk').map((n) => n.userId)).toEqual([who.userId]);
    expect(told.filter((n) => n.kind === 'staffDeadlineAtRisk' && n.userId === staff.userId)).toHaveLength(1);
    expect(new Set(told.map((n) => `${n.kind}:${n.userId}`)).size).toBe(told.length);
    const staffText = told.find((n) => n.kind === 'staffDeadlineAtRisk')!.text;
    expect(staffText).toBe(
      `مهلت درخواست «آزمون تافل (${toPersianDigits(later.id)})» کمتر از ۴۸ ساعت دیگر است و هنوز انجام نشده.`,
    );

    // The done request, due the same day, is never told.
    expect(await notificationsOf(finished.id)).toEqual([]);
  });

  it('sends the at-risk SMS at night at once when the deadline comes before 08:00, and holds it otherwise', async () => {
    const who = await money.customer();
    const purchase = await paid(who, 10);
    // The deadline is the end of its Tehran day (23:59:59): a sweep at 22:59:59 that evening, in quiet hours, finds
    // it at risk, and the next 08:00 would be after it.
    const evening = new Date(new Date(purchase.deadlineAt!).getTime() - HOUR);
    await server.app.sweepDeadlines(evening);
    const held = await paid(who, 12);
    // The evening before, at 22:59:59: the warning may wait for 08:00 (9 h 1 s later), the deadline is that day's end.
    const earlier = new Date(new Date(held.deadlineAt!).getTime() - 25 * HOUR);
    await server.app.sweepDeadlines(earlier);
    const smsOf = (purchaseId: number) =>
      db
        .selectFrom('notificationSms as s')
        .innerJoin('notifications as n', 'n.id', 's.notificationId')
        .select(['n.kind', 's.dueAt'])
        .where('n.purchaseId', '=', purchaseId)
        .where('n.userId', '=', who.userId)
        .where('n.kind', '=', 'deadlineAtRisk')
        .execute();
    expect(await smsOf(purchase.id)).toEqual([{ kind: 'deadlineAtRisk', dueAt: evening }]);
    expect(await smsOf(held.id)).toEqual([
      { kind: 'deadlineAtRisk', dueAt: new Date(earlier.getTime() + 9 * HOUR + 1000) },
    ]);
  });

  it('follows the system parameter staff set', async () => {
    const who = await money.customer();
    const purchase = await paid(who, 10);
    const deadline = new Date(purchase.deadlineAt!).getTime();
    await db
      .updateTable('systemParameters')
      .set({ value: JSON.stringify(12) })
      .where('key', '=', 'deadlineAtRiskHours')
      .execute();
    try {
      await server.app.sweepDeadlines(new Date(deadline - 24 * HOUR));
      expect(await notificationsOf(purchase.id)).toEqual([]);
      await server.app.sweepDeadlines(new Date(deadline - 11 * HOUR));
      expect((await notificationsOf(purchase.id)).find((n) => n.userId === who.userId)?.text).toContain('۱۲ ساعت');
    } finally {
      await db
        .updateTable('systemParameters')
        .set({ value: JSON.stringify(48) })
        .where('key', '=', 'deadlineAtRiskHours')
        .execute();
    }
  });
});
