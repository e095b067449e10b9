/**
 * The front door of requests (purchases: quotes, submission, state, steps and conversation): what other modules and
 * the composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import
 * one another directly.
 */
import type { DB } from '../../db/database';
import type { RateLimiter } from '../../lib/rate-limit';
import type { LiveEvents } from '../../realtime/events';
import type { Catalogue } from '../desks';
import type { Storage } from '../storage';
import { conversationHandlers } from './conversation-handlers';
import type { RequestDeps } from './deps';
import { requestHandlers } from './handlers';

export { requestDeps, type RequestDeps } from './deps';
export type { PriceSourceKind } from './price-sources';
export { PURCHASE_COLUMNS, purchasesQuery, purchaseView, searchPurchases } from './purchase-search';
export { runRequestEvent } from './lifecycle';
export { compensateMissedPromises, countCompensatedPromises } from './promises';
export { type LockedPurchase, lockPurchase, moneyOwnerOf, purchaseTraceCode } from './purchase-state';
export { repriceFromQuote } from './quote-spending';
export { QuoteSigner } from './quote-token';
export { estimateFee, maxRequestAmountMinor, priceInquiry } from './quotes';
export {
  type DeskTitles,
  notifyRequestStep,
  paidHowOf,
  requestTimeline,
  requestTitle,
  timelineOf,
  timelineSources,
  usualHoursOf,
  usualHoursToDone,
  usualWaitQuery,
} from './request-steps';
export { openSecret, sealStoredSecrets } from './sealed-fields';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: {
  db: DB;
  catalogue: Catalogue;
  requests: RequestDeps;
  live: LiveEvents;
  storage: Storage;
  deskTitle: (desk: string) => string;
  rateLimiter: RateLimiter;
}) => ({
  ...requestHandlers(deps.db, deps.catalogue, deps.requests, deps.live),
  ...conversationHandlers({
    db: deps.db,
    storage: deps.storage,
    live: deps.live,
    deskTitle: deps.deskTitle,
    rateLimiter: deps.rateLimiter,
  }),
});
