/**
 * One request for staff (api/sys/fetchStaffPurchase, viewRequests) on a real server and database: its state
 * history with the reasons staff gave, its online payments, and the fulfilment task still waiting for a decision
 * (none once decided); reading it claims nothing; refused to customers and to staff without the action.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { checkInvariants } from '../../src/server/modules/ledger/invariants';
import { moneyHelpers } from '../support/money';
import { bearer, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: ReturnType<typeof moneyHelpers>;

beforeAll(async () => {
  server = await startServer({ web: false });
  db = server.app.database.db;
  money = moneyHelpers(server);
  await money.ready();
});
afterAll(async () => server?.stop());
afterEach(async () => {
  expect(await checkInvariants(db)).toEqual([]);
});

interface Detail {
  purchase: { id: number; state: string };
  history: Array<{ state: string; cause: string | null; reason: string | null }>;
  payments: unknown[];
  openTaskId: number | null;
  openTaskType: string | null;
}

describe('fetchStaffPurchase', () => {
  it("shows any customer's request with its history and its open task, which reading does not claim", async () => {
    const viewer = await money.staffWithActions(['viewRequests']);
    const fulfiller = await money.staffWithActions(['manageCurrencyPayments']);
    const who = await money.customer();
    const purchase = await money.paidRequest(who, 10);
    const task = await db
      .selectFrom('tasks')
      .select(['id', 'state'])
      .where('purchaseId', '=', purchase.id)
      .executeTakeFirstOrThrow();

    const res = await post(server, '/api/sys/fetchStaffPurchase', { purchase: purchase.id }, bearer(viewer.token));
    expect(res.status, res.body.msg).toBe(200);
    const detail = res.body.data as Detail;
    expect(detail.purchase).toMatchObject({ id: purchase.id, state: 'paid' });
    expect(detail.openTaskId).toBe(task.id);
    expect(detail.openTaskType).toBe('uafCprCpTask');
    expect(detail.history.map((h) => h.state).at(-1)).toBe('paid');
    const after = await db.selectFrom('tasks').select('state').where('id', '=', task.id).executeTakeFirstOrThrow();
    expect(after.state).toBe(task.state);

    const reason = 'نام کاربری اشتباه است.';
    const refund = await post(
      server,
      '/api/sys/uafCprRefundUserError',
      { purchase: purchase.id, reason },
      bearer(fulfiller.token),
    );
    expect(refund.status, refund.body.msg).toBe(200);
    const decided = (await post(server, '/api/sys/fetchStaffPurchase', { purchase: purchase.id }, bearer(viewer.token)))
      .body.data as Detail;
    expect(decided.openTaskId).toBeNull();
    expect(decided.openTaskType).toBeNull();
    expect(decided.history.at(-1)).toMatchObject({ state: 'purchaseFailed', cause: 'refundedUserError', reason });

    expect(
      (await post(server, '/api/sys/fetchStaffPurchase', { purchase: 999_999 }, bearer(viewer.token))).status,
    ).toBe(404);
  });

  it('refuses customers and staff without viewRequests; a guest is 401', async () => {
    const who = await money.customer();
    const purchase = await money.request(who, 10);
    const other = await money.staffWithActions(['manageCollections']);
    for (const token of [who.token, other.token]) {
      expect((await post(server, '/api/sys/fetchStaffPurchase', { purchase: purchase.id }, bearer(token))).status).toBe(
        403,
      );
    }
    expect((await post(server, '/api/sys/fetchStaffPurchase', { purchase: purchase.id })).status).toBe(401);
  });
});
