/** Opaque bearer tokens: random, stored only as a SHA-256 hash, revocable, with a last-use time. */
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { randomToken, sha256 } from '../../lib/crypto';

/** last_used_at is refreshed at most this often, so reads do not write on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export async function issueToken(db: DB, userId: number): Promise<string> {
  const token = randomToken(32);
  await db
    .insertInto('userTokens')
    .values({ userId, tokenHash: sha256(token) })
    .execute();
  return token;
}

export async function revokeToken(db: DB, tokenId: number): Promise<void> {
  await db.updateTable('userTokens').set({ revokedAt: new Date() }).where('id', '=', tokenId).execute();
}

export async function revokeAllTokens(db: DB, userId: number): Promise<void> {
  await db
    .updateTable('userTokens')
    .set({ revokedAt: new Date() })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .execute();
}

export async function actionsOf(db: DB, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('groupUsers')
    .innerJoin('groupActions', 'groupActions.groupId', 'groupUsers.groupId')
    .innerJoin('actions', 'actions.id', 'groupActions.actionId')
    .select('actions.name')
    .distinct()
    .where('groupUsers.userId', '=', userId)
    .execute();
  return rows.map((r) => r.name).sort();
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header);
  return match?.[1] ?? null;
}

export function tokenAuthenticator(db: DB) {
  return async function authenticate(request: FastifyRequest): Promise<Principal | null> {
    const token = bearerToken(request);
    if (!token) return null;
    const row = await db
      .selectFrom('userTokens')
      .innerJoin('users', 'users.id', 'userTokens.userId')
      .select(['userTokens.id as tokenId', 'userTokens.lastUsedAt', 'users.id as userId', 'users.uid', 'users.isStaff'])
      .where('userTokens.tokenHash', '=', sha256(token))
      .where('userTokens.revokedAt', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    if (Date.now() - new Date(row.lastUsedAt).getTime() > TOUCH_INTERVAL_MS) {
      await db
        .updateTable('userTokens')
        .set({ lastUsedAt: sql`now()` })
        .where('id', '=', row.tokenId)
        .execute();
    }
    const actions = row.isStaff ? await actionsOf(db, row.userId) : [];
    return { userId: row.userId, uid: row.uid, isStaff: row.isStaff, actions: new Set(actions), tokenId: row.tokenId };
  };
}
