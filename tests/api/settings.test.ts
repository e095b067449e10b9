/**
 * System parameters have one set of defaults (docs/architecture.md, settings): a key missing from the database or holding something
 * that is not a number reads as its default in schemas/config/systemParameters.json, for pricing as for the SMS
 * code lifetime; before, pricing fell back to its own 0 % fee and 1-cent minimum.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import defaults from '../../schemas/config/systemParameters.json' with { type: 'json' };
import { type RunningServer, startServer } from '../support/server';
import { dataOf, refusal, signedInApi, type TypedApi, typedApi } from '../support/typed-api';

let server: RunningServer;
let usd: { id: number; rate: number };
let cardGroup: number;
const byDefault = (key: string) => defaults.parameters.find((p) => p.key === key)!.value;

beforeAll(async () => {
  server = await startServer({ web: false });
  const guest = typedApi(server);
  const currencies = await dataOf(guest.POST('/api/public/searchCurrencies', { body: {} }));
  usd = currencies.items.find((c) => c.code === 'USD')!;
  const groups = await dataOf(guest.POST('/api/public/searchPaymentMethodGroups', { body: {} }));
  cardGroup = groups.items.find((g) => !g.isCash)!.id;
  // What a hand edit of the database could leave: a row gone, a row that is not a number.
  const { db } = server.app.database;
  await db
    .deleteFrom('systemParameters')
    .where('key', 'in', ['feePercent', 'mobileValidationCodeLifetimeSeconds'])
    .execute();
  await db
    .updateTable('systemParameters')
    .set({ value: JSON.stringify('not a number') })
    .where('key', '=', 'minAmount')
    .execute();
});
afterAll(async () => server?.stop());

const priceInquiry = (api: TypedApi, amount: number) =>
  api.POST('/api/me/desks/{desk}/priceInquiry', {
    params: { path: { desk: 'uafCpr' } },
    body: { currency: usd.id, amount, requestedPaymentMethodGroup: cardGroup },
  });

describe('a missing or unreadable system parameter', () => {
  it('prices with the documented default fee', async () => {
    const api = await signedInApi(server, '09150000071');
    const quote = await dataOf(priceInquiry(api, 100));
    const gross = 100 * usd.rate;
    const fee = Math.round((gross * byDefault('feePercent')) / 100) + byDefault('fixedFee');
    expect(byDefault('feePercent')).toBeGreaterThan(0);
    expect(quote.costs.fee).toBe(fee);
  });

  it('refuses an amount under the documented default minimum', async () => {
    const api = await signedInApi(server, '09150000072');
    const below = (byDefault('minAmount') - 1) / 100;
    expect(await refusal(priceInquiry(api, below))).toEqual({ status: 422, msg: 'مبلغ کمتر از حداقل مجاز است.' });
    expect((await priceInquiry(api, byDefault('minAmount') / 100)).response.status).toBe(200);
  });

  it('gives an SMS code the documented default lifetime', async () => {
    const sent = typedApi(server).POST('/api/public/sendMobileValidationCode', { body: { mobileNo: '09150000073' } });
    expect(await dataOf(sent)).toEqual({
      expirationDuration: byDefault('mobileValidationCodeLifetimeSeconds'),
      activeCodeExists: false,
    });
  });
});
