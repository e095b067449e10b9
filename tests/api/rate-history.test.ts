/**
 * Rate history (issue 35): every rate staff save is kept, in order, and read back by the public `searchRateHistory`
 * with the rate in effect at the start of the range; a range over a year is refused with a Persian 422.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;
let admin: string;
let eur: { id: number; title: string; code: string; rate: number };

beforeAll(async () => {
  server = await startServer({ web: false });
  admin = await loginAdmin(server);
  const list = (await post(server, '/api/public/searchCurrencies')).body.data as { items: Array<typeof eur> };
  eur = list.items.find((c) => c.code === 'EUR')!;
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

const saveRate = (rate: number) =>
  post(
    server,
    '/api/sys/saveCurrency',
    { id: eur.id, title: eur.title, code: 'EUR', rate, useForUafCpr: true, useForGoogleAdsAccountCr: true },
    bearer(admin),
  );
const history = (body: object) => post(server, '/api/public/searchRateHistory', body);

describe('rate history', () => {
  it('returns every saved change in order, after the rate in effect at the start', async () => {
    const start = new Date();
    const rates = [1_130_000, 1_141_000, 1_125_500, 1_160_000];
    for (const rate of rates) expect((await saveRate(rate)).status).toBe(200);
    // Saving the same rate again is not a change.
    expect((await saveRate(1_160_000)).status).toBe(200);
    const res = await history({
      currency: 'EUR',
      from: new Date(start.getTime() - 1).toISOString(),
      to: new Date(Date.now() + 1000).toISOString(),
    });
    expect(res.status).toBe(200);
    const data = res.body.data as {
      code: string;
      openingRate: { rate: number; at: string } | null;
      points: Array<{ rate: number; at: string }>;
    };
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
    expect(year.status).toBe(200);
    const tooLong = await history({
      currency: 'EUR',
      from: new Date(to.getTime() - 400 * 86_400_000).toISOString(),
      to: to.toISOString(),
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toMatchObject({ result: false, msg: 'بازهٔ تاریخچهٔ نرخ حداکثر یک سال است.' });
    const backwards = await history({ currency: 'EUR', from: to.toISOString(), to: new Date(0).toISOString() });
    expect(backwards.status).toBe(422);
    const unknown = await history({
      currency: 'XYZ',
      from: new Date(0).toISOString(),
      to: new Date(1e9).toISOString(),
    });
    expect(unknown.status).toBe(404);
    const bad = await history({ currency: 'usd', from: 'yesterday', to: to.toISOString() });
    expect(bad.status).toBe(400);
  });
});
