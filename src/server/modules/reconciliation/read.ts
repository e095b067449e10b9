/** The staff's read side of the reconciliation: the reconciled days with their totals, and one day's rows. */
import { sql } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB } from '../../db/database';
import { type ListEnvelope, pageOf } from '../../lib/paging';
import { nameOrMobile } from '../../lib/person-names';

export type ReconciliationDay = components['schemas']['ReconciliationDay'];
export type ReconciliationRow = components['schemas']['ReconciliationRow'];

const runColumns = [
  'day',
  'ranAt',
  'gatewayCount',
  'gatewayAmount',
  'collectionCount',
  'collectionAmount',
  'bankCount',
  'bankInAmount',
  'bankOutAmount',
  'matchedCount',
  'unmatchedCount',
  'unresolvedCount',
  'closedAt',
  'reopenReason',
  'reopenRequestedBy',
] as const;

async function withKinds(
  db: DB,
  runs: Array<
    Omit<ReconciliationDay, 'unmatchedByKind' | 'ranAt' | 'ledgerCount' | 'closedAt'> & {
      ranAt: Date;
      closedAt: Date | null;
    }
  >,
) {
  const days = runs.map((r) => r.day);
  const kinds =
    days.length === 0
      ? []
      : await db
          .selectFrom('reconciliationRows')
          .select(['day', 'kind', sql<number>`count(*)::int`.as('count')])
          .where('day', 'in', days)
          .where('current', '=', true)
          .where('matched', '=', false)
          .groupBy(['day', 'kind'])
          .execute();
  // The ledger transactions the rows' evidence names, each counted once per day.
  const ledger =
    days.length === 0
      ? []
      : await db
          .selectFrom('reconciliationRows as r')
          .innerJoinLateral(
            (eb) => eb.fn<{ value: unknown }>('jsonb_array_elements', [sql`r.evidence -> 'ledger'`]).as('l'),
            (join) => join.onTrue(),
          )
          .select(['r.day', sql<number>`count(distinct l.value ->> 'id')::int`.as('count')])
          .where('r.day', 'in', days)
          .where('r.current', '=', true)
          .groupBy('r.day')
          .execute();
  return runs.map((r) => ({
    ...r,
    ledgerCount: Number(ledger.find((l) => l.day === r.day)?.count ?? 0),
    ranAt: r.ranAt.toISOString(),
    closedAt: r.closedAt?.toISOString() ?? null,
    gatewayAmount: Number(r.gatewayAmount),
    collectionAmount: Number(r.collectionAmount),
    bankInAmount: Number(r.bankInAmount),
    bankOutAmount: Number(r.bankOutAmount),
    unmatchedByKind: Object.fromEntries(kinds.filter((k) => k.day === r.day).map((k) => [k.kind, Number(k.count)])),
  }));
}

export async function searchDays(
  db: DB,
  filter: { from?: string; to?: string; unresolvedOnly?: boolean; page?: number; perPage?: number },
): Promise<ListEnvelope<ReconciliationDay>> {
  let q = db.selectFrom('reconciliationRuns');
  if (filter.from) q = q.where('day', '>=', filter.from);
  if (filter.to) q = q.where('day', '<=', filter.to);
  if (filter.unresolvedOnly) q = q.where('unresolvedCount', '>', 0);
  const page = await pageOf(q, filter, (x) => x.select(runColumns).orderBy('day', 'desc'));
  return { items: await withKinds(db, page.items), total: page.total };
}

export async function fetchDay(db: DB, day: string): Promise<ReconciliationDay | null> {
  const run = await db.selectFrom('reconciliationRuns').select(runColumns).where('day', '=', day).executeTakeFirst();
  return run ? (await withKinds(db, [run]))[0]! : null;
}

export async function rowsOf(db: DB, filter: { day?: string; id?: number }): Promise<ReconciliationRow[]> {
  let q = db
    .selectFrom('reconciliationRows as r')
    .leftJoin('users as u', 'u.id', 'r.resolvedBy')
    .select([
      'r.id',
      'r.day',
      'r.kind',
      'r.matched',
      'r.current',
      'r.evidence',
      'r.collectionId',
      'r.withdrawalId',
      'r.ledgerTransactionId',
      'r.purchaseId',
      'r.resolvedNote',
      'r.resolvedBy',
      'r.resolvedAt',
      'u.firstName',
      'u.lastName',
      'u.mobileNo',
    ]);
  if (filter.day !== undefined) q = q.where('r.day', '=', filter.day).where('r.current', '=', true);
  if (filter.id !== undefined) q = q.where('r.id', '=', filter.id);
  const rows = await q.orderBy('r.matched').orderBy('r.id').execute();
  return rows.map(({ firstName, lastName, mobileNo, ...r }) => ({
    ...r,
    kind: r.kind as ReconciliationRow['kind'],
    evidence: (typeof r.evidence === 'string' ? JSON.parse(r.evidence) : r.evidence) as Record<string, unknown>,
    resolvedByName: r.resolvedBy === null ? null : nameOrMobile({ firstName, lastName, mobileNo }),
    resolvedAt: r.resolvedAt?.toISOString() ?? null,
  }));
}
