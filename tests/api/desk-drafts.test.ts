/**
 * Server drafts of a desk's form (issue 47): a signed-in customer's half-filled form is saved per desk and given back
 * on any device, never with a write-only field (the target page's password: the table is read to prove it), nor
 * another customer's; removed by the customer or when the request is made; gone after deskDraftLifetimeDays; a draft
 * larger than the limit is refused with a Persian 413.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { type Customer, moneyHelpers } from '../support/money';
import { type RunningServer, startServer } from '../support/server';
import { dataOf, refusal, signedInApi, type TypedApi, typedApi } from '../support/typed-api';

const DESK = 'toeflGeneralCpr';
const PASSWORD = 'Pw-draft-رمز-۹۹';
let server: RunningServer;
let db: DB;
let money: ReturnType<typeof moneyHelpers>;

beforeAll(async () => {
  server = await startServer({ web: false });
  db = server.app.database.db;
  money = moneyHelpers(server);
  await money.ready();
}, 180_000);
afterAll(async () => server?.stop());

const desk = { params: { path: { desk: DESK } } };
const fetchDraft = async (api: TypedApi) => (await dataOf(api.POST('/api/me/desks/{desk}/fetchDraft', desk))).draft;
const save = (api: TypedApi, data: Record<string, unknown>) =>
  api.POST('/api/me/desks/{desk}/saveDraft', { ...desk, body: { data: data as never } });
const rowsOf = async (userId: number) =>
  db.selectFrom('deskDrafts').select(['desk', 'data']).where('userId', '=', userId).execute();
const idOf = async (api: TypedApi) => (await dataOf(api.POST('/api/me/fetchUserData'))).id;

describe('desk drafts', () => {
  it('keeps what was typed for another device, never the password, and only for its owner', async () => {
    const phone = await signedInApi(server, '09151110001');
    const userId = await idOf(phone);
    expect(await fetchDraft(phone)).toBeNull();
    const saved = await dataOf(
      save(phone, {
        amount: 12,
        targetPageUsername: 'student1',
        targetPagePassword: PASSWORD,
        customerDescription: 'برای آزمون خرداد',
      }),
    );
    expect(saved.desk).toBe(DESK);
    expect(Date.now() - Date.parse(saved.savedAt)).toBeLessThan(60_000);

    // Another session of the same customer (a laptop) gets the draft back, without the password.
    const laptop = await signedInApi(server, '09151110001');
    const draft = await fetchDraft(laptop);
    expect(draft?.data).toEqual({
      amount: 12,
      targetPageUsername: 'student1',
      customerDescription: 'برای آزمون خرداد',
    });
    // The table itself never held it.
    const rows = await rowsOf(userId);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0]!.data)).not.toContain(PASSWORD);
    expect(rows[0]!.data).not.toHaveProperty('targetPagePassword');
    const list = await dataOf(laptop.POST('/api/me/searchDeskDrafts'));
    expect(list.items.map((d) => d.desk)).toEqual([DESK]);

    // A save replaces the draft.
    await dataOf(save(laptop, { amount: 15 }));
    expect((await fetchDraft(phone))?.data).toEqual({ amount: 15 });

    // Another customer sees none of it and cannot remove it.
    const other = await signedInApi(server, '09151110002');
    expect(await fetchDraft(other)).toBeNull();
    expect((await dataOf(other.POST('/api/me/searchDeskDrafts'))).items).toEqual([]);
    const refused = await refusal(other.POST('/api/me/desks/{desk}/removeDraft', desk));
    expect(refused.status).toBe(404);
    expect(refused.msg).toBe('موردی که انتخاب کردید وجود ندارد یا حذف شده است.');
    expect(await rowsOf(userId)).toHaveLength(1);

    // The owner removes it.
    await dataOf(phone.POST('/api/me/desks/{desk}/removeDraft', desk));
    expect(await fetchDraft(laptop)).toBeNull();
    expect(await rowsOf(userId)).toEqual([]);
  });

  it('is refused to a guest, at an unknown desk, and when larger than the limit (Persian 413)', async () => {
    const guest = typedApi(server);
    expect((await refusal(guest.POST('/api/me/desks/{desk}/fetchDraft', desk))).status).toBe(401);
    const api = await signedInApi(server, '09151110003');
    const unknown = await refusal(
      api.POST('/api/me/desks/{desk}/saveDraft', { params: { path: { desk: 'noSuchDesk' } }, body: { data: {} } }),
    );
    expect(unknown.status).toBe(404);
    const big = await refusal(
      save(api, {
        customerDescription: 'ا'.repeat(4000),
        subject: 'x'.repeat(100),
        a: 'b'.repeat(19_000),
        c: 'd'.repeat(19_000),
      }),
    );
    expect(big.status).toBe(413);
    expect(big.msg).toBe('حجم درخواست بیش از حد مجاز است.');
    expect(await rowsOf(await idOf(api))).toEqual([]);
  });

  it('is gone once older than deskDraftLifetimeDays', async () => {
    const api = await signedInApi(server, '09151110004');
    const userId = await idOf(api);
    await dataOf(save(api, { amount: 20 }));
    // 30 days by default: a draft saved 29 days ago is still there, one saved 31 days ago is gone.
    const ageBy = (days: number) =>
      db
        .updateTable('deskDrafts')
        .set({ savedAt: sql<Date>`now() - make_interval(days => ${days}::int)` })
        .where('userId', '=', userId)
        .execute();
    await ageBy(29);
    expect((await fetchDraft(api))?.data).toEqual({ amount: 20 });
    await ageBy(31);
    expect((await dataOf(api.POST('/api/me/searchDeskDrafts'))).items).toEqual([]);
    expect(await fetchDraft(api)).toBeNull();
    expect(await rowsOf(userId)).toEqual([]);
  });

  it('is removed when the request is made', async () => {
    const who: Customer = await money.customer();
    const api = typedApi(server, who.token);
    await dataOf(save(api, { amount: 100, targetPageUsername: 'student1' }));
    expect(await rowsOf(who.userId)).toHaveLength(1);
    await money.request(who, 100);
    expect(await rowsOf(who.userId)).toEqual([]);
    expect(await fetchDraft(api)).toBeNull();
  });
});
