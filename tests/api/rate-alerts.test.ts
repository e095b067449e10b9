/**
 * Rate alerts (issue 35): a customer's alert fires once when a saved rate crosses it (in the app and by SMS, in the
 * save's transaction), not again while the rate stays beyond, again after it comes back and crosses anew; a paused
 * or expired alert stays silent; the sixth alert is refused and another customer's cannot be removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, loginAdmin, loginByCode, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;
let admin: string;
let currency: { id: number; title: string; code: string; rate: number };

beforeAll(async () => {
  // The SMS worker's timer is off: the test reads the outbox rows the save wrote.
  server = await startServer({ web: false, env: { NOTIFICATION_SMS_INTERVAL_MS: '3600000' } });
  admin = await loginAdmin(server);
  const list = (await post(server, '/api/public/searchCurrencies')).body.data as { items: Array<typeof currency> };
  currency = list.items.find((c) => c.code === 'GBP')!;
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

const db = () => server.app.database.db;
const setRate = async (rate: number) => {
  const res = await post(
    server,
    '/api/sys/saveCurrency',
    {
      id: currency.id,
      title: currency.title,
      code: currency.code,
      rate,
      useForUafCpr: true,
      useForGoogleAdsAccountCr: true,
    },
    bearer(admin),
  );
  expect(res.status).toBe(200);
};
const userIdOf = async (token: string) =>
  ((await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as { id: number }).id;
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
const save = (token: string, body: object) => post(server, '/api/me/saveRateAlert', body, bearer(token));

describe('rate alerts', () => {
  it('fires once per crossing: not again while beyond, again after the rate comes back and crosses anew', async () => {
    await setRate(1_300_000);
    const token = await loginByCode(server, '09171350001');
    const userId = await userIdOf(token);
    const set = await save(token, { currencyId: currency.id, direction: 'below', threshold: 1_250_000 });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ direction: 'below', threshold: 1_250_000, paused: false, beyond: false });

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

    const listed = (await post(server, '/api/me/searchRateAlerts', undefined, bearer(token))).body.data as {
      items: Array<{ firedCount: number; beyond: boolean; expired: boolean; currencyCode: string }>;
      max: number;
    };
    expect(listed.max).toBe(5);
    expect(listed.items).toEqual([
      expect.objectContaining({ firedCount: 2, beyond: true, expired: false, currencyCode: currency.code }),
    ]);
  });

  it('an "above" alert set while the rate already meets it fires only after the rate comes back and crosses', async () => {
    await setRate(1_300_000);
    const token = await loginByCode(server, '09171350002');
    const userId = await userIdOf(token);
    const set = await save(token, { currencyId: currency.id, direction: 'above', threshold: 1_280_000 });
    expect(set.body.data).toMatchObject({ beyond: true });
    await setRate(1_310_000);
    expect(await alertsOf(userId)).toHaveLength(0);
    await setRate(1_270_000);
    await setRate(1_290_000);
    expect(await alertsOf(userId)).toHaveLength(1);
  });

  it('a paused alert stays silent, and resuming it does not report a crossing made while paused', async () => {
    await setRate(1_300_000);
    const token = await loginByCode(server, '09171350003');
    const userId = await userIdOf(token);
    const set = await save(token, { currencyId: currency.id, direction: 'below', threshold: 1_100_000 });
    const id = (set.body.data as { id: number }).id;
    const paused = await save(token, {
      alertId: id,
      currencyId: currency.id,
      direction: 'below',
      threshold: 1_100_000,
      paused: true,
    });
    expect(paused.body.data).toMatchObject({ paused: true });
    await setRate(1_050_000);
    expect(await alertsOf(userId)).toHaveLength(0);
    await save(token, {
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
    const token = await loginByCode(server, '09171350004');
    const userId = await userIdOf(token);
    const set = await save(token, { currencyId: currency.id, direction: 'below', threshold: 1_200_000 });
    const id = (set.body.data as { id: number }).id;
    // Set 91 days ago.
    await db()
      .updateTable('rateAlerts')
      .set({ createdAt: new Date(Date.now() - 91 * 86_400_000) })
      .where('id', '=', id)
      .execute();
    await setRate(1_100_000);
    expect(await alertsOf(userId)).toHaveLength(0);
    const listed = (await post(server, '/api/me/searchRateAlerts', undefined, bearer(token))).body.data as {
      items: Array<{ id: number; expired: boolean }>;
    };
    expect(listed.items).toEqual([expect.objectContaining({ id, expired: true })]);
  });

  it('refuses the sixth alert (expired ones do not count) and another customer’s removal (404)', async () => {
    const token = await loginByCode(server, '09171350005');
    const other = await loginByCode(server, '09171350006');
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await save(token, { currencyId: currency.id, direction: 'above', threshold: 2_000_000 + i });
      expect(res.status).toBe(200);
      ids.push((res.body.data as { id: number }).id);
    }
    const sixth = await save(token, { currencyId: currency.id, direction: 'above', threshold: 3_000_000 });
    expect(sixth.status).toBe(422);
    expect(sixth.body.msg).toBe('حداکثر ۵ هشدار نرخ می‌توانید داشته باشید؛ یکی را حذف کنید.');

    const stolen = await post(server, '/api/me/removeRateAlert', { alertId: ids[0] }, bearer(other));
    expect(stolen.status).toBe(404);
    const edited = await save(other, { alertId: ids[0], currencyId: currency.id, direction: 'below', threshold: 1 });
    expect(edited.status).toBe(404);
    const theirs = (await post(server, '/api/me/searchRateAlerts', undefined, bearer(other))).body.data as {
      items: unknown[];
    };
    expect(theirs.items).toEqual([]);

    const removed = await post(server, '/api/me/removeRateAlert', { alertId: ids[0] }, bearer(token));
    expect(removed.status).toBe(200);
    expect((await save(token, { currencyId: currency.id, direction: 'above', threshold: 3_000_000 })).status).toBe(200);
    const guest = await post(server, '/api/me/searchRateAlerts');
    expect(guest.status).toBe(401);
  });
});
