/**
 * The front door of identity (accounts, sign-in, sessions, profiles and their review): what other modules and the
 * composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one
 * another directly.
 */
export { createAccount, ensureAdministratorAccount, updateAccount } from './accounts';
export { identityHandlers } from './handlers';
export { loginGuard, type LoginGuard } from './login-limits';
export { type ProfileRejected, profileReviewHandlers } from './profile-review';
export { createSmsSender } from './sms';
export { revokeAllTokens, SESSION_CACHE_MS, sessionCache, sessionsChanged, tokenAuthenticator } from './tokens';
export { loadUserDto } from './users-store';
