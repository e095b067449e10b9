/**
 * Study-abroad plans on a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the public
 * templates; a customer saves and reads their plan; each step is priced exactly as the desk's price quote prices
 * its fee; step states follow the customer's own requests made since the plan was chosen, or paid before it
 * (submitted → waiting for payment, paid → paid, staff done → done) with the totals; another customer never sees it. Ledger invariants after
 * every test.
 */
import { describe, expect, it } from 'vitest';
import { TEHRAN_OFFSET_MS } from '../../src/shared/calendar';
import { type Customer, type MoneyHelpers, withMoneyServer } from '../support/money';
import { bearer, post, type RunningServer } from '../support/server';

let server: RunningServer;
let money: MoneyHelpers;
let staff: { token: string; userId: number };

withMoneyServer({ web: false }, async (t) => {
  ({ server, money } = t);
  staff = await money.staffWithActions(['manageCurrencyPayments', 'viewTasks']);
});

interface Step {
  key: string;
  desk: string;
  deskTitle: string;
  optional: boolean;
  fee: { currency: string; amountMinor: number };
  deadline?: string;
  estimate: { rate: number; grossPrice: number; totalCosts: number; expectedPrice: number } | null;
  state: string;
  purchaseId?: number;
  paid: number;
  prefill: Record<string, string | number>;
}
interface MyPlan {
  template: { identifier: string };
  startDate: string;
  steps: Step[];
  totalEstimated: number;
  totalPaid: number;
}

/** A day `days` from today in Tehran, YYYY-MM-DD. */
const dayFromToday = (days: number) =>
  new Date(Date.now() + TEHRAN_OFFSET_MS + days * 86_400_000).toISOString().slice(0, 10);

const save = (who: Customer, body: Record<string, unknown>) =>
  post(server, '/api/me/saveMyPlan', body, bearer(who.token));

async function myPlan(who: Customer): Promise<MyPlan | null> {
  const res = await post(server, '/api/me/fetchMyPlan', undefined, bearer(who.token));
  expect(res.status, res.body.msg).toBe(200);
  return (res.body.data as { plan: MyPlan | null }).plan;
}

const stepOf = (plan: MyPlan | null, key: string) => plan!.steps.find((s) => s.key === key)!;

describe('plan templates', () => {
  it('lists USA, Canada and Germany to guests, with each step’s desk and fee', async () => {
    const res = await post(server, '/api/public/searchPlanTemplates');
    expect(res.status, res.body.msg).toBe(200);
    const { items, total } = res.body.data as {
      items: Array<{ identifier: string; steps: Array<{ desk: string; deskTitle: string; fee: unknown }> }>;
      total: number;
    };
    expect(items.map((t) => t.identifier)).toEqual(['usaF1', 'canadaStudyPermit', 'germanyStudy']);
    expect(total).toBe(3);
    const usa = items[0]!;
    // In deadline order (issue 44): the English test and the GRE before the application they go with.
    expect(usa.steps.map((s) => s.desk)).toEqual([
      'toeflGeneralCpr',
      'greGeneralCpr',
      'uafCpr',
      'sevisGeneralCpr',
      'usaEmbassyAppointmentCpr',
      'uniDepFeeCpr',
      'uniDormCpr',
    ]);
    expect(usa.steps[3]).toMatchObject({
      deskTitle: 'پرداخت هزینه سویس',
      fee: { currency: 'USD', amountMinor: 35000 },
    });
  });
});

describe('my plan', () => {
  it('is null before one is chosen; an unknown template is 404 and a past start date 422, in Persian', async () => {
    const who = await money.customer();
    expect(await myPlan(who)).toBeNull();
    const unknown = await save(who, { plan: 'marsStudy', startDate: dayFromToday(200) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('این برنامه پیدا نشد.');
    const past = await save(who, { plan: 'usaF1', startDate: dayFromToday(-1) });
    expect(past.status).toBe(422);
    expect(past.body.msg).toBe('تاریخ شروع تحصیل باید از امروز به بعد باشد.');
    const bad = await save(who, { plan: 'usaF1', startDate: 'next fall' });
    expect(bad.status).toBe(400);
    expect(await myPlan(who)).toBeNull();
    const guest = await post(server, '/api/me/fetchMyPlan');
    expect(guest.status).toBe(401);
  });

  it('prices each step as the desk’s price quote does, with its deadline and the totals', async () => {
    const who = await money.customer();
    const startDate = dayFromToday(300);
    const saved = await save(who, { plan: 'usaF1', startDate });
    expect(saved.status, saved.body.msg).toBe(200);
    const plan = (saved.body.data as { plan: MyPlan }).plan;
    expect(plan.template.identifier).toBe('usaF1');
    expect(plan.startDate).toBe(startDate);
    const sevis = stepOf(plan, 'sevis');
    expect(sevis.state).toBe('notStarted');
    expect(sevis.deadline).toBe(
      new Date(Date.parse(`${startDate}T00:00:00Z`) - 100 * 86_400_000).toISOString().slice(0, 10),
    );
    expect(sevis.prefill).toMatchObject({ currency: money.usd.id, amount: 350, subject: 'SEVIS I-901 (F-1)' });
    // The desk's own quote for the same fee gives the same breakdown.
    const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
      items: Array<{ id: number; isCash: boolean }>;
    };
    const quote = await post(
      server,
      '/api/me/desks/sevisGeneralCpr/priceInquiry',
      { currency: money.usd.id, amount: 350, requestedPaymentMethodGroup: groups.items.find((g) => !g.isCash)!.id },
      bearer(who.token),
    );
    expect(quote.status, quote.body.msg).toBe(200);
    const q = quote.body.data as { rate: number; grossPrice: number; totalCosts: number; expectedPrice: number };
    expect(sevis.estimate).toEqual({
      rate: q.rate,
      grossPrice: q.grossPrice,
      totalCosts: q.totalCosts,
      expectedPrice: q.expectedPrice,
    });
    const required = plan.steps.filter((s) => !s.optional);
    expect(stepOf(plan, 'gre').optional).toBe(true);
    expect(plan.totalEstimated).toBe(required.reduce((sum, s) => sum + s.estimate!.expectedPrice, 0));
    expect(plan.totalPaid).toBe(0);
  });

  it('follows the customer’s requests at the step’s desk: waiting for payment, paid, done; another customer sees none of it', async () => {
    const who = await money.customer();
    const other = await money.customer();
    // A request made before the plan was chosen does not count for it.
    await money.request(who, 50);
    expect((await save(who, { plan: 'usaF1', startDate: dayFromToday(250) })).status).toBe(200);
    expect(stepOf(await myPlan(who), 'englishTest').state).toBe('notStarted');

    const purchase = await money.request(who, 250);
    let plan = await myPlan(who);
    expect(stepOf(plan, 'englishTest')).toMatchObject({ state: 'waitingForPayment', purchaseId: purchase.id, paid: 0 });
    expect(plan!.totalPaid).toBe(0);

    await money.deposit(who, purchase.expectedPrice);
    expect((await money.payOk(who, purchase.id)).purchase.state).toBe('paid');
    plan = await myPlan(who);
    expect(stepOf(plan, 'englishTest')).toMatchObject({ state: 'paid', paid: purchase.expectedPrice });
    expect(plan!.totalPaid).toBe(purchase.expectedPrice);
    // Changing the start date keeps the plan's requests; the deadlines move.
    const moved = await save(who, { plan: 'usaF1', startDate: dayFromToday(260) });
    expect(stepOf((moved.body.data as { plan: MyPlan }).plan, 'englishTest').state).toBe('paid');

    // Staff record it done.
    const task = await server.app.database.db
      .selectFrom('tasks')
      .select('id')
      .where('purchaseId', '=', purchase.id)
      .executeTakeFirstOrThrow();
    const opened = await post(server, '/api/sys/fetchFulfilmentTaskData', { taskId: task.id }, bearer(staff.token));
    expect(opened.status, opened.body.msg).toBe(200);
    const done = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: purchase.id, realPrice: purchase.expectedPrice, currencyPaymentReference: 'PLAN-1' },
      bearer(staff.token),
    );
    expect(done.status, done.body.msg).toBe(200);
    plan = await myPlan(who);
    expect(stepOf(plan, 'englishTest')).toMatchObject({ state: 'done', paid: purchase.expectedPrice });
    expect(plan!.totalPaid).toBe(purchase.expectedPrice);

    // The other customer has no plan, and their own plan shows none of these requests.
    expect(await myPlan(other)).toBeNull();
    expect((await save(other, { plan: 'usaF1', startDate: dayFromToday(250) })).status).toBe(200);
    const theirs = await myPlan(other);
    expect(theirs!.steps.every((s) => s.state === 'notStarted' && s.paid === 0)).toBe(true);
    expect(theirs!.totalPaid).toBe(0);

    // Choosing another template counts its own desks' requests: Canada's plan has no TOEFL step.
    const canada = await save(who, { plan: 'canadaStudyPermit', startDate: dayFromToday(250) });
    expect((canada.body.data as { plan: MyPlan }).plan.totalPaid).toBe(0);
  });

  it('counts a request paid before the plan was made, once, with the totals; deadlines come in order (issue 44)', async () => {
    const who = await money.customer();
    // Paid five minutes before choosing the plan: the English step is paid from the plan's first day.
    const before = await money.request(who, 250);
    await money.deposit(who, before.expectedPrice);
    expect((await money.payOk(who, before.id)).purchase.state).toBe('paid');
    const saved = await save(who, { plan: 'usaF1', startDate: dayFromToday(300) });
    expect(saved.status, saved.body.msg).toBe(200);
    let plan = (saved.body.data as { plan: MyPlan }).plan;
    expect(stepOf(plan, 'englishTest')).toMatchObject({
      state: 'paid',
      purchaseId: before.id,
      paid: before.expectedPrice,
    });
    expect(plan.totalPaid).toBe(before.expectedPrice);
    // A second one at the same desk adds to the same step; no other step counts either of them.
    const after = await money.request(who, 20);
    await money.deposit(who, after.expectedPrice);
    await money.payOk(who, after.id);
    plan = (await myPlan(who))!;
    expect(stepOf(plan, 'englishTest').paid).toBe(before.expectedPrice + after.expectedPrice);
    expect(plan.steps.filter((s) => s.paid > 0).map((s) => s.key)).toEqual(['englishTest']);
    expect(plan.totalPaid).toBe(before.expectedPrice + after.expectedPrice);
    // Steps with deadlines come earliest first, numbered as shown.
    const deadlines = plan.steps.map((s) => s.deadline!);
    expect(deadlines).toEqual([...deadlines].sort());
    expect(plan.steps.map((s) => (s as Step & { order: number }).order)).toEqual(plan.steps.map((_, i) => i + 1));
  });
});
