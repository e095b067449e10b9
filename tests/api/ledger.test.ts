/**
 * The ledger core on a real server's database (PGlite, or PostgreSQL with TEST_DATABASE_URL): every transaction
 * type through the service, refusals, the database's own guards, idempotent replays, concurrency, a randomized
 * run, and the read API. The invariants are checked after every test.
 *
 * The randomized run posts LEDGER_FUZZ_RUNS batches of 100 (default 10; `npm run test:deep` 100) drawn, like the
 * property of the transaction types, from LEDGER_FUZZ_SEED (default: a fresh seed each run). The file prints the
 * seed and the variables that replay it, and fast-check's report of a failure names the seed.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { HttpError } from '../../src/server/http/errors';
import { checkInvariants } from '../../src/server/modules/ledger/invariants';
import {
  type PostTransactionInput,
  postTransaction,
  searchTransactions,
  userBalance,
} from '../../src/server/modules/ledger/service';
import {
  type Amounts,
  entriesOf,
  transactionTypeOf,
  type TransactionType,
  transactionTypes,
  UnbalancedTransactionError,
} from '../../src/server/modules/ledger/types';
import { announceSeed, envInteger, envSeed } from '../support/seeded';
import { bearer, loginByCode, post, type RunningServer, startServer } from '../support/server';

const SEED = envSeed('LEDGER_FUZZ_SEED');
const RUNS = envInteger('LEDGER_FUZZ_RUNS', 10, 1);
announceSeed('ledger fuzz', { LEDGER_FUZZ_SEED: SEED, LEDGER_FUZZ_RUNS: RUNS });

let server: RunningServer;
let db: DB;
beforeAll(async () => {
  server = await startServer({ web: false });
  db = server.app.database.db;
});
afterAll(async () => server?.stop());
afterEach(async () => {
  expect(await checkInvariants(db)).toEqual([]);
});

let mobile = 0;
/** A signed-in customer: their token and user id. */
async function customer(): Promise<{ token: string; userId: number }> {
  const token = await loginByCode(server, `0912${3_000_000 + mobile++}`);
  const me = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
  return { token, userId: (me.body.data as { id: number }).id };
}

const postOne = (input: PostTransactionInput) => db.transaction().execute((trx) => postTransaction(trx, input));

/** The error a posting fails with (HttpError for business refusals). */
async function refusal(input: PostTransactionInput): Promise<unknown> {
  try {
    await postOne(input);
  } catch (error) {
    return error;
  }
  throw new Error('the posting was accepted');
}

describe('transaction types', () => {
  it('every type in the catalogue balances for any amounts', () => {
    expect(transactionTypes.map((t) => t.type)).toEqual(
      'ABCDEFGHIJKLM'.split('').map((letter) => `transaction_${letter}`),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...transactionTypes),
        fc.dictionary(
          fc.constantFrom(
            'collectionAmount',
            'expectedPrice',
            'expendedAmount',
            'refundedAmount',
            'walletWithdrawAmount',
            'fee',
            'tax',
            'operationCost',
            'adjustmentAmount',
          ),
          fc.integer({ min: 1, max: 1e12 }),
        ),
        (type, some) => {
          const amounts = Object.fromEntries(type.legs.map((l) => [l.amount, some[l.amount] ?? 1])) as Amounts;
          const moves = entriesOf(type, amounts);
          expect([...moves.values()].reduce((a, b) => a + b, 0)).toBe(0);
        },
      ),
      { seed: SEED },
    );
  });

  it('posts each type with the effects its legs name', async () => {
    const { userId } = await customer();
    const expectBalance = async (balance: number, reserved: number) =>
      expect(await userBalance(db, userId)).toEqual({ balance, reserved });

    await postOne({ type: 'transaction_A', userId, amounts: { collectionAmount: 10_000_000 } });
    await expectBalance(10_000_000, 0);
    await postOne({ type: 'transaction_B', userId, amounts: { collectionAmount: 2_000_000 } });
    await expectBalance(12_000_000, 0);
    const reserve = await postOne({
      type: 'transaction_C',
      userId,
      amounts: { expectedPrice: 9_000_000 },
      details: { purchaseId: 7, totalExpectedPrice: 9_000_000 },
    });
    await expectBalance(3_000_000, 9_000_000);
    const story = { traceCode: reserve.traceCode, details: { purchaseId: 7 } };
    await postOne({ type: 'transaction_D', userId, amounts: { expendedAmount: 7_000_000 }, ...story });
    await expectBalance(3_000_000, 2_000_000);
    await postOne({
      type: 'transaction_F',
      userId,
      amounts: { fee: 800_000, tax: 80_000, operationCost: 200_000 },
      ...story,
    });
    await expectBalance(3_000_000, 920_000);
    await postOne({ type: 'transaction_G', userId, amounts: { refundedAmount: 920_000 }, ...story });
    await expectBalance(3_920_000, 0);
    await postOne({ type: 'transaction_C', userId, amounts: { expectedPrice: 1_000_000 } });
    await postOne({ type: 'transaction_E', userId, amounts: { expectedPrice: 1_000_000 } });
    await expectBalance(3_920_000, 0);
    await postOne({ type: 'transaction_C', userId, amounts: { expectedPrice: 1_000_000 } });
    await postOne({ type: 'transaction_J', userId, amounts: { refundedAmount: 890_000, fee: 100_000, tax: 10_000 } });
    await expectBalance(3_810_000, 0);
    await postOne({
      type: 'transaction_H',
      userId,
      amounts: { refundedAmount: 5_000_000 },
      details: { cause: 'cardMismatch', refundedToUnsafe: true },
    });
    await expectBalance(3_810_000, 0);
    await postOne({ type: 'transaction_I', userId, amounts: { walletWithdrawAmount: 810_000 } });
    await expectBalance(3_000_000, 0);
    await postOne({ type: 'transaction_K', userId, amounts: { adjustmentAmount: 50_000 } });
    await postOne({ type: 'transaction_L', userId, amounts: { adjustmentAmount: 20_000 } });
    await expectBalance(3_030_000, 0);
    await postOne({ type: 'transaction_M', userId: null, amounts: { collectionAmount: 10_000_000 } });
    await expectBalance(3_030_000, 0);

    // What the customer sees: every type but the settlement, newest first, effects adding up to the balances.
    const seen = await searchTransactions(db, userId, { perPage: 500 });
    expect(seen.total).toBe(14);
    expect(seen.items.map((t) => t.type).at(0)).toBe('transaction_L');
    expect(seen.items.map((t) => t.type).at(-1)).toBe('transaction_A');
    expect(seen.items.reduce((s, t) => s + t.walletAccountEffect, 0)).toBe(3_030_000);
    expect(seen.items.reduce((s, t) => s + t.reservedAccountEffect, 0)).toBe(0);
    const fee = seen.items.find((t) => t.type === 'transaction_F')!;
    expect(fee).toMatchObject({
      traceCode: reserve.traceCode,
      title: transactionTypeOf('transaction_F').title,
      purchaseId: 7,
      fee: 800_000,
      tax: 80_000,
      operationCost: 200_000,
      walletAccountEffect: 0,
      reservedAccountEffect: -1_080_000,
    });
    expect(seen.items.find((t) => t.type === 'transaction_H')).toMatchObject({
      refundedAmount: 5_000_000,
      cause: 'cardMismatch',
      refundedToUnsafe: true,
      walletAccountEffect: 0,
      reservedAccountEffect: 0,
    });
  });
});

describe('refusals', () => {
  it('refuses to overdraw a wallet or a reservation with a Persian 422 and moves nothing', async () => {
    const { userId } = await customer();
    await postOne({ type: 'transaction_A', userId, amounts: { collectionAmount: 100_000 } });
    const overdraw = await refusal({ type: 'transaction_I', userId, amounts: { walletWithdrawAmount: 100_001 } });
    expect(overdraw).toBeInstanceOf(HttpError);
    expect(overdraw).toMatchObject({ statusCode: 422, message: 'موجودی کیف پول شما برای این کار کافی نیست.' });
    const overspend = await refusal({ type: 'transaction_D', userId, amounts: { expendedAmount: 1 } });
    expect(overspend).toMatchObject({ statusCode: 422, message: 'مبلغ رزروشده برای این کار کافی نیست.' });
    for (const amount of [-5, 1.5, Number.MAX_SAFE_INTEGER + 1]) {
      const bad = await refusal({ type: 'transaction_A', userId, amounts: { collectionAmount: amount } });
      expect(bad).toMatchObject({ statusCode: 422 });
    }
    expect(await refusal({ type: 'transaction_A', userId, amounts: {} })).toMatchObject({ statusCode: 422 });
    expect(await refusal({ type: 'transaction_A', userId, amounts: { collectionAmount: 0 } })).toMatchObject({
      statusCode: 422,
    });
    expect(await userBalance(db, userId)).toEqual({ balance: 100_000, reserved: 0 });
    expect((await searchTransactions(db, userId, {})).total).toBe(1);
  });

  it('rejects legs that do not sum to zero, in code and in the database', async () => {
    const { userId } = await customer();
    const lopsided: TransactionType = {
      ...transactionTypeOf('transaction_A'),
      legs: [
        { account: 'wallet', sign: 1, amount: 'collectionAmount' },
        { account: 'fees', sign: -1, amount: 'fee' },
      ],
    };
    expect(() => entriesOf(lopsided, { collectionAmount: 10, fee: 3 })).toThrow(UnbalancedTransactionError);
    expect(entriesOf(lopsided, { collectionAmount: 10, fee: 10 }).size).toBe(2);

    // Written behind the service's back, an unbalanced transaction does not commit (deferred constraint trigger).
    const [wallet] = await sql<{ id: number }>`
      insert into ledger_accounts (kind, user_id) values ('wallet', ${userId}) returning id`
      .execute(db)
      .then((r) => r.rows);
    await expect(
      db.transaction().execute(async (trx) => {
        const t = await sql<{ id: number }>`
          insert into ledger_transactions (trace_code, type, user_id, amounts) values ('x', 'transaction_A', ${userId}, '{}')
          returning id`.execute(trx);
        await sql`insert into ledger_entries (transaction_id, account_id, amount) values (${t.rows[0]!.id}, ${wallet!.id}, 10)`.execute(
          trx,
        );
      }),
    ).rejects.toThrow(/does not balance/);
    expect(await userBalance(db, userId)).toEqual({ balance: 0, reserved: 0 });
  });

  it('the database refuses to update or delete entries and transactions', async () => {
    const { userId } = await customer();
    const posted = await postOne({ type: 'transaction_A', userId, amounts: { collectionAmount: 1000 } });
    await expect(
      sql`update ledger_entries set amount = amount * 2 where transaction_id = ${posted.id}`.execute(db),
    ).rejects.toThrow(/never updated or deleted/);
    await expect(sql`delete from ledger_entries where transaction_id = ${posted.id}`.execute(db)).rejects.toThrow(
      /never updated or deleted/,
    );
    await expect(sql`delete from ledger_transactions where id = ${posted.id}`.execute(db)).rejects.toThrow(
      /never updated or deleted/,
    );
    await expect(sql`truncate ledger_entries`.execute(db)).rejects.toThrow(/never updated or deleted/);
    // A customer balance row cannot go negative even when written directly.
    await expect(
      sql`update ledger_accounts set balance = -1 where user_id = ${userId} and kind = 'wallet'`.execute(db),
    ).rejects.toThrow(/ledger_accounts_customer_not_negative/);
  });
});

describe('idempotency', () => {
  it('a replay with the same key returns the first transaction and moves nothing', async () => {
    const { userId } = await customer();
    const other = await customer();
    const input = {
      type: 'transaction_A',
      userId,
      amounts: { collectionAmount: 5000 },
      idempotencyKey: 'gateway-ref-1',
    } as const;
    const first = await postOne(input);
    const again = await postOne({ ...input, amounts: { collectionAmount: 9999 } });
    expect(first.replayed).toBe(false);
    expect(again).toMatchObject({ id: first.id, traceCode: first.traceCode, replayed: true });
    expect(await userBalance(db, userId)).toEqual({ balance: 5000, reserved: 0 });
    // The same key on another type is another transaction; on another customer it is refused.
    await postOne({
      type: 'transaction_I',
      userId,
      amounts: { walletWithdrawAmount: 1000 },
      idempotencyKey: 'gateway-ref-1',
    });
    expect(await userBalance(db, userId)).toEqual({ balance: 4000, reserved: 0 });
    expect(await refusal({ ...input, userId: other.userId })).toMatchObject({ statusCode: 409 });

    // Parallel replays of one key settle once.
    const parallel = await Promise.all(
      Array.from({ length: 20 }, () => postOne({ ...input, idempotencyKey: 'gateway-ref-2' })),
    );
    expect(new Set(parallel.map((p) => p.id)).size).toBe(1);
    expect(parallel.filter((p) => !p.replayed)).toHaveLength(1);
    expect(await userBalance(db, userId)).toEqual({ balance: 9000, reserved: 0 });
  });
});

describe('concurrency', () => {
  it('50 parallel debits that together exceed the wallet succeed only as far as it reaches', async () => {
    const { userId } = await customer();
    await postOne({ type: 'transaction_A', userId, amounts: { collectionAmount: 1_000_000 } });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        postOne({
          type: i % 2 ? 'transaction_I' : 'transaction_L',
          userId,
          amounts: i % 2 ? { walletWithdrawAmount: 70_000 } : { adjustmentAmount: 70_000 },
        }),
      ),
    );
    const succeeded = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(succeeded).toHaveLength(Math.floor(1_000_000 / 70_000));
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ statusCode: 422 });
    expect(await userBalance(db, userId)).toEqual({ balance: 1_000_000 - 14 * 70_000, reserved: 0 });
  });
});

/** A random posting: a type and its named amounts (0 allowed: a posting of nothing at all is refused). */
type Payload = { type: PostTransactionInput['type']; amounts: Amounts };
const amount = fc.integer({ min: 0, max: 2_000_000 });
const payloadArb = fc.oneof(
  fc.record({
    type: fc.constantFrom('transaction_A', 'transaction_B'),
    amounts: fc.record({ collectionAmount: amount }),
  }),
  fc.record({ type: fc.constantFrom('transaction_C', 'transaction_E'), amounts: fc.record({ expectedPrice: amount }) }),
  fc.record({ type: fc.constant('transaction_D'), amounts: fc.record({ expendedAmount: amount }) }),
  fc.record({
    type: fc.constant('transaction_F'),
    amounts: fc.record({ fee: amount, tax: amount, operationCost: amount }),
  }),
  fc.record({
    type: fc.constantFrom('transaction_G', 'transaction_H'),
    amounts: fc.record({ refundedAmount: amount }),
  }),
  fc.record({ type: fc.constant('transaction_I'), amounts: fc.record({ walletWithdrawAmount: amount }) }),
  fc.record({
    type: fc.constant('transaction_J'),
    amounts: fc.record({ refundedAmount: amount, fee: amount, tax: amount }),
  }),
  fc.record({
    type: fc.constantFrom('transaction_K', 'transaction_L'),
    amounts: fc.record({ adjustmentAmount: amount }),
  }),
) as fc.Arbitrary<Payload>;

/** What a posting should do to [wallet, reserved], written out by hand from the types' meaning. */
function modelDelta({ type, amounts: a }: Payload): [number, number] {
  const v = (name: keyof Amounts) => a[name] ?? 0;
  switch (type) {
    case 'transaction_A':
    case 'transaction_B':
      return [v('collectionAmount'), 0];
    case 'transaction_C':
      return [-v('expectedPrice'), v('expectedPrice')];
    case 'transaction_D':
      return [0, -v('expendedAmount')];
    case 'transaction_E':
      return [v('expectedPrice'), -v('expectedPrice')];
    case 'transaction_F':
      return [0, -(v('fee') + v('tax') + v('operationCost'))];
    case 'transaction_G':
      return [v('refundedAmount'), -v('refundedAmount')];
    case 'transaction_I':
      return [-v('walletWithdrawAmount'), 0];
    case 'transaction_J':
      return [v('refundedAmount'), -(v('refundedAmount') + v('fee') + v('tax'))];
    case 'transaction_K':
      return [v('adjustmentAmount'), 0];
    case 'transaction_L':
      return [-v('adjustmentAmount'), 0];
    default:
      return [0, 0];
  }
}

describe('randomized', () => {
  const runs = RUNS;
  const opsPerRun = 100;

  it(
    `${runs * opsPerRun} random postings across customers keep the invariants (LEDGER_FUZZ_RUNS=${runs})`,
    {
      // About 2 s a run on PGlite; the budget grows with the runs.
      timeout: Math.max(600_000, runs * 60_000),
    },
    async () => {
      const customers = await Promise.all([customer(), customer(), customer(), customer()]);
      const model = customers.map(() => ({ balance: 0, reserved: 0 }));
      const usedKeys = new Set<string>();
      let ops = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              who: fc.integer({ min: 0, max: customers.length - 1 }),
              key: fc.option(fc.integer({ min: 0, max: 20 }), { freq: 3 }),
              payload: payloadArb,
            }),
            { minLength: opsPerRun, maxLength: opsPerRun },
          ),
          async (batch) => {
            for (const { who, key, payload } of batch) {
              ops++;
              const { userId } = customers[who]!;
              const idempotencyKey = key === null ? undefined : `fuzz-${who}-${key}`;
              const keyId = `${payload.type}/${idempotencyKey}`;
              const replay = idempotencyKey !== undefined && usedKeys.has(keyId);
              const [dw, dr] = modelDelta(payload);
              const state = model[who]!;
              const empty = Object.values(payload.amounts).every((x) => x === 0);
              const fits = state.balance + dw >= 0 && state.reserved + dr >= 0;
              try {
                const posted = await postOne({ ...payload, userId, idempotencyKey });
                expect(posted.replayed).toBe(replay);
                expect(replay || (!empty && fits)).toBe(true);
                if (!replay) {
                  state.balance += dw;
                  state.reserved += dr;
                  if (idempotencyKey !== undefined) usedKeys.add(keyId);
                }
              } catch (error) {
                expect(error).toMatchObject({ statusCode: 422 });
                expect(!replay && (empty || !fits)).toBe(true);
              }
              expect(await userBalance(db, userId)).toEqual(state);
              expect(await checkInvariants(db)).toEqual([]);
              // The embedded database answers within the same turn of the event loop, so without this the run
              // holds off the server's timers: after minutes of it (LEDGER_FUZZ_RUNS=100) the overdue keep-alive
              // timeout closed the connection the next test's request had just been written to (ECONNRESET).
              await new Promise((resolve) => setImmediate(resolve));
            }
            // The customer's view adds up to their balances.
            for (const [i, { userId }] of customers.entries()) {
              const seen = await searchTransactions(db, userId, { perPage: 100_000 });
              expect(seen.items.reduce((s, t) => s + t.walletAccountEffect, 0)).toBe(model[i]!.balance);
              expect(seen.items.reduce((s, t) => s + t.reservedAccountEffect, 0)).toBe(model[i]!.reserved);
            }
          },
        ),
        // The database keeps its state between runs, so a shrunk replay would not mean anything.
        { numRuns: runs, endOnFailure: true, seed: SEED },
      );
      expect(ops).toBe(runs * opsPerRun);
    },
  );
});

describe('read API', () => {
  it('userBalance and searchTransactions show the signed-in customer their own money only', async () => {
    const mine = await customer();
    const theirs = await customer();
    await postOne({ type: 'transaction_A', userId: mine.userId, amounts: { collectionAmount: 3_000_000 } });
    const reserve = await postOne({
      type: 'transaction_C',
      userId: mine.userId,
      amounts: { expectedPrice: 1_200_000 },
      details: { purchaseId: 42, generalTitle: 'TOEFL' },
    });
    await postOne({ type: 'transaction_K', userId: mine.userId, amounts: { adjustmentAmount: 5 } });
    await postOne({ type: 'transaction_M', userId: null, amounts: { collectionAmount: 3_000_000 } });

    const balance = await post(server, '/api/accounting/userBalance', {}, bearer(mine.token));
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({ result: true, data: { balance: 1_800_005, reserved: 1_200_000 } });

    const list = await post(server, '/api/me/searchTransactions', { page: 1, perPage: 50 }, bearer(mine.token));
    expect(list.status).toBe(200);
    const data = list.body.data as { items: Array<Record<string, unknown>>; total: number };
    expect(data.total).toBe(3);
    expect(data.items.map((t) => t.type)).toEqual(['transaction_K', 'transaction_C', 'transaction_A']);
    expect(data.items[1]).toEqual({
      traceCode: reserve.traceCode,
      type: 'transaction_C',
      title: 'رزرو مبلغ برای درخواست',
      walletAccountEffect: -1_200_000,
      reservedAccountEffect: 1_200_000,
      expectedPrice: 1_200_000,
      purchaseId: 42,
      generalTitle: 'TOEFL',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const page2 = await post(server, '/api/me/searchTransactions', { page: 2, perPage: 2 }, bearer(mine.token));
    expect(page2.body.data).toMatchObject({
      total: 3,
      items: [{ type: 'transaction_A', walletAccountEffect: 3_000_000 }],
    });
    const everything = await post(server, '/api/me/searchTransactions', undefined, bearer(mine.token));
    expect((everything.body.data as { total: number }).total).toBe(3);

    // Another customer sees nothing of it.
    const other = await post(server, '/api/me/searchTransactions', {}, bearer(theirs.token));
    expect(other.body).toMatchObject({ result: true, data: { items: [], total: 0 } });
    const otherBalance = await post(server, '/api/accounting/userBalance', {}, bearer(theirs.token));
    expect(otherBalance.body.data).toEqual({ balance: 0, reserved: 0 });

    // A guest is asked to log in; bad paging is a Persian 400.
    for (const path of ['/api/accounting/userBalance', '/api/me/searchTransactions']) {
      const guest = await post(server, path, {});
      expect(guest.status).toBe(401);
      expect(guest.body).toMatchObject({ result: false, msg: 'ابتدا وارد حساب کاربری خود شوید.' });
    }
    const bad = await post(server, '/api/me/searchTransactions', { perPage: 0 }, bearer(mine.token));
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/[\u0600-\u06FF]/);
    const unknown = await post(server, '/api/me/searchTransactions', { userId: theirs.userId }, bearer(mine.token));
    expect(unknown.status).toBe(400);
  });
});
