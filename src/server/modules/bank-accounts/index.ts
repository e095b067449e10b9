/**
 * The front door of bank-accounts (customers' bank accounts and withdrawals): what other modules and the composition
 * may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one another
 * directly.
 */
import type { DB } from '../../db/database';
import type { LiveEvents } from '../../realtime/events';
import type { Storage } from '../storage';
import { bankAccountHandlers } from './handlers';

export { countRequestedWithdrawals } from './waiting-withdrawals';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: { db: DB; live: LiveEvents; storage: Storage }) =>
  bankAccountHandlers(deps.db, deps.live, deps.storage);
