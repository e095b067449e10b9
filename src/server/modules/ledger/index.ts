/**
 * The front door of ledger (the double-entry ledger: the only writer of money): what other modules and the
 * composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one
 * another directly.
 */
import type { DB } from '../../db/database';
import { ledgerHandlers } from './handlers';

export { checkInvariants } from './invariants';
export { ledgerKey, type PurchaseStep } from './keys';
export {
  balanceCache,
  balancesOf,
  lockedWalletBalance,
  postTransaction,
  purchaseReservation,
  searchTransactions,
  shownUserBalance,
  userBalance,
} from './service';
export { Tx } from './types';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: { db: DB }) => ledgerHandlers(deps.db);
