/**
 * Receipts anyone can verify (issue 34, part 1) on a real server and database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): a collection's receipt and a finished request's carry a verification code, and the public
 * verifyReceipt answers it with exactly the public fields — never a mobile number, national code, card or internal id;
 * the code typed in other forms verifies; forged codes get the receipt's own 404 until the address is rate-limited
 * (429); the request's state now (paid, done, refunded, returned to a card) shows. Ledger invariants after every test.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toPersianDigits } from '../../src/shared/digits';
import { encodeReceiptCode, normalizeReceiptCode } from '../../src/shared/receipt-code';
import { type Customer, type MoneyHelpers, nationalCodeFor, withMoneyServer } from '../support/money';
import { bearer, post, type RunningServer } from '../support/server';

let server: RunningServer;
let money: MoneyHelpers;
let staff: { token: string; userId: number };

/** Lookups per address in the test server's window: exactly the 200 forged codes of the test below. */
const LIMIT = 200;

withMoneyServer(
  // Each test speaks from an address of its own (X-Forwarded-For, believed from the local "proxy").
  { web: false, env: { TRUST_PROXY: '127.0.0.1', RECEIPT_VERIFY_LIMIT_PER_IP: String(LIMIT) } },
  async (t) => {
    ({ server, money } = t);
    staff = await money.staffWithActions(['manageCurrencyPayments', 'viewTasks']);
  },
);

const PUBLIC_FIELDS = [
  'amount',
  'code',
  'currencyCode',
  'foreignAmount',
  'issuedAt',
  'kind',
  'paidAt',
  'payerName',
  'service',
  'state',
  'stateChangedAt',
].sort();
const NOT_FOUND = 'رسیدی با این کد یافت نشد';
const CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;

let addresses = 0;
/** A client address of its own, so one test's lookups do not count against another's. */
const newAddress = () => `10.34.${Math.floor(addresses / 250)}.${(addresses++ % 250) + 1}`;

const verify = (code: string, address: string) =>
  post(server, '/api/public/verifyReceipt', { code }, { 'x-forwarded-for': address });

async function verified(code: string, address = newAddress()): Promise<Record<string, unknown>> {
  const res = await verify(code, address);
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as Record<string, unknown>;
}

interface Receipt {
  id: number;
  verificationCode: string;
  verificationUrl: string | null;
  traceCode: string;
  referenceId: string | null;
  cardNo: string | null;
  amount: number;
}

/** A request paid at the sandbox bank (optionally with someone else's card): the request and its collection's receipt. */
async function paidOnline(who: Customer, holderNationalCode?: string) {
  const purchase = await money.request(who, 100);
  const paying = await money.payOk(who, purchase.id);
  await money.payAtSandboxBank(who, paying.gatewayUrl!, holderNationalCode);
  const detail = await money.purchaseOf(who, purchase.id);
  const collection = detail.payments.find((p) => p.collectionId !== null)!.collectionId!;
  const res = await post(server, '/api/me/fetchCollection', { collection }, bearer(who.token));
  expect(res.status, res.body.msg).toBe(200);
  return { purchase, receipt: res.body.data as Receipt };
}

async function identityOf(who: Customer) {
  const me = await post(server, '/api/me/fetchUserData', undefined, bearer(who.token));
  return me.body.data as { id: number; uid: string; mobileNo: string; nationalCode: string };
}

/** Every leaf value of a JSON document. */
function leaves(value: unknown): unknown[] {
  if (value === null || typeof value !== 'object') return [value];
  return Object.values(value).flatMap(leaves);
}

describe('verifyReceipt', () => {
  it("answers a collection's code with exactly the public fields, and nothing that identifies the customer", async () => {
    const who = await money.customer();
    const { purchase, receipt } = await paidOnline(who);
    expect(receipt.verificationCode).toMatch(CODE_PATTERN);
    expect(receipt.verificationUrl).toBeNull();
    // The code is made once: the receipt shows the same one every time.
    const again = await post(server, '/api/me/fetchCollection', { collection: receipt.id }, bearer(who.token));
    expect((again.body.data as Receipt).verificationCode).toBe(receipt.verificationCode);

    const data = await verified(receipt.verificationCode);
    expect(Object.keys(data).sort()).toEqual(PUBLIC_FIELDS);
    expect(data).toMatchObject({
      code: receipt.verificationCode,
      kind: 'collection',
      amount: receipt.amount,
      foreignAmount: 100,
      currencyCode: 'USD',
      state: 'paid',
      payerName: 'س*** ک***',
    });
    expect(typeof data.service).toBe('string');
    expect(data.service).not.toBe('');
    for (const at of ['issuedAt', 'paidAt', 'stateChangedAt']) {
      expect(new Date(data[at] as string).toISOString()).toBe(data[at]);
    }

    // No mobile number, national code, card, trace code or bank reference anywhere in the answer, in any digits…
    const me = await identityOf(who);
    const text = JSON.stringify((await verify(receipt.verificationCode, newAddress())).body);
    const secrets = [me.mobileNo, me.mobileNo.slice(1), who.nationalCode, me.uid, receipt.traceCode];
    if (receipt.referenceId) secrets.push(receipt.referenceId);
    secrets.push('6037991234567890', '603799', receipt.cardNo ?? '603799******7890');
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(toPersianDigits(secret));
    }
    // …and no internal id (not even the request's) as any value.
    const ids = [receipt.id, purchase.id, me.id, who.userId];
    for (const value of leaves(data)) {
      for (const id of ids) {
        expect(value).not.toBe(id);
        expect(value).not.toBe(String(id));
      }
    }
  });

  it('accepts the code with spaces, in lower case, without dashes, in Persian digits and with look-alike letters', async () => {
    const who = await money.customer();
    const { receipt } = await paidOnline(who);
    const code = receipt.verificationCode;
    const address = newAddress();
    const forms = [
      code.toLowerCase(),
      code.replace(/-/g, ' '),
      `  ${code.replace(/-/g, '')}  `,
      code.replace(/-/g, ' - ').toLowerCase(),
      toPersianDigits(code),
      toPersianDigits(code.toLowerCase().replace(/-/g, '')),
      // Crockford's look-alikes: O reads as 0, I and L as 1.
      `${code}`.replace(/0/g, 'O').replace(/1/g, 'l'),
      `${code}`.replace(/0/g, 'o').replace(/1/g, 'I'),
    ];
    for (const form of forms) {
      expect(normalizeReceiptCode(form)).toBe(code.replace(/-/g, ''));
      const data = await verified(form, address);
      expect(data.code).toBe(code);
      expect(data.kind).toBe('collection');
    }
    // One character short is no code at all: the receipt's own answer, not a validation error.
    const res = await verify(code.slice(0, -1), address);
    expect(res.status).toBe(404);
    expect(res.body.msg).toBe(NOT_FOUND);
  });

  it("shows the request's state now: paid, then done with the finished request's own receipt, or refunded", async () => {
    const who = await money.customer();
    const { purchase, receipt } = await paidOnline(who);
    const paid = await verified(receipt.verificationCode);
    expect(paid.state).toBe('paid');

    const done = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: purchase.id, realPrice: purchase.expectedPrice - 5_000, currencyPaymentReference: 'ETS-34-1' },
      bearer(staff.token),
    );
    expect(done.status, done.body.msg).toBe(200);
    const afterDone = await verified(receipt.verificationCode);
    expect(afterDone.state).toBe('done');
    expect(new Date(afterDone.stateChangedAt as string).getTime()).toBeGreaterThanOrEqual(
      new Date(paid.stateChangedAt as string).getTime(),
    );

    // The finished request's receipt (what was paid abroad) has a code of its own.
    const detail = (await post(server, '/api/me/fetchPurchase', { purchase: purchase.id }, bearer(who.token))).body
      .data as { currencyPayment: { verificationCode: string; verificationUrl: string | null } };
    const requestCode = detail.currencyPayment.verificationCode;
    expect(requestCode).toMatch(CODE_PATTERN);
    expect(requestCode).not.toBe(receipt.verificationCode);
    const again = (await post(server, '/api/me/fetchPurchase', { purchase: purchase.id }, bearer(who.token))).body
      .data as { currencyPayment: { verificationCode: string } };
    expect(again.currencyPayment.verificationCode).toBe(requestCode);
    const request = await verified(requestCode);
    expect(Object.keys(request).sort()).toEqual(PUBLIC_FIELDS);
    expect(request).toMatchObject({
      kind: 'request',
      amount: purchase.expectedPrice - 5_000,
      foreignAmount: 100,
      currencyCode: 'USD',
      state: 'done',
      payerName: 'س*** ک***',
      service: afterDone.service,
    });
    expect(JSON.stringify(request)).not.toContain('ETS-34-1');

    // Another request, refunded after a user error.
    const other = await paidOnline(who);
    const refunded = await post(
      server,
      '/api/sys/uafCprRefundUserError',
      { purchase: other.purchase.id, reason: 'نام کاربری واردشده در صفحه آزمون وجود ندارد.' },
      bearer(staff.token),
    );
    expect(refunded.status, refunded.body.msg).toBe(200);
    expect((await verified(other.receipt.verificationCode)).state).toBe('refunded');
  });

  it("says the money went back to the paying card when it was someone else's, without their national code", async () => {
    const who = await money.customer();
    const holder = nationalCodeFor(3434);
    const { receipt } = await paidOnline(who, holder);
    const data = await verified(receipt.verificationCode);
    expect(data.state).toBe('returnedToCard');
    expect(JSON.stringify(data)).not.toContain(holder);
  });

  it('refuses 200 forged codes with the receipt answer, then limits the address (429); others are not held back', async () => {
    const who = await money.customer();
    const { receipt } = await paidOnline(who);
    const address = newAddress();
    for (let i = 0; i < LIMIT; i += 1) {
      // Half well-formed random codes, half text that cannot be a code: the same answer for both.
      const forged = i % 2 === 0 ? encodeReceiptCode(randomBytes(10)) : `FORGED-${i}`;
      const res = await verify(forged, address);
      expect(res.status, `forged code ${i}`).toBe(404);
      expect(res.body).toMatchObject({ result: false, msg: NOT_FOUND });
    }
    const limited = await verify(encodeReceiptCode(randomBytes(10)), address);
    expect(limited.status).toBe(429);
    expect(limited.body.result).toBe(false);
    expect(limited.body.msg).toMatch(/^تعداد بررسی رسید از این نشانی بیش از حد مجاز است/);
    // A genuine code from the limited address waits too; from another address it verifies.
    expect((await verify(receipt.verificationCode, address)).status).toBe(429);
    expect((await verified(receipt.verificationCode)).kind).toBe('collection');

    // An unknown code is not an unknown address: that one has its own message.
    const unknownAddress = await post(server, '/api/public/verifyReceipts', { code: receipt.verificationCode });
    expect(unknownAddress.status).toBe(404);
    expect(unknownAddress.body.msg).not.toBe(NOT_FOUND);
  });
});
