/**
 * The trial balance of one Tehran day: each ledger account kind (every customer's accounts of a kind summed into one
 * line, each company account its own) with its opening balance, what left it (debits: its negative entries) and what
 * entered it (credits: its positive entries) during the day, and its closing balance. Every posting sums to zero, so
 * the openings, the closings and debits less credits each total zero. Beside it, our `bank` account against our
 * uploaded bank statements: the ledger holds the money the bank account's balance says (its sign turned, since money
 * arriving makes it negative), the statements hold every line's money in less money out to the day's end, and the
 * difference is named: withdrawals paid from the bank (the ledger keeps them in withdrawalsOut) and what is left.
 */
import { sql } from 'kysely';
import catalogue from '../../../../schemas/ledger/transactionTypes.json' with { type: 'json' };
import type { DB } from '../../db/database';
import { canonicalTrackingCode } from '../../../shared/tracking-code';
import { tehranDayWindow } from '../../../shared/calendar/tehran-day';

export interface TrialBalanceLine {
  kind: string;
  title: string;
  owner: 'customer' | 'system';
  accountCount: number;
  opening: number;
  debits: number;
  credits: number;
  closing: number;
}

export interface BankComparison {
  ledgerClosing: number;
  statementClosing: number | null;
  statementLines: number;
  difference: number;
  explained: Array<{ reason: 'withdrawalsPaid' | 'unexplained'; title: string; amount: number }>;
}

export interface TrialBalance {
  day: string;
  accounts: TrialBalanceLine[];
  totals: { opening: number; debits: number; credits: number; closing: number };
  bank: BankComparison;
}

const KINDS = catalogue.accountKinds;

export async function trialBalance(db: DB, day: string): Promise<TrialBalance> {
  const { from, to } = tehranDayWindow(day);
  const rows = await sql<{
    kind: string;
    customer: boolean;
    accounts: number;
    opening: string;
    debits: string;
    credits: string;
  }>`
    select a.kind, (a.user_id is not null) as customer, count(distinct a.id)::int as accounts,
      coalesce(sum(e.amount) filter (where t.created_at < ${from}), 0)::bigint as opening,
      coalesce(-sum(e.amount) filter (where t.created_at >= ${from} and e.amount < 0), 0)::bigint as debits,
      coalesce(sum(e.amount) filter (where t.created_at >= ${from} and e.amount > 0), 0)::bigint as credits
    from ledger_accounts a
    left join ledger_entries e on e.account_id = a.id
    left join ledger_transactions t on t.id = e.transaction_id
    where t.id is null or t.created_at < ${to}
    group by a.kind, (a.user_id is not null)
  `.execute(db);
  const byKind = new Map(rows.rows.map((r) => [r.kind, r]));
  const accounts: TrialBalanceLine[] = KINDS.map((k) => {
    const r = byKind.get(k.kind);
    const opening = Number(r?.opening ?? 0);
    const debits = Number(r?.debits ?? 0);
    const credits = Number(r?.credits ?? 0);
    return {
      kind: k.kind,
      title: k.title,
      owner: k.owner === 'customer' ? ('customer' as const) : ('system' as const),
      accountCount: r?.accounts ?? 0,
      opening,
      debits,
      credits,
      closing: opening - debits + credits,
    };
  });
  const sum = (pick: (l: TrialBalanceLine) => number) => accounts.reduce((total, l) => total + pick(l), 0);
  const totals = {
    opening: sum((l) => l.opening),
    debits: sum((l) => l.debits),
    credits: sum((l) => l.credits),
    closing: sum((l) => l.closing),
  };
  const bankLine = accounts.find((l) => l.kind === 'bank')!;
  return { day, accounts, totals, bank: await bankComparison(db, to, -bankLine.closing) };
}

async function bankComparison(db: DB, to: Date, ledgerClosing: number): Promise<BankComparison> {
  const lines = await db
    .selectFrom('reconciliationStatementLines')
    .select(['direction', 'amount', 'referenceCanonical'])
    .where('source', '=', 'bank')
    .where('settledAt', '<', to)
    .execute();
  if (lines.length === 0) {
    return { ledgerClosing, statementClosing: null, statementLines: 0, difference: 0, explained: [] };
  }
  const statementClosing = lines.reduce((s, l) => s + (l.direction === 'in' ? 1 : -1) * Number(l.amount), 0);
  const paid = await db
    .selectFrom('withdrawals')
    .select('bankReference')
    .where('state', '=', 'done')
    .where('bankReference', 'is not', null)
    .execute();
  const paidReferences = new Set(paid.map((w) => canonicalTrackingCode(w.bankReference!)));
  const withdrawalsPaid = -lines
    .filter((l) => l.direction === 'out' && paidReferences.has(l.referenceCanonical))
    .reduce((s, l) => s + Number(l.amount), 0);
  const difference = statementClosing - ledgerClosing;
  const explained: BankComparison['explained'] = [];
  if (withdrawalsPaid !== 0) {
    explained.push({
      reason: 'withdrawalsPaid',
      title: 'برداشت‌های واریزشده به مشتریان (در دفتر کل در حساب برداشت‌ها)',
      amount: withdrawalsPaid,
    });
  }
  explained.push({
    reason: 'unexplained',
    title: 'مغایرت توضیح‌داده‌نشده',
    amount: difference - withdrawalsPaid,
  });
  return { ledgerClosing, statementClosing, statementLines: lines.length, difference, explained };
}
