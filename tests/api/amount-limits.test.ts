/**
 * The largest amounts (issue 30), on a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * the contract's money inputs stop at what one ledger posting may move (10^15 rial), and a deposit the contract
 * allows but an account cannot add any more is refused with «مبلغ بیش از حد مجاز است», naming no internal account,
 * with nothing moved. A file of its own: it leaves the company's bank account near the limit. The ledger
 * invariants are checked after every test.
 */
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { LARGEST_AMOUNT } from '../../src/server/modules/ledger/types';
import { type MoneyHelpers, withMoneyServer } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer } from '../support/server';

const TOO_LARGE = 'مبلغ بیش از حد مجاز است.';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let admin: string;
let bankAccount: number;

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  admin = await loginAdmin(server);
  const accounts = await post(server, '/api/sys/searchInternalBankAccounts', {}, bearer(admin));
  expect(accounts.status, accounts.body.msg).toBe(200);
  bankAccount = (accounts.body.data as { items: Array<{ id: number; isActive: boolean }> }).items.find(
    (a) => a.isActive,
  )!.id;
});

let codes = 0;
async function deposit(mobileNo: string, amount: number) {
  return post(
    server,
    '/api/sys/payOffline',
    {
      formIsValid: true,
      onlineProformaToken: '',
      customerMobileNo: mobileNo,
      collectionSourceAccountNo: '6037991234567890',
      collectionDestinationAccount: bankAccount,
      collectionTrackingCode: `LIMIT-${process.pid}-N${codes++}`,
      collectionAmount: amount,
    },
    bearer(admin),
  );
}

async function mobileOf(token: string): Promise<string> {
  const me = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
  return (me.body.data as { mobileNo: string }).mobileNo;
}

describe('amounts the ledger can hold', () => {
  it('the contract refuses a deposit, a withdrawal and a real price above 10^15 rial (400), in Persian', async () => {
    const who = await money.customer();
    const over = LARGEST_AMOUNT + 1;
    const deposited = await deposit(await mobileOf(who.token), over);
    expect(deposited.status).toBe(400);
    expect(deposited.body.msg).toBe(TOO_LARGE);
    const withdrawal = await post(
      server,
      '/api/me/requestWithdrawal',
      { bankAccount: 1, amount: over },
      { ...bearer(who.token), 'idempotency-key': money.newKey() },
    );
    expect(withdrawal.status).toBe(400);
    expect(withdrawal.body.msg).toBe(TOO_LARGE);
    const done = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: 1, realPrice: over, currencyPaymentReference: 'REF-1' },
      bearer(admin),
    );
    expect(done.status).toBe(400);
    expect(done.body.msg).toBe(TOO_LARGE);
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: 0 });
  });

  it('a deposit the contract allows but the accounts cannot add is refused without naming them, moving nothing', async () => {
    const who = await money.customer();
    const mobileNo = await mobileOf(who.token);
    // Nine of the largest deposits fit in a balance (below 2^53 − 1 ≈ 9.007 × 10^15); the tenth would not.
    for (let i = 0; i < 9; i++) {
      const ok = await deposit(mobileNo, LARGEST_AMOUNT);
      expect(ok.status, ok.body.msg).toBe(200);
    }
    expect(await money.balanceOf(who)).toEqual({ balance: 9 * LARGEST_AMOUNT, reserved: 0 });
    const collections = await db.selectFrom('collections').select('id').where('userId', '=', who.userId).execute();

    const tenth = await deposit(mobileNo, LARGEST_AMOUNT);
    expect(tenth.status).toBe(422);
    expect(tenth.body.msg).toBe(TOO_LARGE);
    expect(tenth.body.msg).not.toMatch(/bank|wallet|بانک|کیف/);
    expect(await money.balanceOf(who)).toEqual({ balance: 9 * LARGEST_AMOUNT, reserved: 0 });
    // The collection row went with the refused posting: one transaction.
    expect(await db.selectFrom('collections').select('id').where('userId', '=', who.userId).execute()).toEqual(
      collections,
    );
  });
});
