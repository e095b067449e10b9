/**
 * Accounts: identity is the only writer of `users` (docs/architecture.md, table owners). Other modules change
 * a user through these functions; each takes the database or a transaction first, so a caller can run several
 * of them, and its own writes, in one transaction. Profile levels change only through profile.ts.
 */
import type { DB } from '../../db/database';
import { sessionsChanged } from './tokens';
import { newUid } from './users-store';

/** What staff screens and the account's owner may set on an account. Left out: unchanged. */
export interface AccountFields {
  mobileNo?: string | null;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  isStaff?: boolean;
  passwordHash?: string | null;
  /** Null while active; set when the account is deactivated (it can no longer log in). */
  deactivatedAt?: Date | null;
  metaData?: Record<string, unknown>;
}

const stored = ({ metaData, ...fields }: AccountFields) => ({
  ...fields,
  ...(metaData !== undefined ? { metaData: JSON.stringify(metaData) } : {}),
});

/** A new account with a fresh uid; returns its id. */
export async function createAccount(db: DB, fields: AccountFields): Promise<number> {
  const created = await db
    .insertInto('users')
    .values({ uid: newUid(), ...stored(fields) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}

/** Sets the given fields and `updatedAt`. */
export async function updateAccount(db: DB, userId: number, fields: AccountFields): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...stored(fields), updatedAt: new Date() })
    .where('id', '=', userId)
    .execute();
  // The staff flag and deactivation are part of a signed-in principal.
  sessionsChanged(db);
}

/**
 * The administrator seeded at start: an existing account on `mobileNo` is made staff (and given `passwordHash`
 * when there is one); otherwise one is created, verified (level 1), with `passwordHash ?? initialPasswordHash`.
 */
export async function ensureAdministratorAccount(
  db: DB,
  admin: { mobileNo: string; passwordHash: string | null; initialPasswordHash: string | null },
): Promise<{ userId: number; created: boolean }> {
  const existing = await db.selectFrom('users').select('id').where('mobileNo', '=', admin.mobileNo).executeTakeFirst();
  if (existing) {
    await db
      .updateTable('users')
      .set({ isStaff: true, ...(admin.passwordHash ? { passwordHash: admin.passwordHash } : {}) })
      .where('id', '=', existing.id)
      .execute();
    sessionsChanged(db);
    return { userId: existing.id, created: false };
  }
  const row = await db
    .insertInto('users')
    .values({
      uid: newUid(),
      mobileNo: admin.mobileNo,
      firstName: 'مدیر',
      lastName: 'سیستم',
      isStaff: true,
      approvedLevel: 1,
      passwordHash: admin.passwordHash ?? admin.initialPasswordHash,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: row.id, created: true };
}
