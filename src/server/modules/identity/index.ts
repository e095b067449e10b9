/**
 * The front door of identity (accounts, sign-in, sessions, profiles and their review): what other modules and the
 * composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one
 * another directly.
 */
import type { FileLimits } from '../../../shared/file-fields';
import type { AppConfig } from '../../config';
import type { DB } from '../../db/database';
import type { RateLimiter } from '../../lib/rate-limit';
import type { LiveEvents } from '../../realtime/events';
import type { Storage } from '../storage';
import { identityHandlers } from './handlers';
import type { LoginGuard } from './login-limits';
import { type ProfileApproved, type ProfileRejected, profileReviewHandlers } from './profile-review';
import type { SmsSender } from './sms';

export { createAccount, ensureAdministratorAccount, updateAccount } from './accounts';
export { loginGuard, type LoginGuard } from './login-limits';
export { type ProfileApproved, type ProfileRejected } from './profile-review';
export { createSmsSender } from './sms';
export { revokeAllTokens, SESSION_CACHE_MS, sessionCache, sessionsChanged, tokenAuthenticator } from './tokens';
export { loadUserDto } from './users-store';
export type { SmsSender } from './sms';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: {
  db: DB;
  config: AppConfig;
  storage: Storage;
  live: LiveEvents;
  loginGuard: LoginGuard;
  sms: SmsSender;
  rateLimiter: RateLimiter;
  /** The port fulfilment fills: release the customer's unfulfilled paid requests. */
  profileRejected: ProfileRejected;
  /** The port payments fills: tell a payer waiting on a payment link that they can pay it now. */
  profileApproved: ProfileApproved;
  /** The port the composition fills from the desk catalogue: a desk form's file field's declared limits. */
  fileFieldLimits: (desk: string, field: string) => FileLimits | null;
}) => ({
  ...identityHandlers({
    db: deps.db,
    storage: deps.storage,
    live: deps.live,
    sessions: deps.config.sessions,
    loginGuard: deps.loginGuard,
    inquiryLimits: deps.config.inquiryLimits,
    fileFieldLimits: deps.fileFieldLimits,
    codes: { db: deps.db, sms: deps.sms, rateLimiter: deps.rateLimiter, limits: deps.config.smsLimits },
  }),
  ...profileReviewHandlers(deps.db, deps.storage, deps.live, deps.profileRejected, deps.profileApproved),
});
