/**
 * ZarinPal's payouts (issue 46 point 1, decision 042) on a real server and database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL), with the ledger invariants checked after every test. The server takes payments through the
 * ZarinPal adapter (PAYMENT_GATEWAY=zarinpal) against a local HTTP server answering as ZarinPal's REST API v4 does
 * (as tests/api/zarinpal-adapter.test.ts), each payment from the customer's verified card. Staff upload ZarinPal's
 * payout report (schemas/reconciliation/statements/zarinpalPayouts.json) and our bank statement: a day's payments
 * and their payout → one transaction_M keyed payout:zarinpal:<reference> however often the day runs or the report
 * is uploaded, gatewayClearing at zero and the trial balance at zero; a short payout is `payoutDiffers`; takings no
 * payout brought within the usual delay (zarinpalPayoutDelayHours) and a reported payout never in our bank are
 * `payoutMissing`; a malformed report is a Persian 422 and nothing is stored.
 *
 * The server has no movable clock: payments go through the server's own paths now and the test then moves the
 * collection's time onto the day it chose; the ledger's rows stay on today, so the trial balance is read for today.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { addTehranDays, tehranDayOf, tehranDayWindow } from '../../src/shared/calendar/tehran-day';
import { gregorianToJalali, TEHRAN_OFFSET_MS } from '../../src/shared/calendar';
import { luhnValid, maskCardNumber } from '../../src/shared/cards/card-number';
import { toPersianDigits } from '../../src/shared/digits';
import { type Customer, type MoneyHelpers, withMoneyServer } from '../support/money';
import type { RunningServer } from '../support/server';
import { dataOf, type TypedApi, typedApi } from '../support/typed-api';

const MERCHANT = '1a2b3c4d-0000-4000-8000-123456789abc';

/** ZarinPal as its REST API v4 answers: request.json opens a payment, verify.json verifies it (once: 100, then 101). */
interface Opened {
  amount: number;
  callbackUrl: string;
  cardPan: string;
  refId: number | null;
}
const opened = new Map<string, Opened>();
let refIds = 7_000_000 + (process.pid % 1000) * 1000;
let zarinpal: Server;
const env: Record<string, string> = {
  PAYMENT_GATEWAY: 'zarinpal',
  ZARINPAL_MERCHANT_ID: MERCHANT,
  CARD_INQUIRY_DRIVER: 'sandbox',
};

beforeAll(async () => {
  zarinpal = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += String(chunk)));
    req.on('end', () => {
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      const send = (data: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data, errors: [] }));
      };
      if (req.url === '/pg/v4/payment/request.json') {
        const authority = `A${String(opened.size + 1).padStart(35, '0')}`;
        const metadata = body.metadata as { card_pan?: string };
        opened.set(authority, {
          amount: Number(body.amount),
          callbackUrl: String(body.callback_url),
          cardPan: metadata.card_pan ?? '',
          refId: null,
        });
        return send({ code: 100, message: 'Success', authority, fee_type: 'Merchant', fee: 0 });
      }
      const payment = opened.get(String(body.authority));
      if (req.url === '/pg/v4/payment/verify.json' && payment && payment.amount === Number(body.amount)) {
        const code = payment.refId === null ? 100 : 101;
        payment.refId ??= refIds++;
        return send({
          code,
          message: code === 100 ? 'Paid' : 'Verified',
          card_hash: createHash('sha256').update(payment.cardPan).digest('hex').toUpperCase(),
          card_pan: maskCardNumber(payment.cardPan),
          ref_id: payment.refId,
          fee_type: 'Merchant',
          fee: 0,
        });
      }
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [], errors: { code: -54, message: 'Invalid authority.', validations: [] } }));
    });
  });
  await new Promise<void>((resolve) => zarinpal.listen(0, '127.0.0.1', resolve));
  env.ZARINPAL_BASE_URL = `http://127.0.0.1:${(zarinpal.address() as AddressInfo).port}`;
});
afterAll(async () => {
  zarinpal.closeAllConnections();
  await new Promise((resolve) => zarinpal.close(resolve));
});

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let staff: { api: TypedApi; token: string };
let payer: Customer;
let payerApi: TypedApi;
let cardId: number;
let cardNumber: string;
const today = tehranDayOf(new Date());

withMoneyServer({ web: false, env }, async (t) => {
  ({ server, db, money } = t);
  const made = await money.staffWithActions(['reconcile']);
  staff = { api: typedApi(server, made.token), token: made.token };
  payer = await money.customer();
  // A Luhn-valid Bank Melli card of this run, verified as the payer's by the sandbox inquiry.
  const body = `603799${String(process.pid % 1000).padStart(3, '0')}460000`.slice(0, 15);
  cardNumber = [...'0123456789'].map((d) => body + d).find(luhnValid)!;
  payerApi = typedApi(server, payer.token);
  const saved = await dataOf(payerApi.POST('/api/me/saveUserCard', { body: { cardNumber } }));
  expect(saved.state).toBe('verified');
  cardId = saved.id;
});

/** An instant on the Tehran day `day`, `minutes` after its midnight. */
const at = (day: string, minutes: number) => new Date(tehranDayWindow(day).from.getTime() + minutes * 60_000);
/** Tehran wall-clock date and time of an instant, Jalali: what ZarinPal's panel and our bank write. */
const jalaliAt = (when: Date) => {
  const wall = new Date(when.getTime() + TEHRAN_OFFSET_MS).toISOString();
  return `${gregorianToJalali(wall.slice(0, 10))} ${wall.slice(11, 16)}`;
};

/** A request of `usd` dollars paid through ZarinPal with the payer's card, moved onto `day`: what ZarinPal took. */
async function paidOnline(day: string, usd = 20): Promise<number> {
  const purchase = await money.request(payer, usd);
  const paying = await dataOf(
    payerApi.POST('/api/me/payPurchase', {
      body: { purchase: purchase.id, card: cardId },
      params: { header: { 'Idempotency-Key': money.newKey() } },
    }),
  );
  const authority = new URL(paying.gatewayUrl!).pathname.split('/').pop()!;
  const callback = new URL(opened.get(authority)!.callbackUrl, server.url);
  callback.searchParams.set('Authority', authority);
  callback.searchParams.set('Status', 'OK');
  expect((await fetch(callback, { redirect: 'manual' })).status).toBeLessThan(400);
  const c = await db
    .updateTable('collections')
    .set({ createdAt: at(day, 600) })
    .where('purchaseId', '=', purchase.id)
    .returning(['gateway', 'amount'])
    .executeTakeFirstOrThrow();
  expect(c.gateway).toBe('zarinpal');
  return Number(c.amount);
}

async function upload(statement: string, rows: string[], fileName = `${statement}.csv`) {
  const form = new FormData();
  form.set('statement', statement);
  form.set('attached_file', new Blob([rows.join('\n')], { type: 'text/csv' }), fileName);
  const res = await fetch(`${server.url}/api/sys/uploadReconciliationStatement`, {
    method: 'POST',
    headers: { authorization: `Bearer ${staff.token}` },
    body: form,
  });
  const body: { msg: string; data: unknown } = await res.json();
  return { status: res.status, body };
}

interface ReportLine {
  reference: string;
  amount: number;
  paidAt: Date;
  from: string;
  to?: string;
}
/** ZarinPal's payout report as its panel exports it: Persian headers, Jalali dates, amounts in rial. */
const reportRows = (lines: ReportLine[]) => [
  'شناسه تسویه,مبلغ,تاریخ تسویه,از تاریخ,تا تاریخ,وضعیت',
  ...lines.map(
    (l) =>
      `${l.reference},${l.amount},${jalaliAt(l.paidAt)},${gregorianToJalali(l.from)},${gregorianToJalali(l.to ?? l.from)},واریز شده`,
  ),
];
async function uploadReport(lines: ReportLine[]) {
  const res = await upload('zarinpalPayouts', reportRows(lines));
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
}

/** Our bank account's statement with these lines (money in). */
async function uploadBankLines(lines: Array<{ when: Date; amount: number; reference: string }>) {
  const res = await upload('bankAccount', [
    'تاریخ,ساعت,شرح,واریز,برداشت,شماره پیگیری',
    ...lines.map((l) => `${jalaliAt(l.when).replace(' ', ',')}:00,تسویه زرین‌پال,${l.amount},,${l.reference}`),
  ]);
  expect(res.status, res.body.msg).toBe(200);
}

const run = (day: string) => dataOf(staff.api.POST('/api/sys/runReconciliation', { body: { day } }));
const rowsOf = async (day: string) =>
  (await dataOf(staff.api.POST('/api/sys/fetchReconciliationDay', { body: { day } }))).rows.filter((r) => r.current);
const postingsM = () =>
  db
    .selectFrom('ledgerTransactions')
    .select(['id', 'amounts', 'idempotencyKey'])
    .where('type', '=', 'transaction_M')
    .orderBy('id')
    .execute();
const clearing = async () =>
  Number(
    (
      await db
        .selectFrom('ledgerAccounts')
        .select('balance')
        .where('kind', '=', 'gatewayClearing')
        .where('userId', 'is', null)
        .executeTakeFirst()
    )?.balance ?? 0,
  );
const payoutLines = () =>
  db.selectFrom('reconciliationStatementLines').select('reference').where('source', '=', 'payout').execute();

it("a day's ZarinPal payments, its payout report and the bank line: one M, the clearing at zero, a trial balance at zero", async () => {
  const day = addTehranDays(today, -2);
  const paidOn = addTehranDays(day, 1);
  const takings = (await paidOnline(day, 20)) + (await paidOnline(day, 35));
  expect(await clearing()).toBe(-takings);
  const payout = { reference: 'ZP-STL-1001', amount: takings, paidAt: at(paidOn, 600), from: day };

  // The report uploaded twice stores its line once; the bank line lands half an hour after ZarinPal paid.
  expect(await uploadReport([payout])).toMatchObject({ source: 'payout', added: 1, days: [paidOn] });
  expect(await uploadReport([payout])).toMatchObject({ added: 0, alreadyStored: 1 });
  await uploadBankLines([{ when: at(paidOn, 630), amount: takings, reference: payout.reference }]);
  for (let i = 0; i < 2; i++) expect((await run(paidOn)).unmatchedByKind).toEqual({});

  const row = (await rowsOf(paidOn)).find((r) => r.evidence.payout !== undefined)!;
  expect(row).toMatchObject({ kind: 'matched', matched: true });
  expect(row.evidence).toMatchObject({
    payout: { gateway: 'zarinpal', reference: payout.reference, amount: takings, covers: gregorianToJalali(day) },
    takings: { days: [day], count: 2, amount: takings },
    bank: { reference: payout.reference, amount: takings },
  });
  expect(await postingsM()).toEqual([
    {
      id: row.ledgerTransactionId,
      amounts: { collectionAmount: takings },
      idempotencyKey: `payout:zarinpal:${payout.reference}`,
    },
  ]);
  expect(await clearing()).toBe(0);
  // The payout's bank line is no deposit: nothing on its day is a bank line without a record.
  expect((await rowsOf(paidOn)).filter((r) => r.kind === 'bankLineWithoutRecord')).toEqual([]);

  const balance = await dataOf(staff.api.POST('/api/sys/fetchTrialBalance', { body: { day: today } }));
  expect([balance.totals.opening, balance.totals.closing]).toEqual([0, 0]);
  expect(balance.totals.debits).toBe(balance.totals.credits);
  expect(balance.accounts.find((a) => a.kind === 'gatewayClearing')).toMatchObject({
    closing: 0,
    debits: takings,
    credits: takings,
  });
  expect(balance.bank).toMatchObject({ ledgerClosing: takings, statementClosing: takings, difference: 0 });
});

it('a short payout is payoutDiffers (what came is posted); takings past the delay and a reported payout never in our bank are payoutMissing', async () => {
  // Short: four days ago's takings paid over two days (a payout covering two days), 1,000 rial short in our bank.
  const first = addTehranDays(today, -5);
  const second = addTehranDays(today, -4);
  const takings = (await paidOnline(first, 15)) + (await paidOnline(second, 12));
  const paidOn = addTehranDays(second, 1);
  const before = (await postingsM()).length;
  const clearingBefore = await clearing();
  // ZarinPal's panel writes Persian digits and thousands separators.
  const rows = reportRows([
    { reference: 'ZP-STL-1002', amount: takings, paidAt: at(paidOn, 540), from: first, to: second },
  ]);
  rows[1] = rows[1]!.replace(String(takings), `"${toPersianDigits(takings.toLocaleString('en-US'))}"`);
  expect((await upload('zarinpalPayouts', rows)).status).toBe(200);
  await uploadBankLines([{ when: at(paidOn, 600), amount: takings - 1_000, reference: 'ZP-STL-1002' }]);
  expect((await run(paidOn)).unmatchedByKind).toEqual({ payoutDiffers: 1 });
  const short = (await rowsOf(paidOn)).find((r) => r.kind === 'payoutDiffers')!;
  expect(short.evidence).toMatchObject({
    payout: { reference: 'ZP-STL-1002', amount: takings },
    takings: { days: [first, second], count: 2, amount: takings },
    bank: { amount: takings - 1_000 },
  });
  expect(await postingsM()).toHaveLength(before + 1);
  expect(await clearing()).toBe(clearingBefore + takings - 1_000);

  // Missing: eight days ago's takings, in no report and on no bank line. The usual delay is 48 hours after the
  // day's end: not missing on the day after, missing on the day after that.
  const unpaid = addTehranDays(today, -8);
  const unpaidTakings = await paidOnline(unpaid, 10);
  expect((await run(addTehranDays(unpaid, 1))).unmatchedByKind).toEqual({});
  expect((await run(addTehranDays(unpaid, 2))).unmatchedByKind).toEqual({ payoutMissing: 1 });
  const missing = (await rowsOf(addTehranDays(unpaid, 2))).find((r) => r.kind === 'payoutMissing')!;
  expect(missing.evidence).toMatchObject({
    payout: null,
    takings: { days: [unpaid], count: 1, amount: unpaidTakings },
    bank: null,
  });
  expect(missing.ledgerTransactionId).toBeNull();

  // Reported paid, never in our bank: missing on the day it was paid (and not again when its takings fall due).
  const reported = addTehranDays(today, -11);
  await paidOnline(reported, 8);
  const reportedOn = addTehranDays(reported, 1);
  await uploadReport([{ reference: 'ZP-STL-1003', amount: 1, paidAt: at(reportedOn, 600), from: reported }]);
  expect((await run(reportedOn)).unmatchedByKind).toEqual({ payoutMissing: 1 });
  expect((await rowsOf(reportedOn)).find((r) => r.kind === 'payoutMissing')!.evidence).toMatchObject({
    payout: { reference: 'ZP-STL-1003' },
    bank: null,
  });
  expect((await run(addTehranDays(reported, 2))).unmatchedByKind).toEqual({});
  expect(await postingsM()).toHaveLength(before + 1);
});

it('a malformed payout report is refused in Persian (422) and stores nothing', async () => {
  const stored = (await payoutLines()).length;
  const day = addTehranDays(today, -14);
  // Line 3 covers a day after it was paid; line 2 is good but the file is refused whole.
  const rows = reportRows([
    { reference: 'ZP-STL-2001', amount: 50_000, paidAt: at(addTehranDays(day, 1), 600), from: day },
    { reference: 'ZP-STL-2002', amount: 60_000, paidAt: at(day, 600), from: day, to: addTehranDays(day, 1) },
  ]);
  const refused = await upload('zarinpalPayouts', rows);
  expect(refused.status).toBe(422);
  expect(refused.body.msg).toContain('تا تاریخ');
  expect(refused.body.msg).toMatch(/[۰-۹]/);
  // A report without the days it covers names the column.
  const noDays = await upload('zarinpalPayouts', ['شناسه تسویه,مبلغ,تاریخ تسویه', 'ZP-STL-2003,1000,1405/09/01']);
  expect(noDays.status).toBe(422);
  expect(noDays.body.msg).toContain('از تاریخ');
  expect(await payoutLines()).toHaveLength(stored);
});
