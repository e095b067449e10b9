/**
 * The sandbox bank's daily settlement statement, like a real PSP's settlement report: every payment the bank settled
 * (paid by the payer, verified or not) on one Tehran-time day, with its authority, reference, amount, masked card and
 * settled time; and the day's payout: the bank pays each Tehran day's verified takings into the merchant's bank
 * account as one transfer the next morning (PAYOUT_HOUR), under a reference naming the day. Served as GET
 * /sandbox-bank/pg/v4/report/settlements.json?date=YYYY-MM-DD (the Gregorian date of the Tehran day) and read in
 * process by the reconciliation.
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../../db/database';
import { addTehranDays, tehranDayWindow, tehranInstant } from '../../../shared/calendar/tehran-day';

export interface SettledPayment {
  authority: string;
  referenceId: string;
  amount: number;
  cardNo: string | null;
  settledAt: Date;
}

const settled = (db: DB) =>
  db
    .selectFrom('sandboxBankPayments')
    .select(['authority', 'referenceId', 'amount', 'cardNo', 'paidAt'])
    .where('state', 'in', ['paid', 'verified'])
    .where('referenceId', 'is not', null)
    .where('paidAt', 'is not', null);

const toSettled = (
  rows: Array<{
    authority: string;
    referenceId: string | null;
    amount: number;
    cardNo: string | null;
    paidAt: Date | null;
  }>,
) =>
  rows.map((r) => ({
    authority: r.authority,
    referenceId: r.referenceId!,
    amount: Number(r.amount),
    cardNo: r.cardNo,
    settledAt: r.paidAt!,
  }));

/** Every payment settled on the Tehran day `day` (YYYY-MM-DD), oldest first. */
export async function settlementStatement(db: DB, day: string): Promise<SettledPayment[]> {
  const { from, to } = tehranDayWindow(day);
  const rows = await settled(db).where('paidAt', '>=', from).where('paidAt', '<', to).orderBy('paidAt').execute();
  return toSettled(rows);
}

/** The settled payments with these references, whatever day they settled on. */
export async function settledByReference(db: DB, references: string[]): Promise<SettledPayment[]> {
  if (references.length === 0) return [];
  return toSettled(await settled(db).where('referenceId', 'in', references).execute());
}

/** The Tehran hour of the morning the bank pays a day's verified takings out. */
export const PAYOUT_HOUR = 8;
/** A payout's reference: the letters SBPAYOUT and the Gregorian date of the day it pays (e.g. SBPAYOUT20261128). */
export const payoutReference = (day: string) => `SBPAYOUT${day.replace(/-/g, '')}`;
/** Whether a reference, as tracking codes are compared (lower case, no separators), names a sandbox payout. */
export const isPayoutReference = (canonical: string) => /^sbpayout\d{8}$/.test(canonical);

export interface Payout {
  reference: string;
  /** The Tehran day whose verified takings it pays. */
  covers: string;
  amount: number;
  count: number;
  /** When the transfer leaves the bank: the next morning. */
  paidAt: Date;
}

/** The payout of the Tehran day `day`'s verified takings; null when nothing was verified that day. */
export async function payoutOf(db: DB, day: string): Promise<Payout | null> {
  const { from, to } = tehranDayWindow(day);
  const row = await db
    .selectFrom('sandboxBankPayments')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<string>('amount').as('amount')])
    .where('state', '=', 'verified')
    .where('paidAt', '>=', from)
    .where('paidAt', '<', to)
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  if (count === 0) return null;
  return {
    reference: payoutReference(day),
    covers: day,
    amount: Number(row.amount),
    count,
    paidAt: tehranInstant(addTehranDays(day, 1), PAYOUT_HOUR),
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The statement over HTTP, as a PSP's merchant panel offers it. */
export function registerSettlementReport(bank: FastifyInstance, db: DB): void {
  bank.get<{ Querystring: { date?: string } }>('/pg/v4/report/settlements.json', async (request, reply) => {
    const day = request.query.date ?? '';
    if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
      return reply.status(422).send({ data: [], errors: { code: -9, message: 'The date must be YYYY-MM-DD.' } });
    }
    const rows = await settlementStatement(db, day);
    const payout = await payoutOf(db, day);
    return {
      data: {
        date: day,
        count: rows.length,
        total: rows.reduce((sum, r) => sum + r.amount, 0),
        settlements: rows.map((r) => ({
          authority: r.authority,
          ref_id: r.referenceId,
          amount: r.amount,
          card_pan: r.cardNo,
          settled_at: r.settledAt.toISOString(),
        })),
        payout:
          payout === null
            ? null
            : {
                reference: payout.reference,
                amount: payout.amount,
                count: payout.count,
                paid_at: payout.paidAt.toISOString(),
              },
      },
      errors: [],
    };
  });
}
