/**
 * The front door of payments (paying a request or the wallet: gateway, offline deposits, links, collections): what
 * other modules and the composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside
 * the module import one another directly.
 */
export { createPaymentGateway } from './choose-gateway';
export type { PaymentDeps } from './context';
export { paymentHandlers, receiptVerificationHandlers } from './handlers';
export { countUnconfirmedPayments, manualCompletionHandlers } from './manual-completion';
export { GatewayUnavailableError, type PaymentGateway } from './payment-gateway';
export { collectionHandlers } from './staff-handlers';
