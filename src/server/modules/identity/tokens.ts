/**
 * Opaque bearer tokens (sessions): random, stored only as a SHA-256 hash, revocable, with the browser and
 * address they were issued to. A token stops working after `idleSeconds` unused or `maxAgeSeconds` after it
 * was issued, whichever comes first; both are compared with the database clock.
 */
import Bowser from 'bowser';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { afterCommit } from '../../db/after-commit';
import { HttpError } from '../../http/errors';
import { randomToken, sha256 } from '../../lib/crypto';
import { cachePerDatabase, type ReadThroughCache } from '../../lib/read-through-cache';

/** last_used_at is refreshed at most this often, so reads do not write on every request. */
const TOUCH_INTERVAL_MS = 60_000;
const MAX_USER_AGENT = 300;

export interface SessionPolicy {
  idleSeconds: number;
  maxAgeSeconds: number;
}

/** Where a log-in came from, as the sessions list shows it. */
export interface Client {
  userAgent: string | null;
  ip: string | null;
}

export const clientOf = (request: FastifyRequest): Client => ({
  userAgent: request.headers['user-agent']?.slice(0, MAX_USER_AGENT) || null,
  ip: request.ip || null,
});

/** Every log-in ends here, so a deactivated account is refused in one place (after its proof was checked). */
export async function issueToken(db: DB, userId: number, client?: Client): Promise<string> {
  const user = await db.selectFrom('users').select('deactivatedAt').where('id', '=', userId).executeTakeFirst();
  if (user?.deactivatedAt) throw HttpError.of(403, 'login.deactivated');
  const token = randomToken(32);
  await db
    .insertInto('userTokens')
    .values({ userId, tokenHash: sha256(token), userAgent: client?.userAgent ?? null, ip: client?.ip ?? null })
    .execute();
  return token;
}

/** A signed-in request's session as the authenticator keeps it between reads. */
interface CachedSession {
  tokenId: number;
  userId: number;
  uid: string;
  isStaff: boolean;
  actions: ReadonlySet<string>;
}

/**
 * The sessions this process remembers for `db` (by token hash). Off until the app turns it on where every change
 * reaches it: one process on the embedded database, or processes that tell each other through Redis.
 */
export const sessionCache: (db: DB) => ReadThroughCache<string, CachedSession | null> = cachePerDatabase();

/**
 * Call after writing what a session's principal is made of (a token's revocation, a user's staff flag or
 * deactivation, group memberships, grants, action names): once `db`'s transaction commits, no process keeps a
 * session read before it. Rare writes, so every remembered session goes.
 */
export function sessionsChanged(db: DB): void {
  afterCommit(db, (root) => sessionCache(root).forgetAll());
}

export async function revokeToken(db: DB, tokenId: number): Promise<void> {
  await db.updateTable('userTokens').set({ revokedAt: new Date() }).where('id', '=', tokenId).execute();
  sessionsChanged(db);
}

export async function revokeAllTokens(db: DB, userId: number): Promise<void> {
  await db
    .updateTable('userTokens')
    .set({ revokedAt: new Date() })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .execute();
  sessionsChanged(db);
}

/** Revokes every live token of the user but `keepTokenId`; returns the ids it ended. */
export async function revokeOtherTokens(db: DB, userId: number, keepTokenId: number): Promise<number[]> {
  const rows = await db
    .updateTable('userTokens')
    .set({ revokedAt: new Date() })
    .where('userId', '=', userId)
    .where('id', '<>', keepTokenId)
    .where('revokedAt', 'is', null)
    .returning('id')
    .execute();
  sessionsChanged(db);
  return rows.map((r) => r.id);
}

/** Revokes one of the user's own live tokens; false when it is not theirs or already ended. */
export async function revokeOwnToken(db: DB, userId: number, tokenId: number): Promise<boolean> {
  const row = await db
    .updateTable('userTokens')
    .set({ revokedAt: new Date() })
    .where('id', '=', tokenId)
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .returning('id')
    .executeTakeFirst();
  sessionsChanged(db);
  return row !== undefined;
}

/** Conditions under which a stored token still opens its session. */
function live(policy: SessionPolicy) {
  return {
    idleSince: sql<Date>`now() - make_interval(secs => ${policy.idleSeconds})`,
    issuedSince: sql<Date>`now() - make_interval(secs => ${policy.maxAgeSeconds})`,
  };
}

export interface SessionView {
  id: number;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  browser: string | null;
  os: string | null;
  deviceType: string | null;
  ip: string | null;
  current: boolean;
}

/** "Chrome 124" / "Android 14" / "mobile" from a User-Agent; nulls when it names nothing known. */
function describeAgent(userAgent: string | null): Pick<SessionView, 'browser' | 'os' | 'deviceType'> {
  if (!userAgent) return { browser: null, os: null, deviceType: null };
  const parsed = Bowser.parse(userAgent);
  const named = (name?: string, version?: string) =>
    name ? [name, version?.split('.')[0]].filter(Boolean).join(' ') : null;
  return {
    browser: named(parsed.browser.name, parsed.browser.version),
    // Windows reports "NT 10.0" as its version and "10" as the name people know.
    os: named(parsed.os.name, parsed.os.name === 'Windows' ? parsed.os.versionName : parsed.os.version),
    deviceType: parsed.platform.type ?? null,
  };
}

/** The user's live sessions: the current one first, then the others most recently used first. */
export async function listSessions(
  db: DB,
  policy: SessionPolicy,
  userId: number,
  currentTokenId: number,
): Promise<SessionView[]> {
  const { idleSince, issuedSince } = live(policy);
  const rows = await db
    .selectFrom('userTokens')
    .select(['id', 'createdAt', 'lastUsedAt', 'userAgent', 'ip'])
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .where('lastUsedAt', '>', idleSince)
    .where('createdAt', '>', issuedSince)
    .orderBy('lastUsedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  const views = rows.map((r): SessionView => {
    const created = new Date(r.createdAt);
    const lastUsed = new Date(r.lastUsedAt);
    const expires = Math.min(
      lastUsed.getTime() + policy.idleSeconds * 1000,
      created.getTime() + policy.maxAgeSeconds * 1000,
    );
    return {
      id: r.id,
      createdAt: created.toISOString(),
      lastUsedAt: lastUsed.toISOString(),
      expiresAt: new Date(expires).toISOString(),
      ...describeAgent(r.userAgent),
      ip: r.ip,
      current: r.id === currentTokenId,
    };
  });
  // This device first, then the others by last use.
  return views.sort((a, b) => Number(b.current) - Number(a.current));
}

/** The actions a user holds: access's read (modules/access/holders.ts), handed over by the composition. */
export type ActionsHeldBy = (db: DB, userId: number) => Promise<string[]>;

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header);
  return match?.[1] ?? null;
}

/** How long this process trusts a session it read (bounded also by the session's own expiry). */
export const SESSION_CACHE_MS = 10_000;

export function tokenAuthenticator(db: DB, policy: SessionPolicy, actionsHeldBy: ActionsHeldBy) {
  const cache = sessionCache(db);
  const read = async (tokenHash: string) => {
    const { idleSince, issuedSince } = live(policy);
    const row = await db
      .selectFrom('userTokens')
      .innerJoin('users', 'users.id', 'userTokens.userId')
      .select([
        'userTokens.id as tokenId',
        'userTokens.lastUsedAt',
        'userTokens.createdAt',
        'users.id as userId',
        'users.uid',
        'users.isStaff',
        sql<Date>`now()`.as('now'),
      ])
      .where('userTokens.tokenHash', '=', tokenHash)
      .where('userTokens.revokedAt', 'is', null)
      .where('userTokens.lastUsedAt', '>', idleSince)
      .where('userTokens.createdAt', '>', issuedSince)
      .where('users.deactivatedAt', 'is', null)
      .executeTakeFirst();
    if (!row) return { value: null, keep: false };
    const now = new Date(row.now).getTime();
    let lastUsed = new Date(row.lastUsedAt).getTime();
    if (now - lastUsed > TOUCH_INTERVAL_MS) {
      await db
        .updateTable('userTokens')
        .set({ lastUsedAt: sql`now()` })
        .where('id', '=', row.tokenId)
        .execute();
      lastUsed = now;
    }
    const actions = row.isStaff ? await actionsHeldBy(db, row.userId) : [];
    const session: CachedSession = {
      tokenId: row.tokenId,
      userId: row.userId,
      uid: row.uid,
      isStaff: row.isStaff,
      actions: new Set(actions),
    };
    // Not kept past the moment the database would refuse it.
    const expiresAt = Math.min(
      lastUsed + policy.idleSeconds * 1000,
      new Date(row.createdAt).getTime() + policy.maxAgeSeconds * 1000,
    );
    return { value: session, maxAgeMs: expiresAt - now };
  };
  return async function authenticate(request: FastifyRequest): Promise<Principal | null> {
    const token = bearerToken(request);
    if (!token) return null;
    const tokenHash = sha256(token);
    const session = await cache.get(tokenHash, () => read(tokenHash));
    return session && { ...session };
  };
}
