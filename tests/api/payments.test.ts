/**
 * Paying requests end to end on a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the
 * wallet, the sandbox bank (its page and its server-to-server verification), callbacks replayed, forged and in
 * parallel, card mismatch, cancelling, expired quotes, idempotency keys, parallel payments on one wallet, and a
 * randomized run. The ledger invariants are checked after every test (and after every step of the random run).
 *
 * The randomized run takes PAYMENT_FUZZ_STEPS steps (default 1000; `npm run test:deep` 10000) planned from
 * PAYMENT_FUZZ_SEED (default 8, whose 1000-step plan reaches every ending the run asks for). The file prints the seed
 * and the variables that replay it.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { checkInvariants } from '../../src/server/modules/ledger/invariants';
import { openTaskOnce } from '../../src/server/modules/tasks/service';
import { ibanMod97 } from '../../src/shared/iban';
import { connectEcho, nextEvent, subscription, waitConnected } from '../support/echo';
import {
  type Customer,
  type MoneyHelpers,
  withMoneyServer,
  nationalCodeFor,
  type PayResult,
  type Purchase,
} from '../support/money';
import { announceSeed, envInteger, envSeed, replayable } from '../support/seeded';
import { bearer, post, type RunningServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;

withMoneyServer({ web: false }, (t) => {
  ({ server, db, money } = t);
});

const customer = () => money.customer();
const request = (who: Customer, amount?: number) => money.request(who, amount);
const newKey = () => money.newKey();
const pay = (who: Customer, purchase: number, key = newKey(), extra: Record<string, unknown> = {}) =>
  money.pay(who, purchase, key, extra);
const payOk = (who: Customer, purchase: number) => money.payOk(who, purchase);
const deposit = (who: Customer, amount: number) => money.deposit(who, amount);
const purchaseOf = (who: Customer, id: number) => money.purchaseOf(who, id);
const transactions = (who: Customer) => money.transactions(who);
const balanceOf = (who: Customer) => money.balanceOf(who);

/** Submits the sandbox bank's form; returns where the bank sends the browser (our callback). */
async function atBank(
  gatewayUrl: string,
  fields: { cardNo?: string; holderNationalCode: string; action: 'pay' | 'cancel' },
): Promise<string> {
  const bankPage = new URL(gatewayUrl, server.url);
  const page = await fetch(bankPage);
  expect(page.status).toBe(200);
  const res = await fetch(bankPage, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ cardNo: fields.cardNo ?? '6037991234567890', ...fields }).toString(),
  });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!, bankPage).toString();
}

/** Follows the bank's redirect to our callback; returns where we send the browser (the request's page). */
async function callback(location: string): Promise<URL> {
  const res = await fetch(new URL(location, server.url), { redirect: 'manual' });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!, server.url);
}

describe('paying through the sandbox bank', () => {
  it('pays a request online: collection, reservation, paid state, receipt and staff task', async () => {
    const who = await customer();
    const purchase = await request(who);
    expect(purchase.state).toBe('waitingForPayment');
    const paying = await payOk(who, purchase.id);
    expect(paying).toMatchObject({ walletWithdrawAmount: 0, payable: purchase.expectedPrice });
    expect(paying.gatewayUrl).toMatch(/\/StartPay\//);

    const back = await callback(
      await atBank(paying.gatewayUrl!, { holderNationalCode: who.nationalCode, action: 'pay' }),
    );
    expect(back.pathname).toBe('/request/myRequests');
    expect(Object.fromEntries(back.searchParams)).toEqual({ purchase: String(purchase.id), payment: 'success' });

    const detail = await purchaseOf(who, purchase.id);
    expect(detail.purchase).toMatchObject({ state: 'paid', stateIsFinal: false, stateIsFailure: false });
    expect(detail.purchase).toMatchObject({ walletAmount: 0, payablePrice: purchase.expectedPrice });
    expect(detail.history.map((h) => [h.state, h.cause])).toEqual([
      ['waitingForPayment', 'submitted'],
      ['paid', 'paidOnline'],
    ]);
    expect(detail.payments).toHaveLength(1);
    expect(detail.payments[0]).toMatchObject({ state: 'settled', amount: purchase.expectedPrice });
    expect(await balanceOf(who)).toEqual({ balance: 0, reserved: purchase.expectedPrice });

    const moves = await transactions(who);
    expect(moves.map((t) => t.type)).toEqual(['transaction_C', 'transaction_A']);
    expect(moves[0]!.traceCode).toBe(moves[1]!.traceCode);
    expect(moves[1]).toMatchObject({
      walletAccountEffect: purchase.expectedPrice,
      reservedAccountEffect: 0,
      collectionAmount: purchase.expectedPrice,
      purchaseId: purchase.id,
    });
    expect(moves[0]).toMatchObject({
      walletAccountEffect: -purchase.expectedPrice,
      reservedAccountEffect: purchase.expectedPrice,
    });

    const receipt = await post(
      server,
      '/api/me/fetchCollection',
      { collection: detail.payments[0]!.collectionId },
      bearer(who.token),
    );
    expect(receipt.status).toBe(200);
    expect(receipt.body.data).toMatchObject({
      amount: purchase.expectedPrice,
      source: 'online',
      refundedToCard: false,
      cause: null,
      purchaseId: purchase.id,
      nationalCode: who.nationalCode,
      traceCode: moves[1]!.traceCode,
    });
    expect((receipt.body.data as { cardNo: string }).cardNo).toMatch(/^603799\*+7890$/);
    // Someone else's receipt is not found.
    const other = await customer();
    const foreign = await post(
      server,
      '/api/me/fetchCollection',
      { collection: detail.payments[0]!.collectionId },
      bearer(other.token),
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.msg).toBe('رسید پیدا نشد.');

    const task = await db
      .selectFrom('tasks')
      .select(['type', 'subjectUserId'])
      .where('purchaseId', '=', purchase.id)
      .execute();
    expect(task).toEqual([{ type: 'uafCprCpTask', subjectUserId: who.userId }]);

    // Paying it again is refused.
    const again = await pay(who, purchase.id);
    expect(again.status).toBe(422);
    expect(again.body.msg).toBe('این درخواست پیش‌تر پرداخت شده است.');
  });

  it('a cancel at the bank moves nothing and the request can still be paid', async () => {
    const who = await customer();
    const purchase = await request(who);
    const paying = await payOk(who, purchase.id);
    const back = await callback(
      await atBank(paying.gatewayUrl!, { holderNationalCode: who.nationalCode, action: 'cancel' }),
    );
    expect(back.searchParams.get('payment')).toBe('cancelled');
    expect(await balanceOf(who)).toEqual({ balance: 0, reserved: 0 });
    expect(await transactions(who)).toEqual([]);
    expect((await purchaseOf(who, purchase.id)).purchase.state).toBe('waitingForPayment');

    const second = await payOk(who, purchase.id);
    const paid = await callback(
      await atBank(second.gatewayUrl!, { holderNationalCode: who.nationalCode, action: 'pay' }),
    );
    expect(paid.searchParams.get('payment')).toBe('success');
  });

  it("another person's card: recorded, returned to that card, never in the wallet; the request stays unpaid", async () => {
    const who = await customer();
    const purchase = await request(who);
    const paying = await payOk(who, purchase.id);
    const back = await callback(
      await atBank(paying.gatewayUrl!, { holderNationalCode: nationalCodeFor(9000), action: 'pay' }),
    );
    expect(back.searchParams.get('payment')).toBe('cardMismatch');
    expect(await balanceOf(who)).toEqual({ balance: 0, reserved: 0 });
    const detail = await purchaseOf(who, purchase.id);
    expect(detail.purchase.state).toBe('waitingForPayment');
    expect(detail.payments[0]!.state).toBe('cardMismatch');
    const [refund] = await transactions(who);
    expect(refund).toMatchObject({
      type: 'transaction_H',
      walletAccountEffect: 0,
      reservedAccountEffect: 0,
      refundedAmount: purchase.expectedPrice,
      refundedToUnsafe: true,
      cause: 'cardMismatch',
      purchaseId: purchase.id,
    });
    const receipt = await post(
      server,
      '/api/me/fetchCollection',
      { collection: detail.payments[0]!.collectionId },
      bearer(who.token),
    );
    expect(receipt.body.data).toMatchObject({ refundedToCard: true, cause: 'cardMismatch' });
  });

  it('replayed, forged and parallel callbacks move money once', async () => {
    const who = await customer();
    const purchase = await request(who);
    const paying = await payOk(who, purchase.id);
    const location = new URL(
      await atBank(paying.gatewayUrl!, { holderNationalCode: who.nationalCode, action: 'pay' }),
      server.url,
    );

    // A forged authority proves nothing: the payment stays open and nothing moves.
    const forged = new URL(location);
    forged.searchParams.set('Authority', 'A000000000000000000000000000000forged');
    expect((await callback(forged.toString())).searchParams.get('payment')).toBe('pending');
    // An unknown callback lands on the requests list without a message.
    const unknown = await callback('/api/public/payments/callback/nothing-here?Authority=x&Status=OK');
    expect(unknown.search).toBe('');
    expect(await transactions(who)).toEqual([]);

    const outcomes = await Promise.all(Array.from({ length: 50 }, () => callback(location.toString())));
    expect(new Set(outcomes.map((u) => u.searchParams.get('payment')))).toEqual(new Set(['success']));
    const moves = await transactions(who);
    expect(moves.map((t) => t.type).sort()).toEqual(['transaction_A', 'transaction_C']);
    expect(await balanceOf(who)).toEqual({ balance: 0, reserved: purchase.expectedPrice });
    // Status=NOK afterwards (forged) changes nothing either.
    const nok = new URL(location);
    nok.searchParams.set('Status', 'NOK');
    expect((await callback(nok.toString())).searchParams.get('payment')).toBe('success');
    expect(await transactions(who)).toHaveLength(2);
  });

  it('a callback claiming success for a payment never made at the bank moves nothing', async () => {
    const who = await customer();
    const purchase = await request(who);
    const paying = await payOk(who, purchase.id);
    const authority = new URL(paying.gatewayUrl!, server.url).pathname.split('/').at(-1)!;
    const [proforma] = await db
      .selectFrom('onlineProformas')
      .select('callbackToken')
      .where('purchaseId', '=', purchase.id)
      .execute();
    const back = await callback(
      `/api/public/payments/callback/${proforma!.callbackToken}?Authority=${authority}&Status=OK`,
    );
    expect(back.searchParams.get('payment')).toBe('failed');
    expect(await transactions(who)).toEqual([]);
    // The bank payment is still open: paying it for real afterwards still settles.
    const paid = await callback(
      await atBank(paying.gatewayUrl!, { holderNationalCode: who.nationalCode, action: 'pay' }),
    );
    expect(paid.searchParams.get('payment')).toBe('success');
  });

  it('money paid for a request cancelled meanwhile lands in the wallet', async () => {
    const who = await customer();
    const purchase = await request(who);
    const paying = await payOk(who, purchase.id);
    const cancelled = await post(server, '/api/me/cancelPurchase', { purchase: purchase.id }, bearer(who.token));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ state: 'cancelled', stateIsFinal: true });
    const back = await callback(
      await atBank(paying.gatewayUrl!, { holderNationalCode: who.nationalCode, action: 'pay' }),
    );
    expect(back.searchParams.get('payment')).toBe('walletCredited');
    expect(await balanceOf(who)).toEqual({ balance: purchase.expectedPrice, reserved: 0 });
  });
});

describe('live updates', () => {
  it("a settled payment reaches the customer's open pages: wallet.changed and purchase.changed", async () => {
    const who = await customer();
    const purchase = await request(who);
    const paying = await payOk(who, purchase.id);
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(who.token))).body.data as { uid: string };
    const echo = connectEcho(server.url, who.token);
    try {
      await waitConnected(echo);
      const joined = subscription(echo, `private-user.${me.uid}`);
      const channel = echo.private(`user.${me.uid}`);
      const wallet = nextEvent<{ balance: number }>(channel, '.wallet.changed');
      const changed = nextEvent<{ purchaseId: number; state: string }>(channel, '.purchase.changed');
      expect(await joined).toBe('joined');
      await callback(await atBank(paying.gatewayUrl!, { holderNationalCode: who.nationalCode, action: 'pay' }));
      expect(await wallet).toEqual({ balance: 0 });
      expect(await changed).toEqual({ purchaseId: purchase.id, state: 'paid' });
    } finally {
      echo.disconnect();
    }
  });
});

describe('paying from the wallet', () => {
  it('pays at once when the wallet covers the price; part from the wallet otherwise', async () => {
    const who = await customer();
    const small = await request(who, 10);
    await deposit(who, small.expectedPrice + 1_000);
    const paid = await payOk(who, small.id);
    expect(paid).toMatchObject({ gatewayUrl: null, payable: 0, walletWithdrawAmount: small.expectedPrice });
    expect(paid.purchase).toMatchObject({ state: 'paid', walletAmount: small.expectedPrice, payablePrice: 0 });
    expect(await balanceOf(who)).toEqual({ balance: 1_000, reserved: small.expectedPrice });

    const big = await request(who, 100);
    expect(big).toMatchObject({ walletAmount: 1_000, payablePrice: big.expectedPrice - 1_000 });
    const partly = await payOk(who, big.id);
    expect(partly).toMatchObject({ walletWithdrawAmount: 1_000, payable: big.expectedPrice - 1_000 });
    // Nothing leaves the wallet until the bank payment succeeds.
    expect(await balanceOf(who)).toEqual({ balance: 1_000, reserved: small.expectedPrice });
    const back = await callback(
      await atBank(partly.gatewayUrl!, { holderNationalCode: who.nationalCode, action: 'pay' }),
    );
    expect(back.searchParams.get('payment')).toBe('success');
    expect(await balanceOf(who)).toEqual({ balance: 0, reserved: small.expectedPrice + big.expectedPrice });
    const detail = await purchaseOf(who, big.id);
    expect(detail.purchase).toMatchObject({ walletAmount: 1_000, payablePrice: big.expectedPrice - 1_000 });
  });

  it('a replayed key returns the first result; refusals are Persian 4xx', async () => {
    const who = await customer();
    const purchase = await request(who, 10);
    await deposit(who, purchase.expectedPrice * 3);
    const key = newKey();
    const first = await pay(who, purchase.id, key);
    const second = await pay(who, purchase.id, key);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    expect(await balanceOf(who)).toEqual({ balance: purchase.expectedPrice * 2, reserved: purchase.expectedPrice });

    const other = await request(who, 10);
    const reused = await pay(who, other.id, key);
    expect(reused.status).toBe(422);
    expect(reused.body.msg).toBe('این شناسه یکتا پیشتر برای درخواست دیگری استفاده شده است.');

    const stranger = await customer();
    const foreign = await pay(stranger, other.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.msg).toBe('درخواست پیدا نشد.');
    const foreignCancel = await post(server, '/api/me/cancelPurchase', { purchase: other.id }, bearer(stranger.token));
    expect(foreignCancel.status).toBe(404);

    const noKey = await post(server, '/api/me/payPurchase', { purchase: other.id }, bearer(who.token));
    expect(noKey.status).toBe(400);
    const badKey = await pay(who, other.id, 'short');
    expect(badKey.status).toBe(400);
    const guest = await post(server, '/api/me/payPurchase', { purchase: other.id }, { 'idempotency-key': newKey() });
    expect(guest.status).toBe(401);
    const priceSent = await pay(who, other.id, newKey(), { expectedPrice: 1 });
    expect(priceSent.status).toBe(400);

    await post(server, '/api/me/cancelPurchase', { purchase: other.id }, bearer(who.token));
    const cancelledPay = await pay(who, other.id);
    expect(cancelledPay.status).toBe(422);
    expect(cancelledPay.body.msg).toBe('این درخواست دیگر در انتظار پرداخت نیست.');
    const cancelAgain = await post(server, '/api/me/cancelPurchase', { purchase: other.id }, bearer(who.token));
    expect(cancelAgain.status).toBe(422);
    expect(await balanceOf(who)).toEqual({ balance: purchase.expectedPrice * 2, reserved: purchase.expectedPrice });
  });

  it('a process stopped mid-payment leaves no key stuck: the paid outcome replays, an abandoned claim starts over', async () => {
    const who = await customer();
    const paidFirst = await request(who, 10);
    await deposit(who, paidFirst.expectedPrice);
    const key = newKey();
    const first = await pay(who, paidFirst.id, key);
    expect(first.status).toBe(200);
    // As if the process stopped after the payment's transaction committed and before the full answer was stored.
    await db
      .updateTable('payRequests')
      .set({ result: JSON.stringify({ walletWithdrawAmount: paidFirst.expectedPrice, payable: 0, gatewayUrl: null }) })
      .where('key', '=', key)
      .execute();
    const replay = await pay(who, paidFirst.id, key);
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual(first.body.data);

    // As if the process stopped between claiming a key and the bank's answer: a minute later the key is free.
    const unpaid = await request(who, 10);
    const stuckKey = newKey();
    const stuck = await pay(who, unpaid.id, stuckKey);
    expect(stuck.status).toBe(200);
    await db.updateTable('payRequests').set({ result: null }).where('key', '=', stuckKey).execute();
    const waiting = await pay(who, unpaid.id, stuckKey);
    expect(waiting.status).toBe(409);
    await db
      .updateTable('payRequests')
      .set({ createdAt: sql<Date>`now() - interval '2 minutes'` })
      .where('key', '=', stuckKey)
      .execute();
    const startedOver = await pay(who, unpaid.id, stuckKey);
    expect(startedOver.status, startedOver.body.msg).toBe(200);
    expect(startedOver.body.data).toMatchObject({ payable: unpaid.expectedPrice, walletWithdrawAmount: 0 });
    expect((startedOver.body.data as PayResult).gatewayUrl).not.toBe((stuck.body.data as PayResult).gatewayUrl);
    const again = await pay(who, unpaid.id, stuckKey);
    expect(again.body.data).toEqual(startedOver.body.data);
  });

  it('an expired quote is refused with a fresh one, and paying with it re-prices the request', async () => {
    const who = await customer();
    const purchase = await request(who, 10);
    await deposit(who, purchase.expectedPrice * 3);
    await sql`update quotes set expires_at = now() - interval '1 minute' where id = (
      select quote_id from purchases where id = ${purchase.id})`.execute(db);
    const refused = await pay(who, purchase.id);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('اعتبار قیمت');
    const fresh = (refused.body.data as { quote: { quoteId: string; expectedPrice: number } }).quote;
    expect(await balanceOf(who)).toEqual({ balance: purchase.expectedPrice * 3, reserved: 0 });
    const paid = await pay(who, purchase.id, newKey(), { quoteId: fresh.quoteId });
    expect(paid.status, paid.body.msg).toBe(200);
    expect((paid.body.data as PayResult).purchase).toMatchObject({
      state: 'paid',
      expectedPrice: fresh.expectedPrice,
    });
    // A quote makes one request: using it again is refused.
    const other = await request(who, 10);
    await sql`update quotes set expires_at = now() - interval '1 minute' where id = (
      select quote_id from purchases where id = ${other.id})`.execute(db);
    const reuse = await pay(who, other.id, newKey(), { quoteId: fresh.quoteId });
    expect(reuse.status).toBe(409);
  });

  it('50 parallel payments on one wallet succeed only as far as the wallet reaches', async () => {
    const who = await customer();
    const purchases: Purchase[] = [];
    for (let i = 0; i < 50; i++) purchases.push(await request(who, 10));
    const price = purchases[0]!.expectedPrice;
    const wallet = price * 7 + price / 2;
    await deposit(who, wallet);
    const results = await Promise.all(purchases.map((p) => pay(who, p.id)));
    expect(results.map((r) => r.status)).toEqual(purchases.map(() => 200));
    const fromWallet = results.filter((r) => (r.body.data as PayResult).gatewayUrl === null);
    expect(fromWallet).toHaveLength(7);
    const balance = await balanceOf(who);
    expect(balance).toEqual({ balance: wallet - 7 * price, reserved: 7 * price });
  });
});

describe('randomized payments', () => {
  // Each step: open a request and pay it (from the wallet or at the bank with any ending), replay a callback,
  // cancel, deposit, staff fulfil a paid request (done with a real price, failed, or failed through the customer's
  // error with fee and tax kept), settle an abandoned bank payment by hand (payOffline with its token), record a
  // plain bank deposit by hand (payOffline without a token, by the customer's mobile number), withdraw part of a
  // wallet (then done, refused or left waiting), or reject a customer's profile at level 1 (their paid, unfulfilled
  // requests are invalidated and the money returns; staff then approve the profile again so the customer goes on).
  // The invariants hold after every step.
  const steps = envInteger('PAYMENT_FUZZ_STEPS', 1000, 1);
  const seed = envSeed('PAYMENT_FUZZ_SEED', 8);
  const replay = announceSeed('payment fuzz', { PAYMENT_FUZZ_SEED: seed, PAYMENT_FUZZ_STEPS: steps });
  // About 35 ms a step on PGlite; the budget grows with the run.
  const timeout = Math.max(600_000, steps * 600);

  it(`keeps the ledger whole over ${steps} random steps across several customers`, { timeout }, () =>
    replayable(replay, fuzz),
  );

  async function fuzz(): Promise<void> {
    const people = await Promise.all(Array.from({ length: 4 }, () => customer()));
    const staff = await money.staffWithActions([
      'manageCurrencyPayments',
      'manageWithdrawals',
      'approveBankAccountOwnership',
      'manageCollections',
      'approveProfileL1',
    ]);
    const staffPost = (path: string, body: Record<string, unknown>) => post(server, path, body, bearer(staff.token));
    // Every customer has an approved bank account to withdraw to.
    const accounts = new Map<Customer, number>();
    for (const [n, who] of people.entries()) {
      const digits = String(9_000_000 + n).padStart(19, '0');
      const iban = `IR${String(98 - ibanMod97(`IR00012${digits}`)).padStart(2, '0')}012${digits}`;
      const saved = await post(
        server,
        '/api/me/saveUserBankAccount',
        { iban, ownerName: 'سارا کریمی' },
        bearer(who.token),
      );
      expect(saved.status, saved.body.msg).toBe(200);
      const account = (saved.body.data as { id: number }).id;
      const task = await db
        .selectFrom('tasks')
        .select('id')
        .where('userBankAccountId', '=', account)
        .executeTakeFirstOrThrow();
      expect((await staffPost('/api/sys/fetchApproveUbaOwnerTaskData', { taskId: task.id })).status).toBe(200);
      expect((await staffPost('/api/sys/approveUserBankAccountOwnership', { taskId: task.id })).status).toBe(200);
      accounts.set(who, account);
    }
    const mobiles = new Map<Customer, string>();
    for (const who of people) {
      const row = await db
        .selectFrom('users')
        .select('mobileNo')
        .where('id', '=', who.userId)
        .executeTakeFirstOrThrow();
      mobiles.set(who, row.mobileNo!);
    }
    /** Opens a level-1 review of `who` (as a profile change would) and has staff claim it. */
    const reviewTask = async (who: Customer) => {
      const taskId = (await openTaskOnce(db, 'approveProfileAsL1Task', who.userId, { level: 1 }))!;
      expect(taskId).not.toBeNull();
      const claimed = await staffPost('/api/sys/fetchApproveProfileAsL1TaskData', { taskId });
      expect(claimed.status, claimed.body.msg).toBe(200);
      return taskId;
    };
    const internal = await staffPost('/api/sys/searchInternalBankAccounts', {});
    const ourAccount = (internal.body.data as { items: Array<{ id: number; isActive: boolean }> }).items.find(
      (a) => a.isActive,
    )!.id;
    const open: Array<{ who: Customer; purchase: Purchase }> = [];
    const paid: Array<{ who: Customer; purchase: Purchase }> = [];
    const callbacks: string[] = [];
    let references = 0;
    const step = fc.oneof(
      fc.record({ kind: fc.constant('request' as const), who: fc.nat(3), amount: fc.integer({ min: 10, max: 40 }) }),
      fc.record({
        kind: fc.constant('pay' as const),
        pick: fc.nat(),
        ending: fc.constantFrom('pay', 'cancel', 'mismatch', 'abandon'),
      }),
      fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('replay' as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant('deposit' as const),
        who: fc.nat(3),
        amount: fc.integer({ min: 1, max: 30_000_000 }),
      }),
      fc.record({
        kind: fc.constant('fulfil' as const),
        pick: fc.nat(),
        ending: fc.constantFrom('done', 'failed', 'refundUserError'),
        share: fc.integer({ min: 1, max: 100 }),
      }),
      fc.record({ kind: fc.constant('offline' as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant('offlineDeposit' as const),
        who: fc.nat(3),
        amount: fc.integer({ min: 1, max: 30_000_000 }),
      }),
      fc.record({ kind: fc.constant('rejectL1' as const), who: fc.nat(3) }),
      fc.record({
        kind: fc.constant('withdraw' as const),
        who: fc.nat(3),
        share: fc.integer({ min: 1, max: 100 }),
        ending: fc.constantFrom('done', 'refused', 'waiting'),
      }),
    );
    const plan = fc.sample(fc.array(step, { minLength: steps, maxLength: steps }), { numRuns: 1, seed })[0]!;
    let done = 0;
    const seen = new Map<string, number>();
    const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
    for (const s of plan) {
      if (s.kind === 'request') {
        if (open.length < 30) open.push({ who: people[s.who]!, purchase: await request(people[s.who]!, s.amount) });
      } else if (s.kind === 'deposit') {
        await deposit(people[s.who]!, s.amount);
      } else if (s.kind === 'fulfil') {
        if (paid.length > 0) {
          const [target] = paid.splice(s.pick % paid.length, 1);
          const task = await db
            .selectFrom('tasks')
            .select('id')
            .where('purchaseId', '=', target!.purchase.id)
            .executeTakeFirstOrThrow();
          const opened = await staffPost('/api/sys/fetchFulfilmentTaskData', { taskId: task.id });
          expect(opened.status, opened.body.msg).toBe(200);
          const { expectedPrice, totalCosts } = (await purchaseOf(target!.who, target!.purchase.id))
            .purchase as Purchase & {
            totalCosts: number;
          };
          const res =
            s.ending === 'done'
              ? await staffPost('/api/sys/uafCprDone', {
                  purchase: target!.purchase.id,
                  // Anything above the costs up to the whole reservation.
                  realPrice: totalCosts + Math.max(1, Math.floor(((expectedPrice - totalCosts) * s.share) / 100)),
                  currencyPaymentReference: `REF-${references++}`,
                })
              : s.ending === 'failed'
                ? await staffPost('/api/sys/uafCprFailed', { purchase: target!.purchase.id, reason: 'پرداخت ممکن نشد' })
                : // Fee and tax kept, the rest back to the wallet (transaction_J).
                  await staffPost('/api/sys/uafCprRefundUserError', {
                    purchase: target!.purchase.id,
                    reason: 'نام کاربری اشتباه بود',
                  });
          expect(res.status, res.body.msg).toBe(200);
          count(`fulfil:${s.ending}`);
        }
      } else if (s.kind === 'offline') {
        const pending = await db
          .selectFrom('onlineProformas')
          .select(['callbackToken', 'amount', 'purchaseId'])
          .where('state', '=', 'pending')
          .orderBy('id')
          .execute();
        if (pending.length > 0) {
          const proforma = pending[s.pick % pending.length]!;
          const res = await staffPost('/api/sys/payOffline', {
            formIsValid: true,
            onlineProformaToken: proforma.callbackToken,
            collectionSourceAccountNo: '6037-9912-3456-7890',
            collectionDestinationAccount: ourAccount,
            collectionAmount: proforma.amount,
            collectionTrackingCode: `FUZZ-${process.pid}-${references++}`,
          });
          expect(res.status, res.body.msg).toBe(200);
          count('offline');
          const settled = open.findIndex((o) => o.purchase.id === proforma.purchaseId);
          if (settled >= 0) {
            const target = open[settled]!;
            const state = (await purchaseOf(target.who, target.purchase.id)).purchase.state;
            if (state !== 'waitingForPayment') open.splice(settled, 1);
            if (state === 'paid') paid.push(target);
          }
        }
      } else if (s.kind === 'offlineDeposit') {
        // A bank transfer with no online payment behind it: straight to the wallet of the customer by mobile.
        const who = people[s.who]!;
        const before = await balanceOf(who);
        const res = await staffPost('/api/sys/payOffline', {
          formIsValid: true,
          onlineProformaToken: '',
          customerMobileNo: mobiles.get(who),
          collectionSourceAccountNo: 'IR820540102680020817909002',
          collectionDestinationAccount: ourAccount,
          collectionAmount: s.amount,
          collectionTrackingCode: `FUZZ-D-${process.pid}-${references++}`,
        });
        expect(res.status, res.body.msg).toBe(200);
        expect(res.body.data).toMatchObject({ purchaseId: null, outcome: 'walletCredited' });
        expect(await balanceOf(who)).toEqual({ balance: before.balance + s.amount, reserved: before.reserved });
        count('offline:deposit');
      } else if (s.kind === 'rejectL1') {
        const who = people[s.who]!;
        const before = await balanceOf(who);
        const waiting = paid.filter((p) => p.who === who);
        const held = waiting.reduce((sum, p) => sum + p.purchase.expectedPrice, 0);
        const reason = 'تصویر کارت ملی خوانا نیست.';
        const rejected = await staffPost('/api/sys/rejectProfileAsL1', { taskId: await reviewTask(who), reason });
        expect(rejected.status, rejected.body.msg).toBe(200);
        // Every paid request of this customer still waiting for staff is invalidated; its whole price comes back.
        for (const p of waiting) {
          const detail = await purchaseOf(who, p.purchase.id);
          expect(detail.purchase.state).toBe('purchaseInvalidated');
          expect(detail.history.at(-1)).toMatchObject({ cause: 'profileL1Rejected', reason });
          paid.splice(paid.indexOf(p), 1);
        }
        expect(await balanceOf(who)).toEqual({ balance: before.balance + held, reserved: before.reserved - held });
        count(waiting.length > 0 ? 'rejectL1:invalidated' : 'rejectL1:nothingPaid');
        // The customer sends a better card image; staff approve level 1 again.
        const approved = await staffPost('/api/sys/approveProfileAsL1', { taskId: await reviewTask(who) });
        expect(approved.status, approved.body.msg).toBe(200);
      } else if (s.kind === 'withdraw') {
        const who = people[s.who]!;
        const { balance } = await balanceOf(who);
        const amount = Math.floor((balance * s.share) / 100);
        if (amount > 0) {
          const res = await post(
            server,
            '/api/me/requestWithdrawal',
            { bankAccount: accounts.get(who), amount },
            { ...bearer(who.token), 'idempotency-key': newKey() },
          );
          expect(res.status, res.body.msg).toBe(200);
          const withdrawal = (res.body.data as { id: number }).id;
          if (s.ending === 'done') {
            expect(
              (await staffPost('/api/sys/withdrawalDone', { withdrawal, reference: `W-${references++}` })).status,
            ).toBe(200);
          } else if (s.ending === 'refused') {
            expect(
              (await staffPost('/api/sys/withdrawalRefused', { withdrawal, reason: 'حساب مسدود است' })).status,
            ).toBe(200);
          }
          count(`withdraw:${s.ending}`);
        }
      } else if (s.kind === 'replay') {
        if (callbacks.length > 0)
          count(`replay:${(await callback(callbacks[s.pick % callbacks.length]!)).searchParams.get('payment')}`);
      } else if (open.length > 0) {
        const index = s.pick % open.length;
        const target = open[index]!;
        if (s.kind === 'cancel') {
          const res = await post(
            server,
            '/api/me/cancelPurchase',
            { purchase: target.purchase.id },
            bearer(target.who.token),
          );
          expect(res.status, res.body.msg).toBe(200);
          count('cancelled');
        } else {
          const res = await pay(target.who, target.purchase.id);
          expect([200, 409], res.body.msg).toContain(res.status);
          const result = res.body.data as PayResult;
          if (res.status === 409) count('quoteExpired');
          else if (!result.gatewayUrl) count('paidFromWallet');
          else if (s.ending === 'abandon') count('abandoned');
          else {
            const location = await atBank(result.gatewayUrl, {
              holderNationalCode: s.ending === 'mismatch' ? nationalCodeFor(9000) : target.who.nationalCode,
              action: s.ending === 'cancel' ? 'cancel' : 'pay',
            });
            callbacks.push(location);
            count(`bank:${(await callback(location)).searchParams.get('payment')}`);
          }
        }
        // Only requests still waiting for payment stay in play; paid ones wait for staff.
        const state = (await purchaseOf(target.who, target.purchase.id)).purchase.state;
        if (state !== 'waitingForPayment') {
          open.splice(index, 1);
          if (state === 'paid') paid.push(target);
        }
      }
      done++;
      const problems = await checkInvariants(db);
      if (problems.length > 0) throw new Error(`after step ${done} (${JSON.stringify(s)}): ${problems.join('; ')}`);
    }
    // The run went through every way a payment can end.
    for (const what of [
      'cancelled',
      'paidFromWallet',
      'abandoned',
      'bank:success',
      'bank:cancelled',
      'bank:cardMismatch',
      'replay:success',
      'fulfil:done',
      'fulfil:failed',
      'fulfil:refundUserError',
      'offline',
      'offline:deposit',
      'rejectL1:invalidated',
      'rejectL1:nothingPaid',
      'withdraw:done',
      'withdraw:refused',
      'withdraw:waiting',
    ]) {
      expect(seen.get(what) ?? 0, `${what} in ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
    }
    expect(done).toBe(steps);
    // Every paid request holds exactly its price in reservations.
    for (const who of people) {
      const paid = await db
        .selectFrom('purchases')
        .select(sql<number>`coalesce(sum(expected_price), 0)::bigint`.as('total'))
        .where('userId', '=', who.userId)
        .where('state', '=', 'paid')
        .executeTakeFirstOrThrow();
      expect((await balanceOf(who)).reserved).toBe(Number(paid.total));
    }
  }
});
