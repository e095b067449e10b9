/**
 * Each desk's promises kept, in public (decision 041), on a real server and database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): the SEVIS desk with three promised requests — two done in time, one compensated when the clock
 * passed its promise — answers «۲ از ۳» to a guest, with counts only; a request paid after its pay-by time (not
 * promised) and another desk's requests are not counted; a new desk says nothing; staff see each promising desk's
 * record and the compensation paid (count and rial).
 */
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { type Customer, type MoneyHelpers, withMoneyServer } from '../support/money';
import type { RunningServer } from '../support/server';
import { dataOf, refusal, type TypedApi, typedApi } from '../support/typed-api';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let cardGroup: number;
let staff: TypedApi;

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  const groups = await dataOf(typedApi(server).POST('/api/public/searchPaymentMethodGroups', { body: {} }));
  cardGroup = groups.items.find((g) => !g.isCash)!.id;
  staff = typedApi(
    server,
    (await money.staffWithActions(['manageCurrencyPayments', 'viewTasks', 'viewRequests'])).token,
  );
});

const HOUR = 3_600_000;
const SEVIS = 'sevisGeneralCpr';
/** Tehran's calendar date `days` from today, as the form sends it (ISO Gregorian). */
const tehranDate = (days: number) => new Date(Date.now() + 210 * 60_000 + days * 24 * HOUR).toISOString().slice(0, 10);

const recordOf = (desk: string) =>
  dataOf(typedApi(server).POST('/api/public/desks/{desk}/fetchPromiseRecord', { params: { path: { desk } } }));

/** A SEVIS request with the interview on `deadlineDate`, paid from a deposit of its price. */
async function paidSevis(who: Customer, deadlineDate: string) {
  const api = typedApi(server, who.token);
  const inputs = { currency: money.usd.id, amount: 350, requestedPaymentMethodGroup: cardGroup, deadlineDate };
  const params = { path: { desk: SEVIS } };
  const quote = await dataOf(api.POST('/api/me/desks/{desk}/priceInquiry', { params, body: inputs }));
  const purchase = await dataOf(
    api.POST('/api/me/desks/{desk}/requests', {
      params: { ...params, header: { 'Idempotency-Key': money.newKey() } },
      body: {
        ...inputs,
        quoteId: quote.quoteId,
        targetPageAddress: 'https://www.fmjfee.com/i901fee/index.html',
        targetPageUsername: 'student1',
        targetPagePassword: 'secret',
      },
    }),
  );
  await money.deposit(who, purchase.expectedPrice);
  expect((await money.payOk(who, purchase.id)).purchase.state).toBe('paid');
  return { quote, purchase };
}

/** Staff fulfil the SEVIS request now. */
async function fulfil(purchase: { id: number; expectedPrice: number }) {
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
}

describe("a desk's promises kept, in public", () => {
  it('counts the last promised requests of the desk only: «۲ از ۳», counts without names; staff see it with the compensation', async () => {
    // A desk that has promised nothing yet says nothing; a desk that promises nothing has no record.
    expect(await recordOf(SEVIS)).toEqual({ record: null });
    expect(
      await refusal(
        typedApi(server).POST('/api/public/desks/{desk}/fetchPromiseRecord', {
          params: { path: { desk: 'noSuchDesk' } },
        }),
      ),
    ).toMatchObject({ status: 404, msg: 'این میز خدمت وجود ندارد.' });

    const who = await money.customer();
    const first = await paidSevis(who, tehranDate(40));
    const second = await paidSevis(who, tehranDate(41));
    const missed = await paidSevis(who, tehranDate(42));
    await fulfil(first.purchase);
    await fulfil(second.purchase);
    const after = new Date(Date.parse(missed.quote.promise!.doneBy!) + HOUR);
    expect(await server.app.compensateMissedPromises(after)).toBe(1);

    // Not promised (paid after its pay-by time), though done: not in the record.
    const late = await paidSevis(who, tehranDate(2));
    expect(late.purchase.promise).toMatchObject({ promisedBy: null });
    await fulfil(late.purchase);
    // Another desk's promised request (its promise passed): counted for that desk, never for SEVIS.
    const other = await db
      .updateTable('purchases')
      .set({ promisedBy: new Date(Date.now() - HOUR) })
      .where('id', '=', (await money.paidRequest(who)).id)
      .returning('desk')
      .executeTakeFirstOrThrow();
    expect(other.desk).not.toBe(SEVIS);

    const { record } = await recordOf(SEVIS);
    expect(record).toEqual({ kept: 2, total: 3, text: '۲ از ۳ درخواست آخر پیش از موعد انجام شد' });
    // Counts only (the exact keys above): nothing of who asked, paid or was compensated.
    expect(Object.keys(record!).sort()).toEqual(['kept', 'text', 'total']);
    expect(JSON.stringify(record)).not.toContain(who.nationalCode);
    // The other desk promises nothing in the catalogue: it shows no record.
    expect(await recordOf(other.desk)).toEqual({ record: null });

    const table = await dataOf(staff.POST('/api/sys/searchPromiseRecords'));
    expect(table).toMatchObject({ windowSize: 20, compensationDays: 30 });
    expect(table.items).toEqual([
      {
        desk: SEVIS,
        deskTitle: expect.any(String),
        kept: 2,
        total: 3,
        open: 0,
        compensatedCount: 1,
        compensatedRial: missed.quote.costs.fee,
      },
    ]);
    expect(missed.quote.costs.fee).toBeGreaterThan(0);
  });

  it('is for staff who see requests only', async () => {
    const other = typedApi(server, (await money.staffWithActions(['viewTasks'])).token);
    expect(await refusal(other.POST('/api/sys/searchPromiseRecords'))).toMatchObject({ status: 403 });
    expect(await refusal(typedApi(server).POST('/api/sys/searchPromiseRecords'))).toMatchObject({ status: 401 });
  });
});
