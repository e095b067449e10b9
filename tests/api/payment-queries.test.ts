/**
 * How many database calls a wallet payment makes (issue 50 point 3): the price inquiry, the submission and the
 * payment from the wallet, and the request's detail the customer's page then fetches. Every query the server sends
 * is counted (Kysely's executor, in this process), each step alone, with nothing else going on.
 */
import { describe, expect, it } from 'vitest';
import { type MoneyServer, withMoneyServer } from '../support/money';
import { queriesOf as queriesOfDb } from '../support/query-log';
import { dataOf, typedApi } from '../support/typed-api';

let t: MoneyServer;
withMoneyServer({ web: false }, (ready) => {
  t = ready;
});

/** The SQL of every query run while `step` runs. */
const queriesOf = (step: () => Promise<unknown>) => queriesOfDb(t.db, step);

describe('one wallet payment', () => {
  it('reads and writes each thing once: quote, submit, pay from the wallet, then the request page', async () => {
    const { money } = t;
    const who = await money.customer();
    // Warm: the first request of a customer fills the caches (session, balance) that every later one reads.
    await money.purchaseOf(who, (await money.request(who, 10)).id).catch(() => undefined);

    const api = typedApi(t.server, who.token);
    const groups = await dataOf(typedApi(t.server).POST('/api/public/searchPaymentMethodGroups', { body: {} }));
    const form = {
      currency: money.usd.id,
      amount: 100,
      requestedPaymentMethodGroup: groups.items.find((g) => !g.isCash)!.id,
    };
    const desk = { params: { path: { desk: 'toeflGeneralCpr' } } };
    let quoteId = '';
    const quote = await queriesOf(async () => {
      quoteId = (await dataOf(api.POST('/api/me/desks/{desk}/priceInquiry', { ...desk, body: form }))).quoteId;
    });
    let purchaseId = 0;
    let price = 0;
    const submit = await queriesOf(async () => {
      const purchase = await dataOf(
        api.POST('/api/me/desks/{desk}/requests', {
          params: { ...desk.params, header: { 'Idempotency-Key': money.newKey() } },
          body: {
            ...form,
            quoteId,
            targetPageAddress: 'https://www.ets.org/toefl/pay',
            targetPageUsername: 'student1',
            targetPagePassword: 'secret',
          },
        }),
      );
      purchaseId = purchase.id;
      price = purchase.expectedPrice;
    });
    await money.deposit(who, price);
    const pay = await queriesOf(async () => {
      expect((await money.payOk(who, purchaseId)).purchase.state).toBe('paid');
    });
    const detail = await queriesOf(() => dataOf(api.POST('/api/me/fetchPurchase', { body: { purchase: purchaseId } })));
    const show = (name: string, list: string[]) =>
      console.log(`${name}: ${list.length}\n  ${list.map((q) => q.replace(/\s+/g, ' ').slice(0, 140)).join('\n  ')}`);
    // The SMS worker delivers the payment's notification on its own timer meanwhile: its queries are not the payment's.
    const own = (list: string[]) => list.filter((q) => !/^update "notification_sms"/.test(q));
    const count = (list: string[], pattern: RegExp) => list.filter((q) => pattern.test(q)).length;
    show('submit', own(submit));
    show('pay', own(pay));
    show('fetchPurchase', detail);
    expect(quote).toEqual([]);

    // The claim of the key is inserted, and the whole answer stored with the money, read in the payment's transaction
    // (a replay answers exactly as the first time: tests/api/crash-safety.test.ts); no look for an earlier answer
    // before the claim (the claim finds one).
    expect(count(pay, /^update "pay_requests"/)).toBe(1);
    expect(count(pay, /^select .* from "pay_requests"/)).toBe(0);
    // The ledger: the wallet is locked to decide, and the posting locks and reads its accounts in one query (a replay
    // is found by the key's unique index: no look first); the customer's new reservation account is locked by its
    // insert; every balance moves in one statement.
    expect(count(pay, /from "ledger_transactions"/)).toBe(0);
    expect(count(pay, /from "ledger_accounts" .*for update$/)).toBe(2);
    expect(count(pay, /^update "?ledger_accounts/)).toBe(1);
    // A request looked up by id is not counted as a page of a list would be.
    for (const list of [submit, pay, detail]) expect(count(list, /count\(\*\)::int as "total"/)).toBe(0);
    // The request itself: locked to pay and read for the answer (its live event is sent from what the payment knew;
    // a request without a deadline is not read again for one).
    expect(count(pay, /from "purchases"/)).toBeLessThanOrEqual(2);
    expect(count(pay, /^update "purchases"/)).toBe(1);
    // Before (main at ee5e9e4): 34 for the payment (the customer's first: it opens their reserved account), 13 for
    // the request page. The desk funnel's count of paid requests (decision 046) adds one, inside the payment.
    expect(count(pay, /^insert into "desk_funnel_paid"/)).toBe(1);
    // After (issue 50 point 4): 18, the notification's live event's read of the uid included.
    expect(own(pay).length).toBeLessThanOrEqual(18);
    // The request page: one query (tests/api/purchase-detail-queries.test.ts).
    expect(own(detail)).toHaveLength(1);
  });
});
