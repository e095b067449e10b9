/** Staff operations of the daily reconciliation (x-access staff:reconcile). */
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { conflict, HttpError, notFound, ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { fetchDay, rowsOf, searchDays } from './read';
import { resolveRow, runReconciliation } from './runs';

export function reconciliationHandlers(
  db: DB,
): Pick<
  Handlers,
  'searchReconciliationDays' | 'fetchReconciliationDay' | 'runReconciliation' | 'resolveReconciliationRow'
> {
  return {
    searchReconciliationDays: async ({ body }) => ok(await searchDays(db, body ?? {})),

    fetchReconciliationDay: async ({ body }) => {
      const day = await fetchDay(db, body.day);
      if (!day) throw notFound(msg('reconciliation.day.notRun'));
      return ok({ day, rows: await rowsOf(db, { day: body.day }) });
    },

    runReconciliation: async ({ body, principal }) => {
      await runReconciliation(db, body.day, principal!.userId);
      return ok((await fetchDay(db, body.day))!, msg('reconciliation.ran'));
    },

    resolveReconciliationRow: async ({ body, principal }) => {
      const outcome = await resolveRow(db, body.row, body.note.trim(), principal!.userId);
      if (outcome === 'notFound') throw new HttpError(404, msg('reconciliation.row.notFound'));
      if (outcome === 'matched') throw conflict(msg('reconciliation.row.matched'));
      if (outcome === 'alreadyResolved') throw conflict(msg('reconciliation.row.alreadyResolved'));
      return ok((await rowsOf(db, { id: body.row }))[0]!, msg('reconciliation.row.resolved'));
    },
  };
}
