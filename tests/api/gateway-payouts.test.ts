/**
 * The gateway's payouts and the day's trial balance (docs/money.md, «Payouts» and «The trial balance»; decision 039)
 * on a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL), with the ledger invariants checked
 * after every test. A day of gateway payments whose payout is on the next day's uploaded bank statement posts one
 * transaction_M however often the day is run, leaves gatewayClearing at zero and the trial balance summing to zero
 * with our bank account equal to the statement's; a short payout is `payoutDiffers` (the money that came is posted,
 * the rest stays owed), a payout that never came `payoutMissing` (nothing posted). Then a randomized run of payments,
 * payouts and wallet corrections (PAYOUT_FUZZ_DAYS, PAYOUT_FUZZ_SEED) ends with gatewayClearing equal to what is in
 * transit.
 *
 * The server has no movable clock: payments go through the server's own paths now and the test then moves the times
 * the reconciliation reads (a collection's and its gateway payment's) onto the day it chose; the ledger's rows stay
 * on today, so the trial balance is read for today.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { addTehranDays, tehranDayOf, tehranDayWindow } from '../../src/shared/calendar/tehran-day';
import { gregorianToJalali, TEHRAN_OFFSET_MS } from '../../src/shared/calendar';
import { type Customer, type MoneyHelpers, withMoneyServer } from '../support/money';
import type { RunningServer } from '../support/server';
import { announceSeed, envInteger, envSeed, replayable } from '../support/seeded';
import { dataOf, staffApi, type TypedApi, typedApi } from '../support/typed-api';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let staff: { api: TypedApi; token: string; userId: number };
let approver: { api: TypedApi; userId: number };
let payer: Customer;
const today = tehranDayOf(new Date());

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  const actions = ['reconcile', 'proposeWalletCorrections', 'decideWalletCorrections'];
  const made = await money.staffWithActions(actions);
  staff = { api: typedApi(server, made.token), ...made };
  approver = await staffApi(server, actions);
  payer = await money.customer();
});

/** An instant on the Tehran day `day`, `minutes` after its midnight. */
const at = (day: string, minutes: number) => new Date(tehranDayWindow(day).from.getTime() + minutes * 60_000);

/** A request of `usd` dollars paid at the sandbox bank, moved onto `day`: what the gateway took. */
async function paidOnline(day: string, usd = 20): Promise<number> {
  const purchase = await money.request(payer, usd);
  const paying = await money.payOk(payer, purchase.id);
  await money.payAtSandboxBank(payer, paying.gatewayUrl!);
  const c = await db
    .updateTable('collections')
    .set({ createdAt: at(day, 600) })
    .where('purchaseId', '=', purchase.id)
    .returning(['referenceId', 'amount'])
    .executeTakeFirstOrThrow();
  await db
    .updateTable('sandboxBankPayments')
    .set({ paidAt: at(day, 599) })
    .where('referenceId', '=', c.referenceId!)
    .execute();
  return Number(c.amount);
}

interface Payout {
  reference: string;
  amount: number;
  count: number;
  paid_at: string;
}
async function payoutOf(day: string): Promise<Payout | null> {
  const report = await fetch(new URL(`/sandbox-bank/pg/v4/report/settlements.json?date=${day}`, server.url));
  // The sandbox bank's own report, not our contract: its shape as ZarinPal-like JSON.
  const body: { data: { payout: Payout | null } } = await report.json();
  return body.data.payout;
}

/** Our bank account's statement with these lines (money in), uploaded as staff upload it. */
async function uploadBankLines(lines: Array<{ when: Date; amount: number; reference: string }>) {
  const wall = (d: Date) => new Date(d.getTime() + TEHRAN_OFFSET_MS).toISOString();
  const rows = [
    'تاریخ,ساعت,شرح,واریز,برداشت,شماره پیگیری',
    ...lines.map(
      (l) =>
        `${gregorianToJalali(wall(l.when).slice(0, 10))},${wall(l.when).slice(11, 19)},تسویه درگاه پرداخت,${l.amount},,${l.reference}`,
    ),
  ];
  const form = new FormData();
  form.set('statement', 'bankAccount');
  form.set('attached_file', new Blob([rows.join('\n')], { type: 'text/csv' }), 'bank.csv');
  const res = await fetch(`${server.url}/api/sys/uploadReconciliationStatement`, {
    method: 'POST',
    headers: { authorization: `Bearer ${staff.token}` },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

const run = (day: string) => dataOf(staff.api.POST('/api/sys/runReconciliation', { body: { day } }));
const rowsOf = async (day: string) =>
  (await dataOf(staff.api.POST('/api/sys/fetchReconciliationDay', { body: { day } }))).rows.filter((r) => r.current);
const trial = (day: string) => dataOf(staff.api.POST('/api/sys/fetchTrialBalance', { body: { day } }));
const postingsM = () =>
  db
    .selectFrom('ledgerTransactions')
    .select(['id', 'amounts', 'idempotencyKey'])
    .where('type', '=', 'transaction_M')
    .execute();
const accountBalance = async (kind: string) =>
  Number(
    (
      await db
        .selectFrom('ledgerAccounts')
        .select('balance')
        .where('kind', '=', kind)
        .where('userId', 'is', null)
        .executeTakeFirst()
    )?.balance ?? 0,
  );

it("a day's payments and their payout on the next day's bank statement: one M, the clearing at zero, a trial balance at zero", async () => {
  const yesterday = addTehranDays(today, -1);
  const takings = (await paidOnline(yesterday, 20)) + (await paidOnline(yesterday, 35));
  const payout = (await payoutOf(yesterday))!;
  expect(payout).toMatchObject({ reference: `SBPAYOUT${yesterday.replace(/-/g, '')}`, amount: takings, count: 2 });
  expect(await accountBalance('gatewayClearing')).toBe(-takings);

  await uploadBankLines([{ when: new Date(payout.paid_at), amount: payout.amount, reference: payout.reference }]);
  for (let i = 0; i < 2; i++) {
    const summary = await run(today);
    expect(summary.unmatchedByKind).toEqual({});
  }
  const rows = await rowsOf(today);
  const payoutRow = rows.find((r) => r.evidence.payout !== undefined)!;
  expect(payoutRow).toMatchObject({ kind: 'matched', matched: true });
  const m = await postingsM();
  expect(m).toEqual([
    {
      id: payoutRow.ledgerTransactionId,
      amounts: { collectionAmount: takings },
      idempotencyKey: `payout:sandbox:${payout.reference}`,
    },
  ]);
  expect(await accountBalance('gatewayClearing')).toBe(0);
  // The day the payout covers reconciles with nothing unmatched too.
  expect((await run(yesterday)).unmatchedCount).toBe(0);

  const balance = await trial(today);
  expect(balance.totals.opening).toBe(0);
  expect(balance.totals.closing).toBe(0);
  expect(balance.totals.debits).toBe(balance.totals.credits);
  const line = (kind: string) => balance.accounts.find((a) => a.kind === kind)!;
  expect(line('gatewayClearing')).toMatchObject({ closing: 0, debits: takings, credits: takings });
  expect(line('bank').closing).toBe(-takings);
  expect(line('wallet').owner).toBe('customer');
  expect(balance.bank).toMatchObject({
    ledgerClosing: takings,
    statementClosing: takings,
    difference: 0,
    explained: [{ reason: 'unexplained', amount: 0 }],
  });
});

it('a short payout is payoutDiffers (what came is posted), a payout that never came payoutMissing (nothing posted)', async () => {
  // Short: the takings of two days ago, paid yesterday with 1,000 rial missing.
  const shortDay = addTehranDays(today, -2);
  const takings = await paidOnline(shortDay, 15);
  const payout = (await payoutOf(shortDay))!;
  await uploadBankLines([
    { when: new Date(payout.paid_at), amount: payout.amount - 1_000, reference: payout.reference },
  ]);
  const before = (await postingsM()).length;
  const clearing = await accountBalance('gatewayClearing');
  const summary = await run(addTehranDays(today, -1));
  expect(summary.unmatchedByKind).toEqual({ payoutDiffers: 1 });
  const row = (await rowsOf(addTehranDays(today, -1))).find((r) => r.kind === 'payoutDiffers')!;
  expect(row.evidence).toMatchObject({
    payout: { reference: payout.reference, amount: takings },
    takings: { amount: takings, count: 1 },
    bank: { amount: takings - 1_000 },
  });
  expect(await postingsM()).toHaveLength(before + 1);
  expect(await accountBalance('gatewayClearing')).toBe(clearing + takings - 1_000);

  // Missing: the takings of four days ago were due three days ago, and no bank line came.
  const missingDay = addTehranDays(today, -4);
  await paidOnline(missingDay, 12);
  const due = addTehranDays(missingDay, 1);
  const missing = await run(due);
  expect(missing.unmatchedByKind).toEqual({ payoutMissing: 1 });
  const found = (await rowsOf(due)).find((r) => r.kind === 'payoutMissing')!;
  expect(found.evidence).toMatchObject({
    payout: { reference: `SBPAYOUT${missingDay.replace(/-/g, '')}` },
    bank: null,
  });
  expect(found.ledgerTransactionId).toBeNull();
  expect(await postingsM()).toHaveLength(before + 1);
});

it('randomized payments, payouts and corrections keep the invariants and leave the clearing equal to what is in transit', async () => {
  const days = envInteger('PAYOUT_FUZZ_DAYS', 3, 1);
  const seed = envSeed('PAYOUT_FUZZ_SEED', 46);
  const replay = announceSeed('gateway-payouts', { PAYOUT_FUZZ_SEED: seed, PAYOUT_FUZZ_DAYS: days });
  const who = await money.customer();
  // Days far enough back that the cases above never touch them: 10 + i days ago.
  await replayable(replay, () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            payments: fc.array(fc.integer({ min: 5, max: 40 }), { maxLength: 2 }),
            payout: fc.constantFrom('full', 'short', 'none'),
            correction: fc.option(fc.record({ up: fc.boolean(), amount: fc.integer({ min: 1, max: 50_000 }) })),
          }),
          { minLength: days, maxLength: days },
        ),
        async (plan) => {
          const clearingBefore = await accountBalance('gatewayClearing');
          let inTransit = 0;
          for (const [i, step] of plan.entries()) {
            const day = addTehranDays(today, -(10 + fuzzOffset++ * 2));
            for (const usd of step.payments) await paidOnline(day, usd);
            const payout = await payoutOf(day);
            const takings = payout?.amount ?? 0;
            if (payout && step.payout !== 'none') {
              const arrived = step.payout === 'full' ? payout.amount : payout.amount - 1;
              await uploadBankLines([{ when: new Date(payout.paid_at), amount: arrived, reference: payout.reference }]);
              inTransit += takings - arrived;
            } else {
              inTransit += takings;
            }
            await run(addTehranDays(day, 1));
            await run(addTehranDays(day, 1)); // a second run posts nothing more
            if (step.correction) {
              const { balance } = await money.balanceOf(who);
              const up = step.correction.up || balance < step.correction.amount;
              const proposed = await dataOf(
                staff.api.POST('/api/sys/proposeWalletCorrection', {
                  body: {
                    user: who.userId,
                    direction: up ? 'up' : 'down',
                    amount: step.correction.amount,
                    reason: `روز ${i}`,
                  },
                }),
              );
              await dataOf(
                approver.api.POST('/api/sys/decideWalletCorrection', {
                  body: { correction: proposed.id, approve: true, note: 'تایید' },
                }),
              );
            }
          }
          expect(await accountBalance('gatewayClearing')).toBe(clearingBefore - inTransit);
          const balance = await trial(today);
          expect([balance.totals.opening, balance.totals.closing]).toEqual([0, 0]);
          expect(balance.accounts.find((a) => a.kind === 'gatewayClearing')!.closing).toBe(clearingBefore - inTransit);
        },
      ),
      { numRuns: 2, seed },
    ),
  );
}, 300_000);
let fuzzOffset = 0;
