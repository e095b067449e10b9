/**
 * Rate alerts (decision 029): a customer's alert fires once when a saved rate crosses it (in the app and by SMS, in the
 * save's transaction), not again while the rate stays beyond, again after it comes back and crosses anew; a paused
 * or expired alert stays silent; the sixth alert is refused and another customer's cannot be removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server';
import { adminApi, type BodyOf, dataOf, refusal, signedInApi, type TypedApi, typedApi } from '../support/typed-api';

let server: RunningServer;
let admin: TypedApi;
let currency: { id: number; title: string; code: string; rate: number };

beforeAll(async () => {
  // The SMS worker's timer is off: the test reads the outbox rows the save wrote.
  server = await startServer({ web: false, env: { NOTIFICATION_SMS_INTERVAL_MS: '3600000' } });
  admin = await adminApi(server);
  const list = await dataOf(typedApi(server).POST('/api/public/searchCurrencies', { body: {} }));
  currency = list.items.find((c) => c.code === 'GBP')!;
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

const db = () => server.app.database.db;
const setRate = async (rate: number) => {
  const res = await admin.POST('/api/sys/saveCurrency', {
    body: {
      id: currency.id,
      title: currency.title,
      code: currency.code,
      rate,
      useForUafCpr: true,
      useForGoogleAdsAccountCr: true,
    },
  });
  expect(res.response.status).toBe(200);
};
const userIdOf = async (api: TypedApi) => (await dataOf(api.POST('/api/me/fetchUserData'))).id;
const alertsOf = async (userId: number) =>
  db()
    .selectFrom('notifications')
    .select(['id', 'text'])
    .where('userId', '=', userId)
    .where('kind', '=', 'rateAlert')
    .orderBy('id')
    .execute();
const smsOf = async (userId: number) =>
  db()
    .selectFrom('notificationSms')
    .innerJoin('notifications', 'notifications.id', 'notificationSms.notificationId')
    .select('notificationSms.text')
    .where('notifications.userId', '=', userId)
    .where('notifications.kind', '=', 'rateAlert')
    .execute();
const save = (api: TypedApi, body: BodyOf<'saveRateAlert'>) => api.POST('/api/me/saveRateAlert', { body });
const listOf = (api: TypedApi) => dataOf(api.POST('/api/me/searchRateAlerts'));

describe('rate alerts', () => {
  it('fires once per crossing: not again while beyond, again after the rate comes back and crosses anew', async () => {
    await setRate(1_300_000);
    const customer = await signedInApi(server, '09171350001');
    const userId = await userIdOf(customer);
    const set = await save(customer, { currencyId: currency.id, direction: 'below', threshold: 1_250_000 });
    expect(set.response.status).toBe(200);
    expect(set.data!.data).toMatchObject({ direction: 'below', threshold: 1_250_000, paused: false, beyond: false });

    await setRate(1_270_000); // still above: nothing
    expect(await alertsOf(userId)).toHaveLength(0);
    await setRate(1_249_000); // crosses
    const first = await alertsOf(userId);
    expect(first).toHaveLength(1);
    expect(first[0]!.text).toBe(`نرخ ${currency.title} به ۱٬۲۴۹٬۰۰۰ ریال رسید؛ هشدار شما: ۱٬۲۵۰٬۰۰۰ ریال یا کمتر.`);
    expect(await smsOf(userId)).toEqual([{ text: first[0]!.text }]);

    await setRate(1_240_000); // stays beyond: silent
    await setRate(1_250_000); // exactly at the threshold still meets it
    expect(await alertsOf(userId)).toHaveLength(1);

    await setRate(1_260_000); // comes back
    expect(await alertsOf(userId)).toHaveLength(1);
    await setRate(1_200_000); // crosses anew
    expect(await alertsOf(userId)).toHaveLength(2);
    expect(await smsOf(userId)).toHaveLength(2);

    const listed = await listOf(customer);
    expect(listed.max).toBe(5);
    expect(listed.items).toEqual([
      expect.objectContaining({ firedCount: 2, beyond: true, expired: false, currencyCode: currency.code }),
    ]);
  });

  it('an "above" alert set while the rate already meets it fires only after the rate comes back and crosses', async () => {
    await setRate(1_300_000);
    const customer = await signedInApi(server, '09171350002');
    const userId = await userIdOf(customer);
    const set = await save(customer, { currencyId: currency.id, direction: 'above', threshold: 1_280_000 });
    expect(set.data!.data).toMatchObject({ beyond: true });
    await setRate(1_310_000);
    expect(await alertsOf(userId)).toHaveLength(0);
    await setRate(1_270_000);
    await setRate(1_290_000);
    expect(await alertsOf(userId)).toHaveLength(1);
  });

  it('a paused alert stays silent, and resuming it does not report a crossing made while paused', async () => {
    await setRate(1_300_000);
    const customer = await signedInApi(server, '09171350003');
    const userId = await userIdOf(customer);
    const set = await save(customer, { currencyId: currency.id, direction: 'below', threshold: 1_100_000 });
    const id = set.data!.data.id;
    const paused = await save(customer, {
      alertId: id,
      currencyId: currency.id,
      direction: 'below',
      threshold: 1_100_000,
      paused: true,
    });
    expect(paused.data!.data).toMatchObject({ paused: true });
    await setRate(1_050_000);
    expect(await alertsOf(userId)).toHaveLength(0);
    await save(customer, {
      alertId: id,
      currencyId: currency.id,
      direction: 'below',
      threshold: 1_100_000,
      paused: false,
    });
    await setRate(1_040_000);
    expect(await alertsOf(userId)).toHaveLength(0);
    await setRate(1_150_000);
    await setRate(1_090_000);
    expect(await alertsOf(userId)).toHaveLength(1);
  });

  it('an alert expires 90 days after it was set and stays silent then', async () => {
    await setRate(1_300_000);
    const customer = await signedInApi(server, '09171350004');
    const userId = await userIdOf(customer);
    const set = await save(customer, { currencyId: currency.id, direction: 'below', threshold: 1_200_000 });
    const id = set.data!.data.id;
    // Set 91 days ago.
    await db()
      .updateTable('rateAlerts')
      .set({ createdAt: new Date(Date.now() - 91 * 86_400_000) })
      .where('id', '=', id)
      .execute();
    await setRate(1_100_000);
    expect(await alertsOf(userId)).toHaveLength(0);
    const listed = await listOf(customer);
    expect(listed.items).toEqual([expect.objectContaining({ id, expired: true })]);
  });

  it('refuses the sixth alert (expired ones do not count) and another customer’s removal (404)', async () => {
    const customer = await signedInApi(server, '09171350005');
    const other = await signedInApi(server, '09171350006');
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = save(customer, { currencyId: currency.id, direction: 'above', threshold: 2_000_000 + i });
      ids.push((await dataOf(res)).id);
    }
    const sixth = save(customer, { currencyId: currency.id, direction: 'above', threshold: 3_000_000 });
    expect(await refusal(sixth)).toEqual({
      status: 422,
      msg: 'حداکثر ۵ هشدار نرخ می‌توانید داشته باشید؛ یکی را حذف کنید.',
    });

    const stolen = await other.POST('/api/me/removeRateAlert', { body: { alertId: ids[0]! } });
    expect(stolen.response.status).toBe(404);
    const edited = await save(other, { alertId: ids[0], currencyId: currency.id, direction: 'below', threshold: 1 });
    expect(edited.response.status).toBe(404);
    expect((await listOf(other)).items).toEqual([]);

    const removed = await customer.POST('/api/me/removeRateAlert', { body: { alertId: ids[0]! } });
    expect(removed.response.status).toBe(200);
    const again = await save(customer, { currencyId: currency.id, direction: 'above', threshold: 3_000_000 });
    expect(again.response.status).toBe(200);
    const guest = await typedApi(server).POST('/api/me/searchRateAlerts');
    expect(guest.response.status).toBe(401);
  });
});
