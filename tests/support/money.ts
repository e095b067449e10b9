/**
 * What money tests on a real server share: verified customers, a submitted TOEFL request, paying it, deposits,
 * reading a request, transactions and balances, staff holding given actions, and a withdrawal waiting for staff.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { postTransaction, userBalance } from '../../src/server/modules/ledger/service';
import { ibanMod97 } from '../../src/shared/iban';
import { Tx } from '../../src/server/modules/ledger/types';
import { checkInvariants } from '../../src/server/modules/ledger/invariants';
import { bearer, post, type RunningServer, staffWithActions, startServer, verifiedCustomer } from './server';

export interface Customer {
  token: string;
  userId: number;
  nationalCode: string;
}

export interface Purchase {
  id: number;
  state: string;
  stateIsFinal: boolean;
  stateIsFailure: boolean;
  expectedPrice: number;
  grossPrice: number;
  totalCosts: number;
  walletAmount: number;
  payablePrice: number;
}

export interface PayResult {
  purchase: Purchase;
  walletWithdrawAmount: number;
  payable: number;
  gatewayUrl: string | null;
}

export interface PurchaseDetail {
  purchase: Purchase;
  history: Array<{ state: string; cause: string | null; reason?: string | null }>;
  payments: Array<{ state: string; collectionId: number | null; amount: number }>;
}

/** Valid national codes (check digit), distinct per customer. */
export function nationalCodeFor(n: number): string {
  const body = String(100_000_000 + n * 7919).slice(-9);
  const sum = body.split('').reduce((acc, d, i) => acc + Number(d) * (10 - i), 0) % 11;
  return body + String(sum < 2 ? sum : 11 - sum);
}

/** The helpers bound to one running server (call `ready()` once, in beforeAll). */
/** A valid Iranian IBAN of bank 012, the `n`th of the tests. */
export function testIban(n: number): string {
  const account = String(n).padStart(19, '0');
  return `IR${String(98 - ibanMod97(`IR00012${account}`)).padStart(2, '0')}012${account}`;
}

export function moneyHelpers(server: RunningServer) {
  const db = (): DB => server.app.database.db;
  let usd: { id: number; rate: number } | undefined;
  let cardGroup: number | undefined;
  let customers = 0;
  let keys = 0;
  const newKey = () => `pay-key-${process.pid}-${keys++}`;

  const helpers = {
    newKey,

    /** Reads the dollar and the card payment group the requests use. */
    async ready(): Promise<void> {
      const currencies = await post(server, '/api/public/searchCurrencies');
      usd = (currencies.body.data as { items: Array<{ id: number; code: string; rate: number }> }).items.find(
        (c) => c.code === 'USD',
      )!;
      const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
        items: Array<{ id: number; isCash: boolean }>;
      };
      cardGroup = groups.items.find((g) => !g.isCash)!.id;
    },

    get usd() {
      return usd!;
    },

    /** A new customer whose profile staff approved and who accepted every category's terms. */
    async customer(): Promise<Customer> {
      const n = customers++;
      const nationalCode = nationalCodeFor(n + 1);
      const token = await verifiedCustomer(server, `0913${String(4_000_000 + n)}`, nationalCode);
      const me = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
      return { token, userId: (me.body.data as { id: number }).id, nationalCode };
    },

    /**
     * Submits a TOEFL-like request for `amount` USD by card (or at another desk of the general form, with extra
     * fields); the request waits for payment.
     */
    async request(
      who: Customer,
      amount = 100,
      { desk = 'toeflGeneralCpr', fields = {} }: { desk?: string; fields?: Record<string, unknown> } = {},
    ): Promise<Purchase> {
      const form = { currency: usd!.id, amount, requestedPaymentMethodGroup: cardGroup! };
      const quote = await post(server, `/api/me/desks/${desk}/priceInquiry`, form, bearer(who.token));
      expect(quote.status, quote.body.msg).toBe(200);
      const submitted = await post(
        server,
        `/api/me/desks/${desk}/requests`,
        {
          ...fields,
          ...form,
          quoteId: (quote.body.data as { quoteId: string }).quoteId,
          targetPageAddress: 'https://www.ets.org/toefl/pay',
          targetPageUsername: 'student1',
          targetPagePassword: 'secret',
        },
        { ...bearer(who.token), 'idempotency-key': newKey() },
      );
      expect(submitted.status, submitted.body.msg).toBe(200);
      return submitted.body.data as Purchase;
    },

    async pay(who: Customer, purchase: number, key = newKey(), extra: Record<string, unknown> = {}) {
      return post(
        server,
        '/api/me/payPurchase',
        { purchase, ...extra },
        { ...bearer(who.token), 'idempotency-key': key },
      );
    },

    async payOk(who: Customer, purchase: number): Promise<PayResult> {
      const res = await helpers.pay(who, purchase);
      expect(res.status, res.body.msg).toBe(200);
      return res.body.data as PayResult;
    },

    /**
     * Pays a started online payment at the sandbox bank without coming back: returns the callback address. With
     * `holderNationalCode`, the card is someone else's.
     */
    async payAtSandboxBankOnly(
      who: Customer,
      gatewayUrl: string,
      holderNationalCode = who.nationalCode,
    ): Promise<string> {
      const bankPage = new URL(gatewayUrl, server.url);
      const res = await fetch(bankPage, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ cardNo: '6037991234567890', holderNationalCode, action: 'pay' }),
      });
      expect(res.status).toBe(303);
      return new URL(res.headers.get('location')!, bankPage).toString();
    },

    /** Pays a started online payment at the sandbox bank and comes back through the gateway's callback, as a browser would. */
    async payAtSandboxBank(who: Customer, gatewayUrl: string, holderNationalCode?: string): Promise<void> {
      const back = await fetch(await helpers.payAtSandboxBankOnly(who, gatewayUrl, holderNationalCode), {
        redirect: 'manual',
      });
      expect(back.status).toBeLessThan(400);
    },

    /** Money into the wallet as staff would record a deposit (transaction_B). */
    async deposit(who: Customer, amount: number): Promise<void> {
      await db()
        .transaction()
        .execute((trx) =>
          postTransaction(trx, { type: Tx.collectOffline, userId: who.userId, amounts: { collectionAmount: amount } }),
        );
    },

    /** A request paid from a deposit of exactly its price: it waits for staff with its whole price reserved. */
    async paidRequest(
      who: Customer,
      amount = 100,
      options: { desk?: string; fields?: Record<string, unknown> } = {},
    ): Promise<Purchase> {
      const purchase = await helpers.request(who, amount, options);
      await helpers.deposit(who, purchase.expectedPrice);
      const paid = await helpers.payOk(who, purchase.id);
      expect(paid.purchase.state).toBe('paid');
      return paid.purchase;
    },

    async purchaseOf(who: Customer, id: number): Promise<PurchaseDetail> {
      const res = await post(server, '/api/me/fetchPurchase', { purchase: id }, bearer(who.token));
      expect(res.status, res.body.msg).toBe(200);
      return res.body.data as PurchaseDetail;
    },

    async transactions(who: Customer): Promise<Array<Record<string, unknown>>> {
      const res = await post(server, '/api/me/searchTransactions', { perPage: 500 }, bearer(who.token));
      return (res.body.data as { items: Array<Record<string, unknown>> }).items;
    },

    balanceOf: (who: Customer) => userBalance(db(), who.userId),

    /** A staff member holding exactly `actionNames` (tests/support/server.ts); their token and id. */
    staffWithActions: (actionNames: string[]) => staffWithActions(server, actionNames),

    /**
     * A withdrawal waiting for staff: `who` saves the account `iban`, staff (`staffToken`, approving bank accounts)
     * approve its ownership, `who` gets 3,000,000 rial and asks for 1,000,000 of it.
     */
    async withdrawalWaiting(who: Customer, staffToken: string, iban: string): Promise<void> {
      const saved = await post(
        server,
        '/api/me/saveUserBankAccount',
        { iban, ownerName: 'سارا کریمی' },
        bearer(who.token),
      );
      expect(saved.status, saved.body.msg).toBe(200);
      const account = saved.body.data as { id: number };
      const task = await db()
        .selectFrom('tasks')
        .select('id')
        .where('userBankAccountId', '=', account.id)
        .executeTakeFirstOrThrow();
      await post(server, '/api/sys/fetchApproveUbaOwnerTaskData', { taskId: task.id }, bearer(staffToken));
      const approved = await post(
        server,
        '/api/sys/approveUserBankAccountOwnership',
        { taskId: task.id },
        bearer(staffToken),
      );
      expect(approved.status, approved.body.msg).toBe(200);
      await helpers.deposit(who, 3_000_000);
      const asked = await post(
        server,
        '/api/me/requestWithdrawal',
        { bankAccount: account.id, amount: 1_000_000 },
        { ...bearer(who.token), 'idempotency-key': newKey() },
      );
      expect(asked.status, asked.body.msg).toBe(200);
    },
  };
  return helpers;
}

export type MoneyHelpers = ReturnType<typeof moneyHelpers>;

/** What a money test file works with: its server, that server's database, and the money helpers on it. */
export interface MoneyServer {
  server: RunningServer;
  db: DB;
  money: MoneyHelpers;
}

/**
 * The preamble of a money test file, on a real server and database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): a server of its own (`options` as startServer takes them), the money helpers ready, and the
 * ledger invariants checked after every test. `ready` runs once the server is up, for what the file keeps (its
 * variables, staff members, ids it reads).
 */
export function withMoneyServer(
  options: Parameters<typeof startServer>[0],
  ready: (t: MoneyServer) => void | Promise<void>,
  /** How long starting may take, in milliseconds (vitest's hook timeout when absent). */
  timeout?: number,
): void {
  let t: MoneyServer | undefined;
  beforeAll(async () => {
    const server = await startServer(options);
    const money = moneyHelpers(server);
    await money.ready();
    t = { server, db: server.app.database.db, money };
    await ready(t);
  }, timeout);
  afterAll(async () => t?.server.stop());
  afterEach(async () => {
    expect(await checkInvariants(t!.db)).toEqual([]);
  });
}
