/**
 * The front door of fulfilment (staff deciding a paid request: done, failed, invalidated, and its settlement): what
 * other modules and the composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside
 * the module import one another directly.
 */
import type { FulfilmentDeps } from './deps';
import { fulfilmentHandlers } from './handlers';

export { customerCurrencyPaymentQuery, toCustomerCurrencyPayment } from './currency-payments';
export { failed } from './decisions';
export { type FulfilmentDeps, purchaseOf } from './deps';
export { announcePurchasesChanged, releaseOnProfileRejection } from './invalidation';
export { costsOf, fulfilmentSplit, lockForDecision, postSettlement, reservationOf } from './settlement';
export { taskData } from './task-view';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: { fulfilment: FulfilmentDeps }) => fulfilmentHandlers(deps.fulfilment);
