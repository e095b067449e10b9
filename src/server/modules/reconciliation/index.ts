/**
 * The front door of reconciliation (the daily reconciliation of the gateway statement, the collections and the
 * ledger): what other modules and the composition may use, and only that (docs/decisions/038-module-front-doors.md).
 * Files inside the module import one another directly.
 */
import type { DB } from '../../db/database';
import { reconciliationHandlers } from './handlers';

export { runNightlyReconciliation, scheduleNightlyReconciliation } from './nightly';
export { type DaySummary, runReconciliation } from './runs';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: { db: DB }) => reconciliationHandlers(deps.db);
