/**
 * The front door of access (staff groups, their actions and users, the menu and the audit trail): what other modules
 * and the composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module
 * import one another directly.
 */
import type { DB } from '../../db/database';
import { accessHandlers } from './handlers';

export { actionsHeldBy, staffHolding } from './holders';
export { seedAccess } from './seed';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: { db: DB; actionsUsedByContract: ReadonlySet<string> }) =>
  accessHandlers(deps.db, deps.actionsUsedByContract);
