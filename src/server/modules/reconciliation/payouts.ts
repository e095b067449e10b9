/**
 * The gateway's payouts in a day's reconciliation (decision 039). The sandbox bank pays each Tehran day's verified
 * takings into our bank account as one transfer the next morning, under a reference naming the day
 * (sandbox-bank/statement.ts). Reconciling the day R looks at the payout due on R (the takings of R − 1): when our
 * uploaded bank statement shows its line (by reference, whatever day it landed), the money that arrived is posted as
 * transaction_M (bank → gatewayClearing) once, the reference being its idempotency key, and the row is matched when
 * it equals the takings of the day it covers (the online collections of that gateway on that day), else
 * `payoutDiffers`; when R has ended with no such line, `payoutMissing`. What this posts is done by runs.ts, in the
 * run's transaction.
 */
import type { DB } from '../../db/database';
import { canonicalTrackingCode } from '../../../shared/tracking-code';
import { addTehranDays, tehranDayWindow } from '../../../shared/calendar/tehran-day';
import { gregorianToJalali } from '../../../shared/calendar';
import { payoutOf } from '../sandbox-bank';
import { type Finding, SANDBOX_GATEWAY } from './matching';
import { storedLines } from './statements';

/** A payout to post as transaction_M: the money that arrived, under the payout's key. */
export interface PayoutPosting {
  gateway: string;
  reference: string;
  amount: number;
  covers: string[];
  /** The finding the posting's id is written to. */
  finding: Finding;
}

export async function matchPayouts(
  db: DB,
  day: string,
  now: Date,
): Promise<{ findings: Finding[]; postings: PayoutPosting[] }> {
  const covered = addTehranDays(day, -1);
  const payout = await payoutOf(db, covered);
  if (payout === null) return { findings: [], postings: [] };
  const { from, to } = tehranDayWindow(covered);
  const collections = await db
    .selectFrom('collections')
    .select(['id', 'amount'])
    .where('source', '=', 'online')
    .where('gateway', '=', SANDBOX_GATEWAY)
    .where('createdAt', '>=', from)
    .where('createdAt', '<', to)
    .execute();
  const takings = {
    days: [covered],
    count: collections.length,
    amount: collections.reduce((s, c) => s + Number(c.amount), 0),
  };
  const [line] = await storedLines(db, 'bank', { references: [canonicalTrackingCode(payout.reference)] });
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
    bank:
      line === undefined || line.direction !== 'in'
        ? null
        : {
            id: line.id,
            statement: line.statement,
            fileName: line.fileName,
            lineNo: line.lineNo,
            reference: line.reference,
            amount: line.amount,
            settledAt: line.settledAt.toISOString(),
          },
    collections: [],
    ledger: [],
  };
  const links = { collectionId: null, withdrawalId: null, ledgerTransactionId: null, purchaseId: null };
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
