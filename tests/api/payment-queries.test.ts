/**
 * How many database calls a wallet payment makes (issue 50 point 3): the price inquiry, the submission and the
 * payment from the wallet, and the request's detail the customer's page then fetches. Every query the server sends
 * is counted (Kysely's executor, in this process), each step alone, with nothing else going on.
 */
import type { QueryResult } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type MoneyServer, withMoneyServer } from '../support/money';
import { bearer, post } from '../support/server';

let t: MoneyServer;
withMoneyServer({ web: false }, (ready) => {
  t = ready;
});

/** The SQL of every query run while `step` runs. */
async function queriesOf(step: () => Promise<unknown>): Promise<string[]> {
  const executor = Object.getPrototypeOf(t.db.getExecutor()) as {
    executeQuery: (compiled: { sql: string }, ...rest: unknown[]) => Promise<QueryResult<unknown>>;
  };
  const original = executor.executeQuery;
  const seen: string[] = [];
  executor.executeQuery = function (this: unknown, compiled, ...rest) {
    seen.push(compiled.sql);
    return original.call(this, compiled, ...rest);
  };
  try {
    await step();
  } finally {
    executor.executeQuery = original;
  }
  return seen;
}

describe('one wallet payment', () => {
  it('reads and writes each thing once', async () => {
    const { money } = t;
    const who = await money.customer();
    // Warm: the first request of a customer fills the caches (session, balance) that every later one reads.
    await money.purchaseOf(who, (await money.request(who, 10)).id).catch(() => undefined);

    const form = { currency: money.usd.id, amount: 100, requestedPaymentMethodGroup: 0 };
    const groups = (await post(t.server, '/api/public/searchPaymentMethodGroups')).body.data as {
      items: Array<{ id: number; isCash: boolean }>;
    };
    form.requestedPaymentMethodGroup = groups.items.find((g) => !g.isCash)!.id;
    let quoteId = '';
    const quote = await queriesOf(async () => {
      const res = await post(t.server, '/api/me/desks/toeflGeneralCpr/priceInquiry', form, bearer(who.token));
      expect(res.status, res.body.msg).toBe(200);
      quoteId = (res.body.data as { quoteId: string }).quoteId;
    });
    let purchaseId = 0;
    let price = 0;
    const submit = await queriesOf(async () => {
      const res = await post(
        t.server,
        '/api/me/desks/toeflGeneralCpr/requests',
        {
          ...form,
          quoteId,
          targetPageAddress: 'https://www.ets.org/toefl/pay',
          targetPageUsername: 'student1',
          targetPagePassword: 'secret',
        },
        { ...bearer(who.token), 'idempotency-key': money.newKey() },
      );
      expect(res.status, res.body.msg).toBe(200);
      purchaseId = (res.body.data as { id: number }).id;
      price = (res.body.data as { expectedPrice: number }).expectedPrice;
    });
    await money.deposit(who, price);
    const pay = await queriesOf(async () => {
      expect((await money.payOk(who, purchaseId)).purchase.state).toBe('paid');
    });
    const detail = await queriesOf(() => money.purchaseOf(who, purchaseId));
    const show = (name: string, list: string[]) =>
      console.log(`${name}: ${list.length}\n  ${list.map((q) => q.replace(/\s+/g, ' ').slice(0, 160)).join('\n  ')}`);
    show('quote', quote);
    show('submit', submit);
    show('pay', pay);
    show('fetchPurchase', detail);
  });
});
