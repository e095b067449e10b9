/**
 * The front door of requests (purchases: quotes, submission, state, steps and conversation): what other modules and
 * the composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import
 * one another directly.
 */
export { conversationHandlers } from './conversation-handlers';
export { requestDeps, type RequestDeps } from './deps';
export { requestHandlers } from './handlers';
export type { PriceSourceKind } from './price-sources';
export { searchPurchases } from './purchase-search';
export {
  changePurchaseState,
  type LockedPurchase,
  lockPurchase,
  moneyOwnerOf,
  purchaseTraceCode,
} from './purchase-state';
export { repriceFromQuote } from './quote-spending';
export { QuoteSigner } from './quote-token';
export { estimateFee, maxRequestAmountMinor, priceInquiry } from './quotes';
export { type DeskTitles, notifyRequestStep, paidHowOf, requestTimeline, requestTitle } from './request-steps';
export { openSecret, sealStoredSecrets } from './sealed-fields';
