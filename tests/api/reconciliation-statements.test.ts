/**
 * Uploaded statements in the daily reconciliation (issue 33, point 1) on a real server and database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL). A seeded week of traffic — payments through the sandbox gateway, card
 * mismatches, offline deposits, withdrawals paid and refused — over the seven Tehran days before today, with our bank
 * account's statements for that week written as a bank writes them (the gateway's payout of each day's takings on the
 * next morning among them) and uploaded as CSV and xlsx, and a PSP statement
 * of the gateway uploaded for two of the days: every day reconciles with nothing unmatched. Each new mismatch kind,
 * injected alone, is found once and named; a resolved row stays resolved on the next run; bad files are refused in
 * Persian with nothing stored.
 *
 * The server has no movable clock: the traffic goes through the server's own paths now and the test then moves
 * the times the reconciliation reads (a collection's and its gateway payment's time, a withdrawal's decision time;
 * the ledger's rows cannot be changed and stay on today) onto the day the generator chose, as a week of real traffic would have left them.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { tehranDayOf, tehranDayWindow } from '../../src/shared/calendar/tehran-day';
import { gregorianToJalali, TEHRAN_OFFSET_MS } from '../../src/shared/calendar';
import { toPersianDigits } from '../../src/shared/digits';
import { type Customer, type MoneyHelpers, nationalCodeFor, testIban, withMoneyServer } from '../support/money';
import { bearer, post, type RunningServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let staff: { token: string; userId: number };
let bankAccount: number;
const today = tehranDayOf(new Date());
const DAY_MS = 24 * 3600_000;
const dayBefore = (n: number) => tehranDayOf(new Date(tehranDayWindow(today).from.getTime() - n * DAY_MS + 3600_000));
/** The seven Tehran days before today, oldest first. */
const week = [7, 6, 5, 4, 3, 2, 1].map(dayBefore);

withMoneyServer(
  { web: false },
  async (t) => {
    ({ server, db, money } = t);
    staff = await money.staffWithActions([
      'reconcile',
      'manageCollections',
      'viewCustomers',
      'manageWithdrawals',
      'approveBankAccountOwnership',
      'viewTasks',
    ]);
    const accounts = await post(server, '/api/sys/searchInternalBankAccounts', {}, bearer(staff.token));
    expect(accounts.status, accounts.body.msg).toBe(200);
    bankAccount = (accounts.body.data as { items: Array<{ id: number; isActive: boolean }> }).items.find(
      (a) => a.isActive,
    )!.id;
  },
  60_000,
);

/** A small seeded generator (mulberry32): the same week every run. */
function seeded(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)) };
}
const rng = seeded(3305);

interface Row {
  id: number;
  kind: string;
  matched: boolean;
  evidence: Record<string, unknown>;
  collectionId: number | null;
  withdrawalId: number | null;
  resolvedAt: string | null;
}
interface Day {
  matchedCount: number;
  unmatchedCount: number;
  unresolvedCount: number;
  bankCount: number;
  gatewayCount: number;
  unmatchedByKind: Record<string, number>;
}

async function run(day: string): Promise<Day> {
  const res = await post(server, '/api/sys/runReconciliation', { day }, bearer(staff.token));
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as Day;
}
async function rows(day: string): Promise<Row[]> {
  const res = await post(server, '/api/sys/fetchReconciliationDay', { day }, bearer(staff.token));
  expect(res.status, res.body.msg).toBe(200);
  return (res.body.data as { rows: Row[] }).rows;
}

async function upload(statement: string, bytes: Buffer | string, name: string, token = staff.token) {
  const form = new FormData();
  form.set('statement', statement);
  const type = name.endsWith('.xlsx')
    ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
    : 'text/csv';
  form.set('attached_file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${server.url}/api/sys/uploadReconciliationStatement`, {
    method: 'POST',
    headers: bearer(token),
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { msg: string; data: Record<string, unknown> } };
}

const csv = (lines: Array<Array<string | number>>) =>
  lines
    .map((l) => l.map((c) => (/[",\n]/.test(String(c)) ? `"${String(c).replace(/"/g, '""')}"` : c)).join(','))
    .join('\n');

async function xlsx(lines: Array<Array<string | number>>): Promise<Buffer> {
  const XLSX = await import('xlsx');
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(lines), 'صورتحساب');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/** An instant on the Tehran day `day`, `minutes` after its midnight. */
const at = (day: string, minutes: number) => new Date(tehranDayWindow(day).from.getTime() + minutes * 60_000);
/** Tehran wall-clock Jalali date and time of an instant, as a bank prints them. */
function tehranWallClock(instant: Date) {
  const local = new Date(instant.getTime() + TEHRAN_OFFSET_MS).toISOString();
  return { date: gregorianToJalali(local.slice(0, 10)), time: local.slice(11, 19) };
}

async function mobileOf(who: Customer): Promise<string> {
  const me = await post(server, '/api/me/fetchUserData', undefined, bearer(who.token));
  return (me.body.data as { mobileNo: string }).mobileNo;
}

/**
 * Moves an online payment's times onto `when`: its collection and its gateway payment (the ledger's rows cannot be
 * changed, so its postings stay on today, where their collection exists).
 */
async function movePayment(collectionId: number, when: Date) {
  const c = await db
    .updateTable('collections')
    .set({ createdAt: when })
    .where('id', '=', collectionId)
    .returning('referenceId')
    .executeTakeFirstOrThrow();
  if (c.referenceId) {
    await db
      .updateTable('sandboxBankPayments')
      .set({ paidAt: new Date(when.getTime() - 30_000) })
      .where('referenceId', '=', c.referenceId)
      .execute();
  }
}

/** A request paid at the sandbox bank (with someone else's card when `foreign`): its collection's id. */
async function paidOnline(who: Customer, foreign: boolean): Promise<number> {
  const purchase = await money.request(who, rng.int(10, 60));
  const paying = await money.payOk(who, purchase.id);
  await money.payAtSandboxBank(who, paying.gatewayUrl!, foreign ? nationalCodeFor(9000) : undefined);
  const c = await db
    .selectFrom('collections')
    .select('id')
    .where('purchaseId', '=', purchase.id)
    .executeTakeFirstOrThrow();
  return c.id;
}

let trackingCodes = 0;
/** An offline deposit staff record with the code as they type it (dashes, upper case); its collection id and code. */
async function deposit(who: Customer, amount: number): Promise<{ id: number; code: string }> {
  const code = `TRK-${process.pid}-${++trackingCodes}`;
  const res = await post(
    server,
    '/api/sys/payOffline',
    {
      formIsValid: true,
      collectionSourceAccountNo: '6037-9912-3456-7890',
      collectionDestinationAccount: bankAccount,
      collectionTrackingCode: code,
      onlineProformaToken: '',
      customerMobileNo: await mobileOf(who),
      collectionAmount: amount,
    },
    bearer(staff.token),
  );
  expect(res.status, res.body.msg).toBe(200);
  const c = await db.selectFrom('collections').select('id').where('trackingCode', '=', code).executeTakeFirstOrThrow();
  return { id: c.id, code };
}

let ibans = 0;
let references = 0;
/** A withdrawal asked for by a new customer, then paid (done, with the bank's reference) or refused. */
async function withdrawal(paid: boolean): Promise<{ id: number; reference: string | null }> {
  const who = await money.customer();
  await money.withdrawalWaiting(who, staff.token, testIban(33_000_000 + process.pid * 100 + ++ibans));
  const w = await db.selectFrom('withdrawals').select('id').where('userId', '=', who.userId).executeTakeFirstOrThrow();
  if (!paid) {
    const refused = await post(
      server,
      '/api/sys/withdrawalRefused',
      { withdrawal: w.id, reason: 'حساب مسدود است' },
      bearer(staff.token),
    );
    expect(refused.status, refused.body.msg).toBe(200);
    return { id: w.id, reference: null };
  }
  const reference = `PAYA-${process.pid}-${++references}`;
  const done = await post(server, '/api/sys/withdrawalDone', { withdrawal: w.id, reference }, bearer(staff.token));
  expect(done.status, done.body.msg).toBe(200);
  return { id: w.id, reference };
}

/** One line of our bank account's statement: Jalali date, time, money in or out, the bank's reference, a note. */
interface BankLine {
  when: Date;
  amountIn: number;
  amountOut: number;
  reference: string;
  description: string;
}
const BANK_HEADER = ['تاریخ', 'ساعت', 'شرح', 'واریز', 'برداشت', 'مانده', 'شماره پیگیری'];
/** The bank writes codes its own way: no dashes, lower case, and on some lines Persian digits. */
const asBankWrites = (code: string, persian: boolean) => {
  const plain = code.replace(/-/g, '').toLowerCase();
  return persian ? toPersianDigits(plain) : plain;
};
function bankRows(lines: BankLine[]): Array<Array<string | number>> {
  let balance = 50_000_000_000;
  return [
    BANK_HEADER,
    ...lines
      .sort((a, b) => a.when.getTime() - b.when.getTime())
      .map((l) => {
        balance += l.amountIn - l.amountOut;
        const { date, time } = tehranWallClock(l.when);
        return [
          date,
          time,
          l.description,
          l.amountIn ? l.amountIn.toLocaleString('en-US') : '',
          l.amountOut ? l.amountOut.toLocaleString('en-US') : '',
          balance.toLocaleString('en-US'),
          l.reference,
        ];
      }),
  ];
}

it('reconciles a generated week of traffic with the bank statements uploaded as CSV and xlsx: 0 unmatched every day', async () => {
  const payer = await money.customer();
  const depositor = await money.customer();
  const bankLines = new Map<string, BankLine[]>(week.map((d) => [d, []]));
  /** Per day: the gateway's payments; each of them and each bank line must end matched. */
  const payments = new Map<string, number>(week.map((d) => [d, 0]));
  for (const [index, day] of week.entries()) {
    const minutes = () => rng.int(60, 22 * 60);
    const foreign = rng.next() < 0.5 || index === 0 ? 1 : 0;
    payments.set(day, rng.int(1, 2) + foreign);
    for (let i = 0; i < payments.get(day)!; i++) {
      await movePayment(await paidOnline(payer, i < foreign), at(day, minutes()));
    }
    for (let i = rng.int(1, 2); i > 0; i--) {
      const amount = rng.int(1, 40) * 500_000;
      const d = await deposit(depositor, amount);
      const recorded = at(day, minutes());
      await db.updateTable('collections').set({ createdAt: recorded }).where('id', '=', d.id).execute();
      bankLines.get(day)!.push({
        when: new Date(recorded.getTime() - rng.int(5, 50) * 60_000),
        amountIn: amount,
        amountOut: 0,
        reference: asBankWrites(d.code, rng.next() < 0.5),
        description: 'واریز پایا از حساب ۶۰۳۷۹۹۱۲۳۴۵۶۷۸۹۰',
      });
    }
    if (rng.next() < 0.7 || index === 1) {
      const w = await withdrawal(true);
      const decided = at(day, rng.int(60, 20 * 60));
      await db.updateTable('withdrawals').set({ decidedAt: decided }).where('id', '=', w.id).execute();
      bankLines.get(day)!.push({
        when: new Date(decided.getTime() + rng.int(1, 90) * 60_000),
        amountIn: 0,
        amountOut: 1_000_000,
        reference: asBankWrites(w.reference!, false),
        description: 'انتقال پایا به شبا',
      });
    }
    if (rng.next() < 0.3 || index === 2) {
      const w = await withdrawal(false); // refused: the money went back to the wallet, nothing left the bank
      await db
        .updateTable('withdrawals')
        .set({ decidedAt: at(day, minutes()) })
        .where('id', '=', w.id)
        .execute();
    }
  }

  // The gateway pays each day's verified takings into our account the next morning: a line of the next day.
  for (const [index, day] of week.entries()) {
    const next = week[index + 1];
    if (next === undefined) continue;
    const report = await fetch(new URL(`/sandbox-bank/pg/v4/report/settlements.json?date=${day}`, server.url));
    const payout = (
      (await report.json()) as { data: { payout: { reference: string; amount: number; paid_at: string } } }
    ).data.payout;
    bankLines.get(next)!.push({
      when: new Date(payout.paid_at),
      amountIn: payout.amount,
      amountOut: 0,
      reference: payout.reference,
      description: 'تسویه درگاه پرداخت',
    });
  }

  // Our bank account's statements: the first four days as one CSV, the last three as one xlsx each.
  const csvFile = csv(bankRows(week.slice(0, 4).flatMap((d) => bankLines.get(d)!)));
  const first = await upload('bankAccount', csvFile, 'statement-week1.csv');
  expect(first.status, first.body.msg).toBe(200);
  const csvLines = week.slice(0, 4).reduce((n, d) => n + bankLines.get(d)!.length, 0);
  expect(first.body.data).toMatchObject({ source: 'bank', added: csvLines, alreadyStored: 0, days: week.slice(0, 4) });
  // The same file again adds nothing.
  const again = await upload('bankAccount', csvFile, 'statement-week1-again.csv');
  expect(again.status, again.body.msg).toBe(200);
  expect(again.body.data).toMatchObject({ added: 0, alreadyStored: csvLines });
  for (const day of week.slice(4)) {
    const res = await upload('bankAccount', await xlsx(bankRows(bankLines.get(day)!)), `statement-${day}.xlsx`);
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject({ added: bankLines.get(day)!.length, days: [day] });
  }

  // The gateway's settlement statement of two days, as its merchant panel exports it, with a failed payment.
  for (const day of week.slice(2, 4)) {
    const report = await fetch(new URL(`/sandbox-bank/pg/v4/report/settlements.json?date=${day}`, server.url));
    const settled = ((await report.json()) as { data: { settlements: Array<Record<string, string | number>> } }).data
      .settlements;
    expect(settled.length).toBeGreaterThan(0);
    const file = csv([
      ['ref_id', 'amount', 'card_pan', 'settled_at', 'status'],
      ...settled.map((s) => [
        s.ref_id!,
        s.amount!,
        s.card_pan!,
        String(s.settled_at).replace('Z', '+00:00'),
        'settled',
      ]),
      ['9999999999', 120_000, '603799******1111', `${day}T09:00:00+03:30`, 'failed'],
    ]);
    const res = await upload('sandbox', file, `settlements-${day}.csv`);
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject({ source: 'gateway', added: settled.length, skipped: 1, days: [day] });
  }

  for (const day of week) {
    const summary = await run(day);
    expect({ day, ...summary.unmatchedByKind }).toEqual({ day });
    expect(summary.unmatchedCount).toBe(0);
    expect(summary.matchedCount).toBe(payments.get(day)! + bankLines.get(day)!.length);
    expect(summary.gatewayCount).toBe(payments.get(day)!);
    expect(summary.bankCount).toBe(bankLines.get(day)!.length);
    const all = await rows(day);
    expect(all.filter((r) => (r.evidence as { bank?: unknown }).bank).length).toBe(bankLines.get(day)!.length);
  }
  const uploadedRow = (await rows(week[2]!)).find(
    (r) => (r.evidence as { gateway?: { statement?: string } }).gateway?.statement === 'sandbox',
  );
  expect(uploadedRow).toMatchObject({ kind: 'matched' });
}, 120_000);

/** Runs today with one fault injected: exactly one new open row, of `kind`; resolves it so the next test starts clean. */
async function foundOnce(kind: string): Promise<Row> {
  await run(today);
  const open = (await rows(today)).filter((r) => !r.matched && r.resolvedAt === null);
  expect(open.map((r) => r.kind)).toEqual([kind]);
  const resolved = await post(
    server,
    '/api/sys/resolveReconciliationRow',
    { row: open[0]!.id, note: `بررسی شد: ${kind}` },
    bearer(staff.token),
  );
  expect(resolved.status, resolved.body.msg).toBe(200);
  return open[0]!;
}

it('finds a withdrawal marked done without a bank line', async () => {
  const w = await withdrawal(true);
  const row = await foundOnce('withdrawalWithoutBankLine');
  expect(row.withdrawalId).toBe(w.id);
  expect(row.evidence).toMatchObject({ bank: null, withdrawals: [{ id: w.id, bankReference: w.reference }] });
});

it('finds an offline deposit without a bank line', async () => {
  const d = await deposit(await money.customer(), 2_500_000);
  const row = await foundOnce('depositWithoutBankLine');
  expect(row.collectionId).toBe(d.id);
});

it('finds a bank line without a deposit or withdrawal', async () => {
  const { date, time } = tehranWallClock(new Date());
  const res = await upload(
    'bankAccount',
    csv([BANK_HEADER, [date, time, 'واریز ناشناس', '7,000,000', '', '1', `unknown${process.pid}`]]),
    'stray.csv',
  );
  expect(res.status, res.body.msg).toBe(200);
  const row = await foundOnce('bankLineWithoutRecord');
  expect(row.evidence).toMatchObject({
    bank: { amount: 7_000_000, direction: 'in' },
    collections: [],
    withdrawals: [],
  });
});

it('keeps resolved rows resolved when the day runs again', async () => {
  const summary = await run(today);
  expect(summary.unmatchedCount).toBe(3);
  expect(summary.unresolvedCount).toBe(0);
  expect(summary.unmatchedByKind).toEqual({
    withdrawalWithoutBankLine: 1,
    depositWithoutBankLine: 1,
    bankLineWithoutRecord: 1,
  });
});

it('refuses a bad statement file in Persian and stores nothing', async () => {
  const count = async () =>
    Number(
      (
        await db
          .selectFrom('reconciliationStatementLines')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const before = await count();
  const { date, time } = tehranWallClock(new Date());

  const noReference = await upload(
    'bankAccount',
    csv([BANK_HEADER.slice(0, 6), [date, time, 'x', '1', '', '1']]),
    'a.csv',
  );
  expect(noReference.status).toBe(422);
  expect(noReference.body.msg).toBe('ستون «شماره پیگیری» در سطر عنوان‌های فایل نیست. هیچ ردیفی ثبت نشد.');

  const badLines = await upload(
    'bankAccount',
    csv([
      BANK_HEADER,
      [date, time, 'درست', '1,000', '', '1', `good${process.pid}`],
      [date, time, 'مبلغ نادرست', 'ده هزار', '', '1', `bad${process.pid}a`],
      ['1405/13/40', time, 'تاریخ نادرست', '1,000', '', '1', `bad${process.pid}b`],
      [date, time, 'هر دو', '1,000', '1,000', '1', `bad${process.pid}c`],
    ]),
    'b.csv',
  );
  expect(badLines.status).toBe(422);
  expect(badLines.body.msg).toBe(
    'این ردیف‌های فایل نادرست است: سطر ۳ (واریز)، سطر ۴ (تاریخ)، سطر ۵ (برداشت). هیچ ردیفی ثبت نشد.',
  );
  expect(badLines.body.data).toEqual({
    lines: [
      { line: 3, column: 'واریز' },
      { line: 4, column: 'تاریخ' },
      { line: 5, column: 'برداشت' },
    ],
  });

  const unknown = await upload('mellat', csv([BANK_HEADER]), 'c.csv');
  expect(unknown.status).toBe(400);
  expect(unknown.body.msg).toBe('نوع صورت‌حساب را از فهرست انتخاب کنید.');
  const garbage = await upload('bankAccount', Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x00, 0x42]), 'd.csv');
  expect(garbage.status).toBe(422);
  const tooLarge = await upload('bankAccount', Buffer.alloc(5 * 1024 * 1024 + 10, 0x41), 'e.csv');
  expect(tooLarge.status).toBe(413);
  expect(tooLarge.body.msg).toBe('حجم فایل صورت‌حساب حداکثر ۵ مگابایت است.');
  // A line stored before, now with another amount: the whole file is refused.
  const changed = await upload(
    'bankAccount',
    csv([
      BANK_HEADER,
      [date, time, 'تازه', '1,000', '', '1', `fresh${process.pid}`],
      [date, time, 'واریز ناشناس', '7,000,001', '', '1', `unknown${process.pid}`],
    ]),
    'f.csv',
  );
  expect(changed.status).toBe(409);
  expect(changed.body.msg).toContain('سطر ۳');
  expect(await count()).toBe(before);

  const other = await money.staffWithActions(['viewTasks']);
  const refused = await upload('bankAccount', csv([BANK_HEADER]), 'g.csv', other.token);
  expect(refused.status).toBe(403);
});

/**
 * A zip of `entries`, each deflated, with honest sizes in its headers (what any zip tool writes), unless an entry
 * names the inflated size its headers are to claim (`claims`).
 */
function zipOf(entries: Array<{ name: string; data: Buffer; claims?: number }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, claims } of entries) {
    const packed = deflateRawSync(data, { level: 9 });
    const declared = claims ?? data.length;
    const nameBytes = Buffer.from(name);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(crc32(data), 14);
    head.writeUInt32LE(packed.length, 18);
    head.writeUInt32LE(declared, 22);
    head.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(head, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += head.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A real statement workbook's parts, its sheet padded with `padding` bytes of blanks (a few hundred kB deflated). */
async function paddedWorkbook(padding: number): Promise<Array<{ name: string; data: Buffer }>> {
  const { date, time } = tehranWallClock(new Date());
  // A real statement workbook whose sheet is padded to 100 MB of blanks: a few hundred kB on the wire.
  const XLSX = await import('xlsx');
  const book = XLSX.read(await xlsx([BANK_HEADER, [date, time, 'بمب', '1,000', '', '1', `bomb${process.pid}`]]), {
    type: 'buffer',
  });
  // The workbook's parts as the xlsx package's own zip reader gives them (a file entry is type 2).
  const parts = XLSX.CFB.read(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer, {
    type: 'buffer',
  }) as { FileIndex: Array<{ type: number; content: Uint8Array }>; FullPaths: string[] };
  const entries = parts.FileIndex.map((file, i) => ({ name: parts.FullPaths[i]!.replace(/^[^/]*\//, ''), file }))
    .filter(({ file }) => file.type === 2)
    .map(({ name, file }) => {
      const data = Buffer.from(file.content);
      if (!name.endsWith('sheet1.xml')) return { name, data };
      const xml = data.toString('utf8');
      const cut = xml.lastIndexOf('</worksheet>');
      return {
        name,
        data: Buffer.concat([Buffer.from(xml.slice(0, cut)), Buffer.alloc(padding, 0x20), Buffer.from(xml.slice(cut))]),
      };
    });
  expect(entries.some((e) => e.name.endsWith('sheet1.xml'))).toBe(true);
  return entries;
}

it('refuses an xlsx zip bomb from its declared sizes, before inflating it, while the server keeps answering', async () => {
  const bomb = zipOf(await paddedWorkbook(100 * 1024 * 1024));
  expect(bomb.length).toBeLessThan(1024 * 1024);
  const [refused, live] = await Promise.all([
    upload('bankAccount', bomb, 'bomb.xlsx'),
    fetch(`${server.url}/api/health/live`),
  ]);
  expect(live.status).toBe(200);
  expect(refused.status).toBe(422);
  expect(refused.body.msg).toBe('فایل صورت‌حساب خوانده نشد؛ فایل CSV با کدگذاری UTF-8 یا فایل xlsx بفرستید.');
  expect((await fetch(`${server.url}/api/health/live`)).status).toBe(200);
});

it('refuses an xlsx zip bomb whose headers lie about its sizes, while the server keeps answering', async () => {
  // Every entry claims 1 kB, so the declared sizes pass; the sheet inflates to 300 MB. It is read on a worker thread
  // with its own memory cap and time limit (read-sheet-off-loop.ts); the reader also refuses an entry that outgrows
  // what it claims, so this holds on either count.
  const entries = (await paddedWorkbook(300 * 1024 * 1024)).map((e) =>
    e.name.endsWith('sheet1.xml') ? { ...e, claims: 1024 } : e,
  );
  const bomb = zipOf(entries);
  expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
  const pending = upload('bankAccount', bomb, 'lying-bomb.xlsx');
  expect((await fetch(`${server.url}/api/health/live`)).status).toBe(200);
  const refused = await pending;
  expect(refused.status).toBe(422);
  expect(refused.body.msg).toBe('فایل صورت‌حساب خوانده نشد؛ فایل CSV با کدگذاری UTF-8 یا فایل xlsx بفرستید.');
  expect((await fetch(`${server.url}/api/health/live`)).status).toBe(200);
});
