/**
 * Rate history (decision 029): every rate staff save is kept, in order, and read back by the public `searchRateHistory`
 * with the rate in effect at the start of the range; a range over a year is refused with a Persian 422.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server';
import { adminApi, type BodyOf, dataOf, type TypedApi, typedApi } from '../support/typed-api';

let server: RunningServer;
let admin: TypedApi;
let eur: { id: number; title: string; code: string; rate: number };

beforeAll(async () => {
  server = await startServer({ web: false });
  admin = await adminApi(server);
  const list = await dataOf(typedApi(server).POST('/api/public/searchCurrencies', { body: {} }));
  eur = list.items.find((c) => c.code === 'EUR')!;
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

const saveRate = async (rate: number) =>
  (
    await admin.POST('/api/sys/saveCurrency', {
      body: { id: eur.id, title: eur.title, code: 'EUR', rate, useForUafCpr: true, useForGoogleAdsAccountCr: true },
    })
  ).response;
const history = (body: BodyOf<'searchRateHistory'>) => typedApi(server).POST('/api/public/searchRateHistory', { body });

describe('rate history', () => {
  it('returns every saved change in order, after the rate in effect at the start', async () => {
    const start = new Date();
    const rates = [1_130_000, 1_141_000, 1_125_500, 1_160_000];
    for (const rate of rates) expect((await saveRate(rate)).status).toBe(200);
    // Saving the same rate again is not a change.
    expect((await saveRate(1_160_000)).status).toBe(200);
    const res = history({
      currency: 'EUR',
      from: new Date(start.getTime() - 1).toISOString(),
      to: new Date(Date.now() + 1000).toISOString(),
    });
    const data = await dataOf(res);
    expect(data.code).toBe('EUR');
    // The seeded rate is the first point of the history, in effect when the range starts.
    expect(data.openingRate?.rate).toBe(eur.rate);
    expect(data.points.map((p) => p.rate)).toEqual(rates);
    const times = data.points.map((p) => Date.parse(p.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const row = await server.app.database.db
      .selectFrom('currencyRateHistory')
      .selectAll()
      .where('currencyId', '=', eur.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ rate: 1_160_000, changedBy: expect.any(Number) });
  });

  it('answers a year but refuses a range over a year, or one that ends before it starts, in Persian', async () => {
    const to = new Date();
    const year = await history({
      currency: 'EUR',
      from: new Date(to.getTime() - 365 * 86_400_000).toISOString(),
      to: to.toISOString(),
    });
    expect(year.response.status).toBe(200);
    const tooLong = await history({
      currency: 'EUR',
      from: new Date(to.getTime() - 400 * 86_400_000).toISOString(),
      to: to.toISOString(),
    });
    expect(tooLong.response.status).toBe(422);
    expect(tooLong.error).toMatchObject({ result: false, msg: 'بازهٔ تاریخچهٔ نرخ حداکثر یک سال است.' });
    const backwards = await history({ currency: 'EUR', from: to.toISOString(), to: new Date(0).toISOString() });
    expect(backwards.response.status).toBe(422);
    const unknown = await history({
      currency: 'XYZ',
      from: new Date(0).toISOString(),
      to: new Date(1e9).toISOString(),
    });
    expect(unknown.response.status).toBe(404);
    const bad = await history({ currency: 'usd', from: 'yesterday', to: to.toISOString() });
    expect(bad.response.status).toBe(400);
  });
});
