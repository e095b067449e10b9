/**
 * The gateway's payouts in a day's reconciliation (decisions 039 and 042). A gateway pays its takings into our bank
 * account as one transfer per payout; when our uploaded bank statement shows the payout's line (by its reference,
 * whatever day it landed), the money that arrived is posted as transaction_M (bank → gatewayClearing) once, the
 * reference being its idempotency key, and the row is matched when it equals the takings of the days it covers (the
 * online collections of that gateway on those days), else `payoutDiffers`. What this posts is done by runs.ts, in the
 * run's transaction.
 *
 * - The sandbox bank pays each Tehran day's verified takings the next morning, under a reference naming the day
 *   (sandbox-bank/statement.ts): reconciling the day R looks at the payout due on R (the takings of R − 1); when R has
 *   ended with no line, `payoutMissing`.
 * - A gateway whose payouts staff upload as a report (ZarinPal: schemas/reconciliation/statements/zarinpalPayouts.json,
 *   source payout) names each payout with its reference, amount, paid date and the days it covers: reconciling R
 *   looks at the payouts paid on R (no bank line once R has ended: `payoutMissing`), and at the day whose takings
 *   fall due in our bank on R (the gateway's usual delay, a system parameter, after that day's end): takings no
 *   payout reported paid by R's end covers are `payoutMissing` too.
 */
import type { DB } from '../../db/database';
import { canonicalTrackingCode } from '../../../shared/tracking-code';
import { addTehranDays, tehranDayWindow } from '../../../shared/calendar/tehran-day';
import { gregorianToJalali } from '../../../shared/calendar';
import { payoutOf } from '../sandbox-bank';
import { readSetting, type Settings } from '../settings';
import { type Finding, SANDBOX_GATEWAY } from './matching';
import { type StoredLine, storedLines } from './statements';

/** A payout to post as transaction_M: the money that arrived, under the payout's key. */
export interface PayoutPosting {
  gateway: string;
  reference: string;
  amount: number;
  covers: string[];
  /** The finding the posting's id is written to. */
  finding: Finding;
}

interface PayoutMatch {
  findings: Finding[];
  postings: PayoutPosting[];
}

/**
 * The gateways whose payouts come as an uploaded report, each with the system parameter holding its usual delay: the
 * hours after a day's end by which its takings are in our bank.
 */
export const REPORTED_PAYOUT_DELAYS: Readonly<Record<string, keyof Settings>> = {
  zarinpal: 'zarinpalPayoutDelayHours',
};

const HOUR_MS = 3600_000;
const links = { collectionId: null, withdrawalId: null, ledgerTransactionId: null, purchaseId: null };

/** The Tehran days from `from` to `to`, both included. */
function daysFrom(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addTehranDays(d, 1)) days.push(d);
  return days;
}

/** What `gateway` took online on the Tehran days `from` to `to`: the takings a payout of those days pays. */
async function takingsOf(db: DB, gateway: string, from: string, to: string) {
  const collections = await db
    .selectFrom('collections')
    .select(['id', 'amount'])
    .where('source', '=', 'online')
    .where('gateway', '=', gateway)
    .where('createdAt', '>=', tehranDayWindow(from).from)
    .where('createdAt', '<', tehranDayWindow(to).to)
    .execute();
  return {
    days: daysFrom(from, to),
    count: collections.length,
    amount: collections.reduce((s, c) => s + Number(c.amount), 0),
  };
}

/** The payout's line on our bank statements (money in, by its reference), as evidence; null when none. */
async function bankLineOf(db: DB, reference: string) {
  const [line] = await storedLines(db, 'bank', { references: [canonicalTrackingCode(reference)] });
  return line === undefined || line.direction !== 'in'
    ? null
    : {
        id: line.id,
        statement: line.statement,
        fileName: line.fileName,
        lineNo: line.lineNo,
        reference: line.reference,
        amount: line.amount,
        settledAt: line.settledAt.toISOString(),
      };
}

export async function matchPayouts(db: DB, day: string, now: Date): Promise<PayoutMatch> {
  const found: PayoutMatch = await matchSandboxPayout(db, day, now);
  for (const [gateway, setting] of Object.entries(REPORTED_PAYOUT_DELAYS)) {
    const part = await matchReportedPayouts(db, gateway, day, now, await readSetting(db, setting));
    found.findings.push(...part.findings);
    found.postings.push(...part.postings);
  }
  return found;
}

async function matchSandboxPayout(db: DB, day: string, now: Date): Promise<PayoutMatch> {
  const covered = addTehranDays(day, -1);
  const payout = await payoutOf(db, covered);
  if (payout === null) return { findings: [], postings: [] };
  const takings = await takingsOf(db, SANDBOX_GATEWAY, covered, covered);
  const evidence = {
    gateway: null,
    payout: {
      gateway: SANDBOX_GATEWAY,
      reference: payout.reference,
      covers: gregorianToJalali(covered),
      amount: payout.amount,
      count: payout.count,
      paidAt: payout.paidAt.toISOString(),
    },
    takings,
    bank: await bankLineOf(db, payout.reference),
    collections: [],
    ledger: [],
  };
  if (evidence.bank === null) {
    // Not yet late while the day it is due on lasts.
    if (now < tehranDayWindow(day).to) return { findings: [], postings: [] };
    return {
      findings: [{ key: `payoutMissing:${payout.reference}`, kind: 'payoutMissing', evidence, ...links }],
      postings: [],
    };
  }
  const arrived = evidence.bank.amount;
  const matched = arrived === takings.amount;
  const finding: Finding = {
    key: `${matched ? 'matched:payout' : 'payout'}:${payout.reference}`,
    kind: matched ? 'matched' : 'payoutDiffers',
    evidence,
    ...links,
  };
  return {
    findings: [finding],
    postings: [{ gateway: SANDBOX_GATEWAY, reference: payout.reference, amount: arrived, covers: [covered], finding }],
  };
}

/** A reported payout as evidence: the report's line and the days it covers (Jalali). */
const reportedSide = (p: StoredLine) => ({
  gateway: p.gateway,
  statement: p.statement,
  fileName: p.fileName,
  lineNo: p.lineNo,
  reference: p.reference,
  covers:
    p.coversFrom === p.coversTo
      ? gregorianToJalali(p.coversFrom!)
      : `${gregorianToJalali(p.coversFrom!)} تا ${gregorianToJalali(p.coversTo!)}`,
  amount: p.amount,
  paidAt: p.settledAt.toISOString(),
});

/** The uploaded payout lines of `gateway` that cover the Tehran day `day`, whatever day they were paid on. */
async function payoutsCovering(db: DB, gateway: string, day: string): Promise<StoredLine[]> {
  const rows = await db
    .selectFrom('reconciliationStatementLines')
    .select('referenceCanonical')
    .where('source', '=', 'payout')
    .where('gateway', '=', gateway)
    .where('coversFrom', '<=', day)
    .where('coversTo', '>=', day)
    .execute();
  return storedLines(db, 'payout', { references: rows.map((r) => r.referenceCanonical) });
}

/**
 * The reported payouts of `gateway` paid on the Tehran day `day`, and the takings due in our bank on that day that no
 * payout brought: those of the day D = day − ⌈delayHours / 24⌉, due `delayHours` after D's end.
 */
async function matchReportedPayouts(
  db: DB,
  gateway: string,
  day: string,
  now: Date,
  delayHours: number,
): Promise<PayoutMatch> {
  const findings: Finding[] = [];
  const postings: PayoutPosting[] = [];
  const paidToday = (await storedLines(db, 'payout', { day })).filter((p) => p.gateway === gateway);
  for (const p of paidToday) {
    const takings = await takingsOf(db, gateway, p.coversFrom!, p.coversTo!);
    const evidence = {
      gateway: null,
      payout: reportedSide(p),
      takings,
      bank: await bankLineOf(db, p.reference),
      collections: [],
      ledger: [],
    };
    if (evidence.bank === null) {
      // Reported paid, not in our bank: late once the day it was paid on has ended.
      if (now >= tehranDayWindow(day).to)
        findings.push({ key: `payoutMissing:${gateway}:${p.reference}`, kind: 'payoutMissing', evidence, ...links });
      continue;
    }
    const arrived = evidence.bank.amount;
    const matched = arrived === takings.amount && arrived === p.amount;
    const finding: Finding = {
      key: `${matched ? 'matched:payout' : 'payout'}:${gateway}:${p.reference}`,
      kind: matched ? 'matched' : 'payoutDiffers',
      evidence,
      ...links,
    };
    findings.push(finding);
    postings.push({ gateway, reference: p.reference, amount: arrived, covers: takings.days, finding });
  }

  // The day whose takings are due in our bank by this day's end (delayHours after that day's end falls on this day),
  // once that moment has passed: paid by no payout that arrived, they are missing.
  const dueDay = addTehranDays(day, -Math.ceil(delayHours / 24));
  const dueAt = new Date(tehranDayWindow(dueDay).to.getTime() + delayHours * HOUR_MS);
  if (now < dueAt) return { findings, postings };
  const takings = await takingsOf(db, gateway, dueDay, dueDay);
  if (takings.count === 0) return { findings, postings };
  // A payout reported paid by this day's end is named on the day it was paid (matched, short, or not in our bank).
  const { to: dayEnd } = tehranDayWindow(day);
  if ((await payoutsCovering(db, gateway, dueDay)).some((p) => p.settledAt < dayEnd)) return { findings, postings };
  findings.push({
    key: `payoutMissing:${gateway}:day:${dueDay}`,
    kind: 'payoutMissing',
    evidence: {
      gateway: null,
      payout: null,
      takings: { ...takings, dueAt: dueAt.toISOString() },
      bank: null,
      collections: [],
      ledger: [],
    },
    ...links,
  });
  return { findings, postings };
}
