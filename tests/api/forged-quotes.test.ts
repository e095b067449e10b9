/**
 * A quote signed with the server's own key but at terms the server never offered is refused (issue 43, point 1), on
 * a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL): whoever holds the signing key (as a
 * backup's holder once did) cannot set their own rate, fees or expiry. The test signs with the key the server
 * derives from its field key; a quote re-signed at exactly the offered terms still verifies, so the key is right.
 */
import { describe, expect, it } from 'vitest';
import { FieldCipher, keyFromDataDir } from '../../src/server/lib/field-cipher';
import { breakdownOf, QuoteSigner, type QuoteTerms } from '../../src/server/modules/requests/quote-token';
import type { DB } from '../../src/server/db/database';
import { type MoneyHelpers, withMoneyServer } from '../support/money';
import { bearer, post, type RunningServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
});

const DESK = 'toeflGeneralCpr';

/** The signer the server uses: its key derives from the field key in the data folder. */
const signer = () => QuoteSigner.of(new FieldCipher(keyFromDataDir(server.dataDir).key));

async function cardGroup(): Promise<number> {
  const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
    items: Array<{ id: number; isCash: boolean }>;
  };
  return groups.items.find((g) => !g.isCash)!.id;
}

describe('a quote the server never offered', () => {
  it('is refused even when signed with the server’s key: rate, fees and expiry must be the server’s own', async () => {
    const who = await money.customer();
    const group = await cardGroup();
    const form = { currency: money.usd.id, amount: 200, requestedPaymentMethodGroup: group };
    const inquiry = await post(server, `/api/me/desks/${DESK}/priceInquiry`, form, bearer(who.token));
    expect(inquiry.status, inquiry.body.msg).toBe(200);
    const offered = inquiry.body.data as {
      quoteId: string;
      rate: number;
      expiresAt: string;
      costs: { fee: number; tax: number; operationCost: number };
      expectedPrice: number;
    };
    const genuine: QuoteTerms = {
      currencyId: money.usd.id,
      paymentMethodGroupId: group,
      amountMinor: 20_000,
      rate: offered.rate,
      fee: offered.costs.fee,
      tax: offered.costs.tax,
      operationCost: offered.costs.operationCost,
      expiresAt: new Date(offered.expiresAt).getTime(),
    };
    expect(breakdownOf(genuine).expectedPrice).toBe(offered.expectedPrice);
    const submit = (quoteId: string) =>
      post(
        server,
        `/api/me/desks/${DESK}/requests`,
        {
          ...form,
          quoteId,
          targetPageAddress: 'https://www.ets.org/toefl/pay',
          targetPageUsername: 'student1',
          targetPagePassword: 'secret',
        },
        { ...bearer(who.token), 'idempotency-key': money.newKey() },
      );
    const forgeries: Array<[string, QuoteTerms]> = [
      ['a rate of 1 rial', { ...genuine, rate: 1, fee: 0, tax: 0, operationCost: 0 }],
      ['half the rate, fees recomputed honestly', { ...genuine, rate: Math.floor(offered.rate / 2) }],
      ['no fee', { ...genuine, fee: 0, tax: 0 }],
      ['no operation cost', { ...genuine, operationCost: 0 }],
      ['an expiry a year away', { ...genuine, expiresAt: Date.now() + 365 * 86_400_000 }],
    ];
    for (const [what, terms] of forgeries) {
      const res = await submit(signer().sign(terms, who.userId, DESK));
      expect(res.status, what).toBe(409);
      expect(res.body.msg, what).toBe('اطلاعات فرم با قیمت استعلام‌شده یکسان نیست. قیمت جدید را بررسی و تایید کنید.');
    }
    const made = await db.selectFrom('purchases').select('id').where('userId', '=', who.userId).execute();
    expect(made).toEqual([]);

    // The same key at exactly the offered terms verifies: the refusals above were of the terms, not the signature.
    const honest = await submit(signer().sign(genuine, who.userId, DESK));
    expect(honest.status, honest.body.msg).toBe(200);
    expect((honest.body.data as { expectedPrice: number }).expectedPrice).toBe(offered.expectedPrice);
  });
});
