/**
 * The request page's detail (api/me/fetchPurchase) in one query (issue 50 point 3), at every step of a request: it
 * waits for payment, is paid, taken by staff and done with a currency payment and its receipt code; someone else's
 * request is refused by the same query. Every query the server sends meanwhile is counted (Kysely's executor).
 */
import { describe, expect, it } from 'vitest';
import { type MoneyServer, withMoneyServer } from '../support/money';
import { queriesOf } from '../support/query-log';
import { bearer, post } from '../support/server';
import { typedApi } from '../support/typed-api';

let t: MoneyServer;
let staff: { token: string };
withMoneyServer({ web: false }, async (ready) => {
  t = ready;
  staff = await ready.money.staffWithActions(['manageCurrencyPayments', 'viewTasks']);
});

/** The queries of one fetch of the request page by `token`, and its answer's status and data. */
async function detailOf(token: string, purchase: number) {
  let res: Awaited<ReturnType<typeof fetchPurchase>> | undefined;
  const queries = await queriesOf(t.db, async () => {
    res = await fetchPurchase(token, purchase);
  });
  // The SMS worker delivers notifications on its own timer meanwhile: its queries are not the page's.
  const own = queries.filter((q) => !/^update "notification_sms"/.test(q));
  return { queries: own, status: res!.response.status, data: res!.data?.data };
}

const fetchPurchase = (token: string, purchase: number) =>
  typedApi(t.server, token).POST('/api/me/fetchPurchase', { body: { purchase } });

describe('the request page', () => {
  it('reads a request and all it shows in one query, at each step of the request', async () => {
    const { money, server, db } = t;
    const who = await money.customer();
    const waiting = await money.request(who, 10);
    // Warm: a customer's first request fills the caches (session, access) every later one reads.
    await fetchPurchase(who.token, waiting.id);
    const seen = [await detailOf(who.token, waiting.id)];
    const paid = await money.paidRequest(who, 10);
    seen.push(await detailOf(who.token, paid.id));

    const task = await db.selectFrom('tasks').select('id').where('purchaseId', '=', paid.id).executeTakeFirstOrThrow();
    const taken = await post(server, '/api/sys/fetchFulfilmentTaskData', { taskId: task.id }, bearer(staff.token));
    expect(taken.status, taken.body.msg).toBe(200);
    seen.push(await detailOf(who.token, paid.id));
    const done = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: paid.id, realPrice: paid.expectedPrice - 50_000, currencyPaymentReference: 'ETS-50' },
      bearer(staff.token),
    );
    expect(done.status, done.body.msg).toBe(200);
    // Its first showing makes the finished request's receipt code (receipt-verification.ts), once; then one query.
    const first = await detailOf(who.token, paid.id);
    expect(first.queries.filter((q) => q.startsWith('insert into "receipt_codes"'))).toHaveLength(1);
    const finished = await detailOf(who.token, paid.id);
    seen.push(finished);
    expect(finished.data?.currencyPayment?.verificationCode).toBe(first.data?.currencyPayment?.verificationCode);

    expect(seen.map((s) => s.data?.purchase.state)).toEqual([
      'waitingForPayment',
      'paid',
      'inProgress',
      'purchaseSucceeded',
    ]);
    for (const { queries, status } of seen) {
      expect(status).toBe(200);
      expect(queries, queries.join('\n')).toHaveLength(1);
    }
    // Done: the currency payment with its receipt code, read in the same query.
    const receipt = finished.data?.currencyPayment;
    expect(receipt?.reference).toBe('ETS-50');
    expect(receipt?.verificationCode).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    expect(finished.data?.timeline.steps.map((s) => s.kind)).toEqual(['submitted', 'paid', 'taken', 'done']);

    // Someone else's request: not found, by the same one query.
    const stranger = await money.customer();
    await fetchPurchase(stranger.token, waiting.id);
    const refused = await detailOf(stranger.token, paid.id);
    expect(refused.status).toBe(404);
    expect(refused.queries, refused.queries.join('\n')).toHaveLength(1);
  });
});
