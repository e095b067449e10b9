/**
 * Sessions and customers' balances are read from memory between changes (issue 10). These tests warm each cache
 * first, then change what it holds and expect the very next request to see the change: here, and, on PostgreSQL
 * with Redis, in a second server process.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCommit } from '../../src/server/db/after-commit';
import { sessionCache } from '../../src/server/modules/identity/tokens';
import { balanceCache } from '../../src/server/modules/ledger/service';
import { type Customer, moneyHelpers } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;
let money: ReturnType<typeof moneyHelpers>;

beforeAll(async () => {
  server = await startServer({ web: false });
  money = moneyHelpers(server);
  await money.ready();
});

afterAll(async () => {
  await server?.stop();
});

const quoteOn = async (on: RunningServer, who: Customer) => {
  const res = await post(
    on,
    '/api/me/desks/toeflGeneralCpr/priceInquiry',
    { currency: money.usd.id, amount: 100, requestedPaymentMethodGroup: await cardGroup(on) },
    bearer(who.token),
  );
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as { walletBalance: number; expectedPrice: number; payablePrice: number };
};

async function cardGroup(on: RunningServer): Promise<number> {
  const groups = (await post(on, '/api/public/searchPaymentMethodGroups')).body.data as {
    items: Array<{ id: number; isCash: boolean }>;
  };
  return groups.items.find((g) => !g.isCash)!.id;
}

const userData = (on: RunningServer, token: string) => post(on, '/api/me/fetchUserData', undefined, bearer(token));

/** Asks until `check` holds or `ms` pass (a second process hears of a change through Redis, a moment later). */
async function eventually(check: () => Promise<boolean>, ms = 3_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

describe('after a commit', () => {
  it('runs a hook once the transaction commits, never after a rollback, and at once outside a transaction', async () => {
    const { db } = server.app.database;
    const ran: string[] = [];
    await db.transaction().execute(async (trx) => {
      afterCommit(trx, () => ran.push('committed'));
      await sql`select 1`.execute(trx);
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['committed']);
    await expect(
      db.transaction().execute(async (trx) => {
        afterCommit(trx, () => ran.push('rolled back'));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    afterCommit(db, (root) => ran.push(root === db ? 'at once, on the root' : 'at once, elsewhere'));
    expect(ran).toEqual(['committed', 'at once, on the root']);
  });
});

describe('a remembered balance', () => {
  it('is forgotten by a posting: the next quote shows the new wallet', async () => {
    const who = await money.customer();
    expect((await quoteOn(server, who)).walletBalance).toBe(0);
    expect(balanceCache(server.app.database.db).size).toBeGreaterThan(0);
    await money.deposit(who, 1_234_567);
    const quote = await quoteOn(server, who);
    expect(quote.walletBalance).toBe(1_234_567);
    expect(quote.payablePrice).toBe(Math.max(0, quote.expectedPrice - 1_234_567));
  });

  it('is not kept from a read that a posting overtook', async () => {
    const who = await money.customer();
    const { db } = server.app.database;
    const cache = balanceCache(db);
    // The read sees the balance before the posting; the posting commits and forgets before the read returns.
    const read = cache.get(who.userId, async () => {
      const before = { balance: 0, reserved: 0 };
      await money.deposit(who, 5_000);
      return { value: before };
    });
    expect((await read).balance).toBe(0);
    expect((await quoteOn(server, who)).walletBalance).toBe(5_000);
  });
});

describe('a remembered session', () => {
  it('ends at once when its owner signs out', async () => {
    const who = await money.customer();
    expect((await userData(server, who.token)).status).toBe(200);
    expect((await post(server, '/api/me/logout', undefined, bearer(who.token))).status).toBe(200);
    expect((await userData(server, who.token)).status).toBe(401);
  });

  it('ends at once when staff deactivate the account', async () => {
    const who = await money.customer();
    expect((await userData(server, who.token)).status).toBe(200);
    const admin = await loginAdmin(server);
    const removed = await post(server, '/api/users/removeUser', { id: who.userId }, bearer(admin));
    expect(removed.status, removed.body.msg).toBe(200);
    expect((await userData(server, who.token)).status).toBe(401);
  });

  it("loses an action at once when the staff member's group loses the grant", async () => {
    const staff = await money.staffWithActions(['viewCustomers']);
    const search = () => post(server, '/api/sys/searchCustomers', {}, bearer(staff.token));
    expect((await search()).status).toBe(200);
    const admin = await loginAdmin(server);
    const groups = (await (await fetch(`${server.url}/api/users/getGroups`, { headers: bearer(admin) })).json()) as {
      data: { items: Array<{ id: number; name: string }> };
    };
    const group = groups.data.items.find((g) => g.name === `g${staff.userId}`)!;
    const saved = await post(server, '/api/users/saveGroupActions', { id: group.id, actions: [] }, bearer(admin));
    expect(saved.status, saved.body.msg).toBe(200);
    expect((await search()).status).toBe(403);
  });
});

// Two processes share PostgreSQL and hear each other through Redis; `npm test` provides both in its PostgreSQL run.
describe.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)('a second server process', () => {
  let second: RunningServer;
  let withoutRedis: RunningServer;

  beforeAll(async () => {
    const env = { REDIS_KEY_PREFIX: server.app.config.redisKeyPrefix };
    second = await startServer({ web: false, resetDatabase: false, env });
    withoutRedis = await startServer({ web: false, resetDatabase: false, env: { ...env, REDIS_URL: '' } });
  });

  afterAll(async () => {
    await second?.stop();
    await withoutRedis?.stop();
  });

  it('refuses a session the first process ended', async () => {
    const who = await money.customer();
    expect((await userData(second, who.token)).status).toBe(200);
    expect((await post(server, '/api/me/logout', undefined, bearer(who.token))).status).toBe(200);
    expect(await eventually(async () => (await userData(second, who.token)).status === 401)).toBe(true);
  });

  it("shows a balance the first process's posting changed", async () => {
    const who = await money.customer();
    expect((await quoteOn(second, who)).walletBalance).toBe(0);
    await money.deposit(who, 777_000);
    expect(await eventually(async () => (await quoteOn(second, who)).walletBalance === 777_000)).toBe(true);
  });

  it('keeps nothing in a process that would not hear the others', async () => {
    const who = await money.customer();
    expect((await userData(withoutRedis, who.token)).status).toBe(200);
    expect((await quoteOn(withoutRedis, who)).walletBalance).toBe(0);
    expect(sessionCache(withoutRedis.app.database.db).size).toBe(0);
    expect(balanceCache(withoutRedis.app.database.db).size).toBe(0);
  });
});
