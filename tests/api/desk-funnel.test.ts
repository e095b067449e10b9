/**
 * A funnel per desk (issue 47 point 6, decision 046) on a real server and database (PGlite, or PostgreSQL and Redis
 * with TEST_DATABASE_URL): a desk page's reports count each stage once per visit however often they are sent; a
 * report naming an unknown desk, a field not of the desk's form, a step the form does not have or a visit of another
 * desk is refused in Persian; paid is counted by the server when a request moves to paid; reports are limited per
 * address; staff holding manageCatalogue read the funnel of a period (left visits with their last field's title),
 * a customer gets 403. Ledger invariants after every test (a request is paid).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tehranToday } from '../../src/shared/calendar/tehran-day';
import { type MoneyHelpers, withMoneyServer } from '../support/money';
import type { RunningServer } from '../support/server';
import { type BodyOf, dataOf, refusal, staffApi, type TypedApi, typedApi } from '../support/typed-api';

let server: RunningServer;
let money: MoneyHelpers;
let staff: TypedApi;

/** Reports per address in the test server's window. */
const LIMIT = 40;
const DESK = 'toeflGeneralCpr';

withMoneyServer(
  // Each test reports from an address of its own (X-Forwarded-For, believed from the local "proxy").
  { web: false, env: { TRUST_PROXY: '127.0.0.1', FUNNEL_LIMIT_PER_IP: String(LIMIT) } },
  async (t) => {
    ({ server, money } = t);
    staff = (await staffApi(server, ['manageCatalogue'])).api;
  },
);

let addresses = 0;
const newAddress = () => `10.47.${Math.floor(addresses / 250)}.${(addresses++ % 250) + 1}`;

/** A report from `address` (a guest: the report needs no one signed in). */
const report = (body: BodyOf<'recordDeskFunnel'>, address: string) =>
  typedApi(server).POST('/api/public/recordDeskFunnel', { body, headers: { 'x-forwarded-for': address } });

/** A report that must be counted (200). */
async function counted(body: BodyOf<'recordDeskFunnel'>, address: string): Promise<void> {
  const { response, error } = await report(body, address);
  expect(response.status, JSON.stringify(error)).toBe(200);
}

const today = tehranToday();
async function funnelOf(desk: string) {
  const { desks } = await dataOf(staff.POST('/api/sys/fetchDeskFunnels', { body: { from: today, to: today } }));
  return desks.find((d) => d.desk === desk);
}

/** The visit as the page left it an hour ago: it counts as left now. */
const leaveAnHourAgo = (visit: string) =>
  server.app.database.db
    .updateTable('deskFunnelVisits')
    .set({ lastSeenAt: new Date(Date.now() - 3_600_000) })
    .where('visitId', '=', visit)
    .execute();

describe('desk funnel', () => {
  it('counts each stage once per visit, keeps the last field of those who left, and none of those who submitted', async () => {
    const before = (await funnelOf(DESK)) ?? { opened: 0, firstInput: 0, submitted: 0, left: 0 };
    const address = newAddress();
    const [typedAndLeft, openedAndLeft, submitted] = [randomUUID(), randomUUID(), randomUUID()];
    // The same reports sent again (a retry, a page sending twice) change nothing.
    for (let i = 0; i < 3; i++) {
      await counted({ desk: DESK, visit: typedAndLeft }, address);
      await counted({ desk: DESK, visit: typedAndLeft, input: true, field: 'currency' }, address);
      await counted({ desk: DESK, visit: typedAndLeft, input: true, field: 'amount' }, address);
    }
    await counted({ desk: DESK, visit: openedAndLeft }, address);
    await counted({ desk: DESK, visit: submitted, input: true, field: 'amount' }, address);
    await counted({ desk: DESK, visit: submitted, submitted: true }, address);
    // After submitting, what the visit touches (the pay step) counts no more.
    await counted({ desk: DESK, visit: submitted, field: 'targetPageAddress' }, address);
    await leaveAnHourAgo(typedAndLeft);
    await leaveAnHourAgo(openedAndLeft);
    await leaveAnHourAgo(submitted);

    const funnel = (await funnelOf(DESK))!;
    expect(funnel.title).toBe('آزمون تافل');
    expect(funnel.opened - before.opened).toBe(3);
    expect(funnel.firstInput - before.firstInput).toBe(2);
    expect(funnel.submitted - before.submitted).toBe(1);
    expect(funnel.left - before.left).toBe(2);
    expect(funnel.steps).toEqual([]);
    expect(funnel.leftAt).toContainEqual({ field: 'amount', title: 'مبلغ ارزی', visits: expect.any(Number) });
    const rows = await server.app.database.db
      .selectFrom('deskFunnelVisits')
      .selectAll()
      .where('visitId', 'in', [typedAndLeft, openedAndLeft, submitted])
      .execute();
    // Counts only: a visit row holds no person, address or value, and a submitted visit no field.
    expect(Object.keys(rows[0]!).sort()).toEqual(
      ['day', 'desk', 'firstInput', 'lastField', 'lastSeenAt', 'stepsReached', 'submitted', 'visitId'].sort(),
    );
    expect(rows.find((r) => r.visitId === submitted)).toMatchObject({ submitted: true, lastField: null });
    expect(rows.find((r) => r.visitId === typedAndLeft)).toMatchObject({ lastField: 'amount', firstInput: true });
  });

  it('refuses an unknown desk, a field not of its form, a step it does not have and a visit of another desk', async () => {
    const address = newAddress();
    const visit = randomUUID();
    expect(await refusal(report({ desk: 'noSuchDesk', visit }, address))).toEqual({
      status: 404,
      msg: 'خدمتی با این نام در فهرست خدمات نیست.',
    });
    expect(await refusal(report({ desk: DESK, visit, field: 'nationalCode' }, address))).toEqual({
      status: 422,
      msg: 'این فیلد در فرم این خدمت نیست.',
    });
    // This desk's form has no steps.
    expect(await refusal(report({ desk: DESK, visit, steps: [0] }, address))).toEqual({
      status: 422,
      msg: 'این مرحله در فرم این خدمت نیست.',
    });
    await counted({ desk: DESK, visit }, address);
    expect(await refusal(report({ desk: 'ieltsGeneralCpr', visit, input: true }, address))).toEqual({
      status: 409,
      msg: 'این بازدید از خدمت دیگری است.',
    });
    // Not a visit id, a field name that is not a name, a step out of range: the contract's Persian 400.
    for (const body of [
      { desk: DESK, visit: 'visit-1' },
      { desk: DESK, visit, field: 'amount; drop table' },
      { desk: DESK, visit, steps: [99] },
    ]) {
      const refused = await refusal(report(body, address));
      expect(refused.status).toBe(400);
      expect(refused.msg).toMatch(/[\u0600-\u06FF]/);
    }
    // Nothing refused was counted.
    const rows = await server.app.database.db
      .selectFrom('deskFunnelVisits')
      .selectAll()
      .where('visitId', '=', visit)
      .execute();
    expect(rows).toMatchObject([{ desk: DESK, firstInput: false, lastField: null, stepsReached: 0 }]);
  });

  it('counts a paid request by the server, on the day it is paid', async () => {
    const before = (await funnelOf(DESK))?.paid ?? 0;
    const who = await money.customer();
    await money.paidRequest(who, 100, { desk: DESK });
    expect((await funnelOf(DESK))!.paid).toBe(before + 1);
  });

  it('limits reports per address with a Persian 429', async () => {
    const address = newAddress();
    const visit = randomUUID();
    for (let i = 0; i < LIMIT; i++) await counted({ desk: DESK, visit, input: true }, address);
    const refused = await refusal(report({ desk: DESK, visit, input: true }, address));
    expect(refused.status).toBe(429);
    expect(refused.msg).toMatch(/^گزارش‌های این نشانی بیش از حد مجاز است/);
    // Another address is not held back.
    await counted({ desk: DESK, visit: randomUUID() }, newAddress());
  });

  it('is read by staff holding manageCatalogue only, for a period that makes sense', async () => {
    const customer = typedApi(server, (await money.customer()).token);
    expect(
      await refusal(customer.POST('/api/sys/fetchDeskFunnels', { body: { from: today, to: today } })),
    ).toMatchObject({ status: 403 });
    const other = (await staffApi(server, ['viewTasks'])).api;
    expect(await refusal(other.POST('/api/sys/fetchDeskFunnels', { body: { from: today, to: today } }))).toMatchObject({
      status: 403,
    });
    expect(
      await refusal(staff.POST('/api/sys/fetchDeskFunnels', { body: { from: '2026-12-01', to: '2026-11-01' } })),
    ).toEqual({ status: 422, msg: 'تاریخ شروع نباید بعد از تاریخ پایان باشد.' });
    // A period with nothing in it is an empty list.
    expect(
      await dataOf(staff.POST('/api/sys/fetchDeskFunnels', { body: { from: '2020-01-01', to: '2020-01-31' } })),
    ).toEqual({ desks: [] });
  });
});
