/**
 * The currency payments list (api/sys/searchCurrencyPayments) on a real server and database (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL): every payment recorded by uafCprDone with its request's customer, the currency, the
 * foreign amount, the reference, the real price, the staff member and the receipt; escaped search, a date range,
 * paging; refused to customers and to staff without manageCurrencyPayments.
 */
import { describe, expect, it } from 'vitest';
import { type MoneyHelpers, withMoneyServer } from '../support/money';
import { bearer, post, type RunningServer } from '../support/server';

let server: RunningServer;
let money: MoneyHelpers;
let staff: { token: string; userId: number };

withMoneyServer({ web: false }, async (t) => {
  ({ server, money } = t);
  staff = await money.staffWithActions(['manageCurrencyPayments', 'viewTasks']);
});

interface Row {
  id: number;
  purchaseId: number;
  userId: number;
  customerName: string;
  mobileNo: string | null;
  currencyCode: string;
  foreignAmount: number;
  reference: string;
  realPrice: number;
  staffName: string;
  receiptFile: string | null;
  createdAt: string;
}

const search = async (body: Record<string, unknown>, token = staff.token) => {
  const res = await post(server, '/api/sys/searchCurrencyPayments', body, bearer(token));
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as { items: Row[]; total: number };
};

describe('searchCurrencyPayments', () => {
  it('lists recorded payments with the customer, newest first; searches escaped; filters by date; pages', async () => {
    const who = await money.customer();
    const first = await money.paidRequest(who, 10);
    const second = await money.paidRequest(who, 20);
    for (const [purchase, reference] of [
      [first, 'CP-100_A'],
      [second, 'CP-200xB'],
    ] as const) {
      const res = await post(
        server,
        '/api/sys/uafCprDone',
        { purchase: purchase.id, realPrice: purchase.expectedPrice - 5_000, currencyPaymentReference: reference },
        bearer(staff.token),
      );
      expect(res.status, res.body.msg).toBe(200);
    }
    const mine = await search({ search: String(who.nationalCode) });
    expect(mine.total).toBe(2);
    expect(mine.items.map((r) => r.purchaseId)).toEqual([second.id, first.id]);
    expect(mine.items[1]).toMatchObject({
      purchaseId: first.id,
      userId: who.userId,
      currencyCode: 'USD',
      foreignAmount: 10,
      reference: 'CP-100_A',
      realPrice: first.expectedPrice - 5_000,
      receiptFile: null,
    });
    expect(mine.items[1]!.staffName).not.toBe('');
    expect(mine.items[1]!.mobileNo).toMatch(/^09/);

    // '_' is a character, not LIKE's any-one wildcard: 'CP-100_A' matches, 'CP-200xB' does not.
    expect((await search({ search: '100_a' })).items.map((r) => r.purchaseId)).toEqual([first.id]);
    expect((await search({ search: '200_B' })).total).toBe(0);
    expect((await search({ search: '%' })).total).toBe(0);
    expect((await search({ search: String(second.id) })).items.map((r) => r.purchaseId)).toContain(second.id);

    // The days the two were recorded on (UTC), both included.
    const from = mine.items[1]!.createdAt.slice(0, 10);
    const to = mine.items[0]!.createdAt.slice(0, 10);
    expect((await search({ search: String(who.nationalCode), from, to })).total).toBe(2);
    expect((await search({ search: String(who.nationalCode), to: '2000-01-01' })).total).toBe(0);
    const page = await search({ search: String(who.nationalCode), perPage: 1, page: 2 });
    expect(page).toMatchObject({ total: 2 });
    expect(page.items.map((r) => r.purchaseId)).toEqual([first.id]);
  });

  it('refuses customers and staff without the action; a guest is 401', async () => {
    const who = await money.customer();
    const viewer = await money.staffWithActions(['viewTasks']);
    for (const token of [who.token, viewer.token]) {
      expect((await post(server, '/api/sys/searchCurrencyPayments', {}, bearer(token))).status).toBe(403);
    }
    expect((await post(server, '/api/sys/searchCurrencyPayments', {})).status).toBe(401);
  });
});
