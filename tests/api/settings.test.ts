/**
 * System parameters have one set of defaults (issue 16): a key missing from the database or holding something
 * that is not a number reads as its default in schemas/config/systemParameters.json, for pricing as for the SMS
 * code lifetime; before, pricing fell back to its own 0 % fee and 1-cent minimum.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import defaults from '../../schemas/config/systemParameters.json' with { type: 'json' };
import { bearer, loginByCode, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;
let usd: { id: number; rate: number };
let cardGroup: number;
const byDefault = (key: string) => defaults.parameters.find((p) => p.key === key)!.value;

beforeAll(async () => {
  server = await startServer({ web: false });
  const currencies = await post(server, '/api/public/searchCurrencies');
  usd = (currencies.body.data as { items: Array<{ id: number; code: string; rate: number }> }).items.find(
    (c) => c.code === 'USD',
  )!;
  const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
    items: Array<{ id: number; isCash: boolean }>;
  };
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

const priceInquiry = (token: string, amount: number) =>
  post(
    server,
    '/api/me/desks/uafCpr/priceInquiry',
    { currency: usd.id, amount, requestedPaymentMethodGroup: cardGroup },
    bearer(token),
  );

describe('a missing or unreadable system parameter', () => {
  it('prices with the documented default fee', async () => {
    const token = await loginByCode(server, '09150000071');
    const res = await priceInquiry(token, 100);
    expect(res.status).toBe(200);
    const gross = 100 * usd.rate;
    const fee = Math.round((gross * byDefault('feePercent')) / 100) + byDefault('fixedFee');
    expect(byDefault('feePercent')).toBeGreaterThan(0);
    expect((res.body.data as { costs: { fee: number } }).costs.fee).toBe(fee);
  });

  it('refuses an amount under the documented default minimum', async () => {
    const token = await loginByCode(server, '09150000072');
    const below = (byDefault('minAmount') - 1) / 100;
    const res = await priceInquiry(token, below);
    expect(res.status).toBe(422);
    expect(res.body.msg).toBe('مبلغ کمتر از حداقل مجاز است.');
    expect((await priceInquiry(token, byDefault('minAmount') / 100)).status).toBe(200);
  });

  it('gives an SMS code the documented default lifetime', async () => {
    const res = await post(server, '/api/public/sendMobileValidationCode', { mobileNo: '09150000073' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      expirationDuration: byDefault('mobileValidationCodeLifetimeSeconds'),
      activeCodeExists: false,
    });
  });
});
