/**
 * The front door of reconciliation (the daily reconciliation of the gateway statement, the collections and the
 * ledger): what other modules and the composition may use, and only that (docs/decisions/038-module-front-doors.md).
 * Files inside the module import one another directly.
 */
import type { DB } from '../../db/database';
import { reconciliationHandlers } from './handlers';
import { type DaySummary, runReconciliation } from './runs';
import { type TrialBalance, trialBalance } from './trial-balance';

export { runNightlyReconciliation, scheduleNightlyReconciliation } from './nightly';
export { type DaySummary, runReconciliation } from './runs';
export { type TrialBalance, trialBalance } from './trial-balance';

/** `npm run reconcile`: the day's run and its trial balance, in one answer (also over the control socket). */
export async function reconcileDay(db: DB, day: string): Promise<DaySummary & { trialBalance: TrialBalance }> {
  const summary = await runReconciliation(db, day, null);
  return { ...summary, trialBalance: await trialBalance(db, day) };
}

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: { db: DB }) => reconciliationHandlers(deps.db);
