/**
 * The front door of bank-accounts (customers' bank accounts and withdrawals): what other modules and the composition
 * may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one another
 * directly.
 */
export { bankAccountHandlers } from './handlers';
export { countRequestedWithdrawals } from './waiting-withdrawals';
