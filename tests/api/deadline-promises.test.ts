/**
 * The promise at the quote and its compensation (decision 041), on a real server and database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL): the SEVIS desk (3 working days before the interview, 8 working hours of our
 * own) answers «cannot meet» with its reason for an interview too close and the pay-by time for a far one; a request
 * paid in time is promised, and when the promise passes (the check run with the test's clock) the server compensates
 * the fee to the wallet once — two processes running the check at once included — tells the customer and shows it
 * on the timeline; a request done in time, or paid after its pay-by time, is not compensated.
 */
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { type Customer, type MoneyHelpers, withMoneyServer } from '../support/money';
import { type RunningServer, startServer } from '../support/server';
import { dataOf, type TypedApi, typedApi } from '../support/typed-api';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let cardGroup: number;
let staff: TypedApi;

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  const groups = await dataOf(typedApi(server).POST('/api/public/searchPaymentMethodGroups', { body: {} }));
  cardGroup = groups.items.find((g) => !g.isCash)!.id;
  staff = typedApi(server, (await money.staffWithActions(['manageCurrencyPayments', 'viewTasks'])).token);
});

const HOUR = 3_600_000;
const DESK = { params: { path: { desk: 'sevisGeneralCpr' } } };
/** Tehran's calendar date `days` from today, as the form sends it (ISO Gregorian). */
const tehranDate = (days: number) => new Date(Date.now() + 210 * 60_000 + days * 24 * HOUR).toISOString().slice(0, 10);

const priceInputs = () => ({ currency: money.usd.id, amount: 350, requestedPaymentMethodGroup: cardGroup });

const quoteFor = (who: Customer, deadlineDate: string) =>
  dataOf(
    typedApi(server, who.token).POST('/api/me/desks/{desk}/priceInquiry', {
      ...DESK,
      body: { ...priceInputs(), deadlineDate },
    }),
  );

/** A SEVIS request with the interview on `deadlineDate`, paid from a deposit of its price. */
async function paidSevis(who: Customer, deadlineDate: string) {
  const api = typedApi(server, who.token);
  const quote = await quoteFor(who, deadlineDate);
  const purchase = await dataOf(
    api.POST('/api/me/desks/{desk}/requests', {
      params: { ...DESK.params, header: { 'Idempotency-Key': money.newKey() } },
      body: {
        ...priceInputs(),
        deadlineDate,
        quoteId: quote.quoteId,
        targetPageAddress: 'https://www.fmjfee.com/i901fee/index.html',
        targetPageUsername: 'student1',
        targetPagePassword: 'secret',
      },
    }),
  );
  await money.deposit(who, purchase.expectedPrice);
  const paid = await money.payOk(who, purchase.id);
  expect(paid.purchase.state).toBe('paid');
  const detail = await dataOf(api.POST('/api/me/fetchPurchase', { body: { purchase: purchase.id } }));
  return { quote, purchase: detail.purchase, api };
}

const compensations = (purchaseId: number) =>
  db
    .selectFrom('ledgerTransactions')
    .select(['id', 'type', 'userId'])
    .where('idempotencyKey', '=', `purchase:${purchaseId}:compensation`)
    .execute();

describe('the promise at the quote', () => {
  it("answers «cannot meet» with the desk's reason for an interview too close", async () => {
    const who = await money.customer();
    const quote = await quoteFor(who, tehranDate(2));
    expect(quote.promise).toMatchObject({ canMeet: false, deadline: tehranDate(2) });
    expect(quote.promise!.text).toContain('پیش از این موعد قول انجام نمی‌دهیم');
    expect(quote.promise!.text).toContain('سه روز کاری پیش از مصاحبه');
    expect(quote.promise!.text).toContain('بدون این قول');
    expect(quote.promise!.text).not.toMatch(/[0-9]/);
  });

  it('answers the pay-by time for a far interview; no deadline, no promise', async () => {
    const who = await money.customer();
    const quote = await quoteFor(who, tehranDate(40));
    const promise = quote.promise!;
    expect(promise.canMeet).toBe(true);
    expect(Date.parse(promise.payBy!)).toBeGreaterThan(Date.now());
    expect(Date.parse(promise.payBy!)).toBeLessThan(Date.parse(promise.doneBy!));
    // Done three working days before the interview day begins in Tehran.
    expect(Date.parse(promise.doneBy!)).toBeLessThan(Date.parse(`${tehranDate(37)}T00:00:00+03:30`));
    expect(promise.text).toMatch(/^اگر تا .+ پرداخت کنید، پیش از .+ انجام می‌شود\.$/);
    expect(promise.text).not.toMatch(/[0-9]/);

    const plain = await dataOf(
      typedApi(server, who.token).POST('/api/me/desks/{desk}/priceInquiry', { ...DESK, body: priceInputs() }),
    );
    expect(plain.promise).toBeNull();
  });
});

describe('compensation without asking', () => {
  it('compensates a promised request passed its promise exactly once, even with two processes checking', async () => {
    const who = await money.customer();
    const { quote, purchase, api } = await paidSevis(who, tehranDate(40));
    expect(purchase.promise).toMatchObject({ promisedBy: quote.promise!.doneBy, compensatedAt: null });
    expect(purchase.promise!.text).toContain('قول داده‌ایم پیش از');
    const before = await money.balanceOf(who);
    const after = new Date(Date.parse(quote.promise!.doneBy!) + HOUR);

    // Not yet: the clock before the promise compensates nothing.
    expect(await server.app.compensateMissedPromises(new Date(Date.parse(quote.promise!.doneBy!) - HOUR))).toBe(0);

    // A second process on the same database (PostgreSQL), or a second check in this one (the embedded database).
    const second = process.env.TEST_DATABASE_URL ? await startServer({ web: false, resetDatabase: false }) : server;
    try {
      const runs = await Promise.all([
        server.app.compensateMissedPromises(after),
        second.app.compensateMissedPromises(after),
        server.app.compensateMissedPromises(after),
      ]);
      expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    } finally {
      if (second !== server) await second.stop();
    }
    expect(await server.app.compensateMissedPromises(new Date(after.getTime() + 24 * HOUR))).toBe(0);

    const posted = await compensations(purchase.id);
    expect(posted).toEqual([expect.objectContaining({ type: 'transaction_K', userId: who.userId })]);
    expect(await money.balanceOf(who)).toEqual({
      balance: before.balance + quote.costs.fee,
      reserved: before.reserved,
    });

    const detail = await dataOf(api.POST('/api/me/fetchPurchase', { body: { purchase: purchase.id } }));
    expect(detail.purchase.promise).toMatchObject({ compensation: quote.costs.fee });
    expect(detail.purchase.promise!.text).toContain('جبران به کیف پول برگشت');
    const step = detail.timeline.steps.find((s) => s.kind === 'compensated');
    expect(step).toMatchObject({ actor: 'system', actorTitle: 'سامانه' });
    expect(step!.words).toContain('که قول داده بودیم انجام نشد');

    const told = await db
      .selectFrom('notifications')
      .select(['kind', 'text'])
      .where('purchaseId', '=', purchase.id)
      .where('kind', '=', 'promiseCompensated')
      .execute();
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('جبران به کیف پول برگشت');

    const wallet = await money.transactions(who);
    expect(wallet.find((t) => String(t.title).startsWith('جبران قول انجام‌نشده'))).toMatchObject({
      walletAccountEffect: quote.costs.fee,
    });
  });

  it('does not compensate a request done in time, nor one paid after its pay-by time', async () => {
    const who = await money.customer();
    const { quote, purchase } = await paidSevis(who, tehranDate(40));
    const task = await db
      .selectFrom('tasks')
      .select('id')
      .where('purchaseId', '=', purchase.id)
      .executeTakeFirstOrThrow();
    await dataOf(staff.POST('/api/sys/fetchFulfilmentTaskData', { body: { taskId: task.id } }));
    await dataOf(
      staff.POST('/api/sys/uafCprDone', {
        body: {
          purchase: purchase.id,
          realPrice: purchase.expectedPrice,
          currencyPaymentReference: 'N0012345678',
          foreignAmount: 350,
        },
      }),
    );
    const late = await paidSevis(who, tehranDate(2));
    expect(late.purchase.promise).toMatchObject({ promisedBy: null, compensatedAt: null });
    expect(late.purchase.promise!.text).toContain('پس از مهلت قول پرداخت شد');

    const past = new Date(Date.parse(quote.promise!.doneBy!) + 24 * HOUR);
    expect(await server.app.compensateMissedPromises(past)).toBe(0);
    expect(await compensations(purchase.id)).toEqual([]);
    expect(await compensations(late.purchase.id)).toEqual([]);
  });
});
