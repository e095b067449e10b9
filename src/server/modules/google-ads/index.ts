/**
 * The front door of google-ads (Google Ads accounts and their charges): what other modules and the composition may
 * use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one another
 * directly.
 */
export { chargeableAccount } from './charges';
export { googleAdsHandlers } from './handlers';
export { manualGoogleAdsOperations } from './operations';
