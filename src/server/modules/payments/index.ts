/**
 * The front door of payments (paying a request or the wallet: gateway, offline deposits, links, collections): what
 * other modules and the composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside
 * the module import one another directly.
 */
import type { AppConfig } from '../../config';
import type { DB } from '../../db/database';
import type { RateLimiter } from '../../lib/rate-limit';
import type { PaymentDeps } from './context';
import { paymentHandlers, receiptVerificationHandlers } from './handlers';
import { manualCompletionHandlers } from './manual-completion';
import { collectionHandlers } from './staff-handlers';

export { createPaymentGateway } from './choose-gateway';
export type { PaymentDeps } from './context';
export { countUnconfirmedPayments } from './manual-completion';
export { GatewayUnavailableError, type PaymentGateway } from './payment-gateway';
export { tellWaitingPayers } from './waiting-payers';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: {
  db: DB;
  config: AppConfig;
  payments: PaymentDeps;
  gateway: { name: string; title: string };
  deskTitle: (desk: string) => string;
  rateLimiter: RateLimiter;
}) => ({
  ...paymentHandlers(
    deps.payments,
    (request) => deps.config.payments.publicUrl ?? `${request.protocol}://${request.host}`,
  ),
  ...receiptVerificationHandlers({
    db: deps.db,
    deskTitle: deps.deskTitle,
    rateLimiter: deps.rateLimiter,
    limits: deps.config.receiptVerifyLimits,
  }),
  ...collectionHandlers(deps.db, deps.payments, deps.gateway),
  ...manualCompletionHandlers(deps.db, deps.deskTitle),
});
