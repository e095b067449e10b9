/**
 * Issue 43 C: the ledger is a side of the reconciliation's match. A gateway settlement and its collection that agree
 * are still unmatched when the collection's ledger posting is missing (money received, never credited) or moved
 * another amount, each named by its own kind with a Persian label; a posting of the right amount matches. Faults are
 * written straight into the bank's and the server's tables, the ledger's through postTransaction (the invariants hold
 * after every test: withMoneyServer).
 */
import { expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { postTransaction } from '../../src/server/modules/ledger/service';
import { Tx } from '../../src/server/modules/ledger/types';
import { newAuthority } from '../../src/server/modules/sandbox-bank/bank';
import { tehranDayOf } from '../../src/shared/calendar/tehran-day';
import { RECONCILIATION_KINDS } from '../../src/web/features/management/reconciliation/kinds';
import { type Customer, type MoneyHelpers, withMoneyServer } from '../support/money';
import { bearer, post, type RunningServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let staff: { token: string; userId: number };
let who: Customer;
const day = tehranDayOf(new Date());

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  staff = await money.staffWithActions(['reconcile']);
  who = await money.customer();
});

interface Row {
  id: number;
  kind: string;
  matched: boolean;
  collectionId: number | null;
  resolvedAt: string | null;
  current: boolean;
}

async function openRows(): Promise<Row[]> {
  const ran = await post(server, '/api/sys/runReconciliation', { day }, bearer(staff.token));
  expect(ran.status, ran.body.msg).toBe(200);
  const res = await post(server, '/api/sys/fetchReconciliationDay', { day }, bearer(staff.token));
  expect(res.status, res.body.msg).toBe(200);
  return (res.body.data as { rows: Row[] }).rows.filter((r) => r.current && !r.matched && r.resolvedAt === null);
}

async function resolve(row: Row): Promise<void> {
  const res = await post(
    server,
    '/api/sys/resolveReconciliationRow',
    { row: row.id, note: 'بررسی شد' },
    bearer(staff.token),
  );
  expect(res.status, res.body.msg).toBe(200);
}

let settlements = 0;
/**
 * A payment the sandbox bank settled today for `amount` and a collection of it recorded for the customer, with no
 * ledger posting (a copy of a real settled payment under a new authority and reference): its collection's id.
 */
async function settledCollection(amount: number): Promise<number> {
  const template = await db
    .selectFrom('sandboxBankPayments')
    .selectAll()
    .where('state', '=', 'verified')
    .orderBy('paidAt', 'desc')
    .executeTakeFirstOrThrow();
  const referenceId = `9${String(process.pid).padStart(7, '0')}${String(++settlements).padStart(4, '0')}`;
  await db
    .insertInto('sandboxBankPayments')
    .values({ ...template, authority: newAuthority(), referenceId, amount })
    .execute();
  const collection = await db
    .insertInto('collections')
    .values({
      userId: who.userId,
      source: 'online',
      amount,
      gateway: 'sandbox',
      referenceId,
      cardNo: template.cardNo,
      traceCode: `LEDGERSIDE${settlements}`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return collection.id;
}

const credit = (collectionId: number, amount: number) =>
  db.transaction().execute((trx) =>
    postTransaction(trx, {
      type: Tx.collectOnline,
      userId: who.userId,
      amounts: { collectionAmount: amount },
      details: { collectionId },
    }),
  );

it('matches a day paid through the sandbox bank, each collection credited once with its amount', async () => {
  const purchase = await money.request(who, 10);
  const paying = await money.payOk(who, purchase.id);
  await money.payAtSandboxBank(who, paying.gatewayUrl!);
  expect(await openRows()).toEqual([]);
});

it('names a collection the bank settled whose ledger posting is missing', async () => {
  const collectionId = await settledCollection(4_000_000);
  const open = await openRows();
  expect(open.map((r) => [r.kind, r.collectionId])).toEqual([['collectionWithoutPosting', collectionId]]);
  expect(RECONCILIATION_KINDS.collectionWithoutPosting.label).toBe('دریافت بدون ثبت دفتر');
  // Credited late, with its amount: the next run matches it.
  await credit(collectionId, 4_000_000);
  expect(await openRows()).toEqual([]);
});

it('names a collection whose ledger posting moved another amount, or was posted twice', async () => {
  const short = await settledCollection(3_000_000);
  await credit(short, 2_000_000);
  const twice = await settledCollection(1_500_000);
  await credit(twice, 1_500_000);
  await credit(twice, 1_500_000);
  const open = await openRows();
  expect(open.map((r) => [r.kind, r.collectionId]).sort()).toEqual(
    [
      ['postingDiffers', short],
      ['postingDiffers', twice],
    ].sort(),
  );
  expect(RECONCILIATION_KINDS.postingDiffers.label).toBe('ثبت دفتر با مبلغ دیگر');
  for (const row of open) await resolve(row);
  expect(await openRows()).toEqual([]);
});
