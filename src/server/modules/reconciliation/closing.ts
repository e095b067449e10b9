/**
 * Closing a reconciled day (decision 039): a day whose last run left nothing unresolved can be closed; a closed day's
 * reconciliation and resolutions no longer change (runReconciliation and resolveRow refuse it, 409). Reopening
 * takes a reason from one staff member and the approval of a second one. Each step is audited.
 */
import type { Principal } from '../../contract/handlers';
import type { DB, Trx } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';

/** Refuses (409) when `day` is closed; locks its run row until `trx` ends, so a close cannot pass a change. */
export async function assertDayOpen(trx: Trx, day: string): Promise<void> {
  const run = await trx
    .selectFrom('reconciliationRuns')
    .select('closedAt')
    .where('day', '=', day)
    .forUpdate()
    .executeTakeFirst();
  if (run?.closedAt) throw HttpError.of(409, 'reconciliation.day.closed');
}

async function lockedRun(trx: Trx, day: string) {
  const run = await trx
    .selectFrom('reconciliationRuns')
    .select(['day', 'closedAt', 'unresolvedCount', 'reopenReason', 'reopenRequestedBy'])
    .where('day', '=', day)
    .forUpdate()
    .executeTakeFirst();
  if (!run) throw HttpError.of(404, 'reconciliation.day.notRun');
  return run;
}

export async function closeDay(db: DB, principal: Principal, day: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const run = await lockedRun(trx, day);
    if (run.closedAt) throw HttpError.of(409, 'reconciliation.day.alreadyClosed');
    if (run.unresolvedCount > 0) throw HttpError.of(422, 'reconciliation.day.unresolved');
    await trx
      .updateTable('reconciliationRuns')
      .set({
        closedAt: new Date(),
        closedBy: principal.userId,
        reopenReason: null,
        reopenRequestedBy: null,
        reopenRequestedAt: null,
      })
      .where('day', '=', day)
      .execute();
    await audit(trx, {
      actorUserId: principal.userId,
      action: 'closeReconciliationDay',
      entity: 'reconciliationDay',
      entityId: day,
      before: { closed: false },
      after: { closed: true },
    });
  });
}

/** One staff member asks to reopen a closed day, with the reason; nothing opens until another approves. */
export async function requestReopen(db: DB, principal: Principal, day: string, reason: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const run = await lockedRun(trx, day);
    if (!run.closedAt) throw HttpError.of(409, 'reconciliation.day.notClosed');
    if (run.reopenRequestedBy !== null) throw HttpError.of(409, 'reconciliation.day.reopenPending');
    await trx
      .updateTable('reconciliationRuns')
      .set({ reopenReason: reason, reopenRequestedBy: principal.userId, reopenRequestedAt: new Date() })
      .where('day', '=', day)
      .execute();
    await audit(trx, {
      actorUserId: principal.userId,
      action: 'requestReopenReconciliationDay',
      entity: 'reconciliationDay',
      entityId: day,
      after: { reopenReason: reason },
    });
  });
}

/** A second staff member approves the request: the day opens again. The one who asked cannot (403). */
export async function approveReopen(db: DB, principal: Principal, day: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const run = await lockedRun(trx, day);
    if (!run.closedAt || run.reopenRequestedBy === null) throw HttpError.of(409, 'reconciliation.day.noReopenRequest');
    if (run.reopenRequestedBy === principal.userId) throw HttpError.of(403, 'reconciliation.day.ownReopen');
    await trx
      .updateTable('reconciliationRuns')
      .set({ closedAt: null, closedBy: null, reopenReason: null, reopenRequestedBy: null, reopenRequestedAt: null })
      .where('day', '=', day)
      .execute();
    await audit(trx, {
      actorUserId: principal.userId,
      action: 'reopenReconciliationDay',
      entity: 'reconciliationDay',
      entityId: day,
      before: { closed: true, reopenReason: run.reopenReason, requestedBy: run.reopenRequestedBy },
      after: { closed: false },
    });
  });
}
