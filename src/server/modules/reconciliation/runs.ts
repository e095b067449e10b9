/**
 * Running a day's reconciliation and keeping its findings: one run row per day with its totals, one row per finding
 * keyed by what it is about, so running the day again updates the same rows and never touches a row's resolution
 * (a resolved row stays resolved). A finding no longer found is kept, marked not current. Rows are never deleted.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/database';
import { gregorianToJalali } from '../../../shared/calendar';
import { audit } from '../../lib/audit';
import { staffHolding } from '../access';
import { notifyStaff } from '../notifications';
import { ledgerKey, postTransaction, Tx } from '../ledger';
import { type FindingKind, matchDay } from './matching';
import { matchPayouts } from './payouts';
import { assertDayOpen } from './closing';
import { msg } from '../../http/messages';

/** The staff action of the reconciliation page; its holders are told of new unmatched rows. */
export const RECONCILE_ACTION = 'reconcile';

export interface DaySummary {
  day: string;
  ranAt: Date;
  gatewayCount: number;
  gatewayAmount: number;
  collectionCount: number;
  collectionAmount: number;
  bankCount: number;
  bankInAmount: number;
  bankOutAmount: number;
  matchedCount: number;
  unmatchedCount: number;
  unresolvedCount: number;
  /** Unmatched rows by kind (current rows only). */
  unmatchedByKind: Partial<Record<FindingKind, number>>;
}

/**
 * Reconciles the Tehran day `day` (YYYY-MM-DD) now; `ranBy` is the staff member running it by hand. Unmatched rows
 * no one was told of yet are announced to the staff holding `reconcile` in the same transaction (`now` sets the
 * notification's clock: quiet hours).
 */
export async function runReconciliation(
  db: DB,
  day: string,
  ranBy: number | null,
  now: Date = new Date(),
): Promise<DaySummary> {
  const match = await matchDay(db, day);
  const payouts = await matchPayouts(db, day, now);
  match.findings.push(...payouts.findings);
  await db.transaction().execute(async (trx) => {
    // A closed day no longer changes (its run row stays locked until this ends, so closing waits for the run).
    await assertDayOpen(trx, day);
    // The run row first: it serialises two runs of the same day.
    await trx
      .insertInto('reconciliationRuns')
      .values({ day: day, ranBy })
      .onConflict((oc) => oc.column('day').doUpdateSet({ ranAt: new Date(), ranBy }))
      .execute();
    // The money each payout brought, once per payout whatever the number of runs (its key).
    for (const p of payouts.postings) {
      const posted = await postTransaction(trx, {
        type: Tx.settleGatewayToBank,
        userId: null,
        amounts: { collectionAmount: p.amount },
        idempotencyKey: ledgerKey.payout(p.gateway, p.reference),
        details: { generalTitle: msg('reconciliation.payout.ledgerTitle', { reference: p.reference }) },
      });
      p.finding.ledgerTransactionId = posted.id;
      p.finding.evidence.ledger = [{ id: posted.id, type: posted.type, traceCode: posted.traceCode }];
    }
    await trx.updateTable('reconciliationRows').set({ current: false }).where('day', '=', day).execute();
    for (const f of match.findings) {
      const values = {
        kind: f.kind,
        matched: f.kind === 'matched',
        evidence: JSON.stringify(f.evidence),
        collectionId: f.collectionId,
        withdrawalId: f.withdrawalId,
        ledgerTransactionId: f.ledgerTransactionId,
        purchaseId: f.purchaseId,
        current: true,
      };
      await trx
        .insertInto('reconciliationRows')
        .values({ day: day, rowKey: f.key, ...values })
        .onConflict((oc) => oc.columns(['day', 'rowKey']).doUpdateSet(values))
        .execute();
    }
    const counts = await countsOf(trx, day);
    await trx
      .updateTable('reconciliationRuns')
      .set({
        gatewayCount: match.gateway.count,
        gatewayAmount: match.gateway.amount,
        collectionCount: match.collections.count,
        collectionAmount: match.collections.amount,
        bankCount: match.bank.count,
        bankInAmount: match.bank.inAmount,
        bankOutAmount: match.bank.outAmount,
        matchedCount: counts.matched,
        unmatchedCount: counts.unmatched,
        unresolvedCount: counts.unresolved,
      })
      .where('day', '=', day)
      .execute();
    await announceNewRows(trx, day, now);
  });
  return (await daySummary(db, day))!;
}

/**
 * Tells the staff who hold `reconcile` of the day's open unmatched rows not announced yet, in one notification per
 * person; the event key names the first of them, so the same rows never notify twice (two runs of a day serialise
 * on the day's run row before reaching here).
 */
async function announceNewRows(trx: DB, day: string, now: Date): Promise<void> {
  const fresh = await trx
    .selectFrom('reconciliationRows')
    .select('id')
    .where('day', '=', day)
    .where('current', '=', true)
    .where('matched', '=', false)
    .where('resolvedAt', 'is', null)
    .where('notifiedAt', 'is', null)
    .orderBy('id')
    .execute();
  if (fresh.length === 0) return;
  const ids = fresh.map((r) => r.id);
  await notifyStaff(
    trx,
    await staffHolding(trx, RECONCILE_ACTION),
    {
      kind: 'staffReconciliationUnmatched',
      params: { day: gregorianToJalali(day), count: ids.length },
      eventKey: `reconciliation:${day}:${ids[0]}`,
    },
    now,
  );
  await trx.updateTable('reconciliationRows').set({ notifiedAt: now }).where('id', 'in', ids).execute();
}

async function countsOf(db: DB, day: string) {
  const row = await db
    .selectFrom('reconciliationRows')
    .select([
      sql<number>`count(*) filter (where matched)::int`.as('matched'),
      sql<number>`count(*) filter (where not matched)::int`.as('unmatched'),
      sql<number>`count(*) filter (where not matched and resolved_at is null)::int`.as('unresolved'),
    ])
    .where('day', '=', day)
    .where('current', '=', true)
    .executeTakeFirstOrThrow();
  return { matched: Number(row.matched), unmatched: Number(row.unmatched), unresolved: Number(row.unresolved) };
}

export async function daySummary(db: DB, day: string): Promise<DaySummary | null> {
  const run = await db.selectFrom('reconciliationRuns').selectAll().where('day', '=', day).executeTakeFirst();
  if (!run) return null;
  const kinds = await db
    .selectFrom('reconciliationRows')
    .select(['kind', sql<number>`count(*)::int`.as('count')])
    .where('day', '=', day)
    .where('current', '=', true)
    .where('matched', '=', false)
    .groupBy('kind')
    .execute();
  return {
    day,
    ranAt: run.ranAt,
    gatewayCount: run.gatewayCount,
    gatewayAmount: Number(run.gatewayAmount),
    collectionCount: run.collectionCount,
    collectionAmount: Number(run.collectionAmount),
    bankCount: run.bankCount,
    bankInAmount: Number(run.bankInAmount),
    bankOutAmount: Number(run.bankOutAmount),
    matchedCount: run.matchedCount,
    unmatchedCount: run.unmatchedCount,
    unresolvedCount: run.unresolvedCount,
    unmatchedByKind: Object.fromEntries(kinds.map((k) => [k.kind, Number(k.count)])),
  };
}

/**
 * Resolves an unmatched row with a note (audited). Returns 'resolved', or why not: 'notFound', 'matched' (nothing to
 * resolve), 'alreadyResolved'.
 */
export async function resolveRow(
  db: DB,
  id: number,
  note: string,
  actorUserId: number,
): Promise<'resolved' | 'notFound' | 'matched' | 'alreadyResolved'> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('reconciliationRows')
      .select(['id', 'day', 'kind', 'matched', 'resolvedAt', 'rowKey'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return 'notFound';
    if (row.matched) return 'matched';
    if (row.resolvedAt) return 'alreadyResolved';
    await assertDayOpen(trx, row.day);
    await trx
      .updateTable('reconciliationRows')
      .set({ resolvedNote: note, resolvedBy: actorUserId, resolvedAt: new Date() })
      .where('id', '=', id)
      .execute();
    await trx
      .updateTable('reconciliationRuns')
      .set({ unresolvedCount: sql`unresolved_count - 1` })
      .where('day', '=', row.day)
      .execute();
    await audit(trx, {
      actorUserId,
      action: 'resolveReconciliationRow',
      entity: 'reconciliationRow',
      entityId: id,
      before: { kind: row.kind, key: row.rowKey, resolved: false },
      after: { resolved: true, note },
    });
    return 'resolved';
  });
}
