/**
 * The front door of google-ads (Google Ads accounts and their charges): what other modules and the composition may
 * use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one another
 * directly.
 */
import type { DB } from '../../db/database';
import type { LiveEvents } from '../../realtime/events';
import type { FulfilmentDeps } from '../fulfilment';
import { googleAdsHandlers } from './handlers';
import type { GoogleAdsOperations } from './operations';

export { chargeableAccount } from './charges';
export { manualGoogleAdsOperations } from './operations';
export type { GoogleAdsOperations } from './operations';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: {
  db: DB;
  live: LiveEvents;
  googleAds: GoogleAdsOperations;
  fulfilment: FulfilmentDeps;
}) => googleAdsHandlers(deps.db, deps.live, deps.googleAds, deps.fulfilment);
