/**
 * Rules that keep the staff area usable: an administrator cannot lock themselves out, and the administrators
 * group always has an active staff member and the action that manages access. Changes that could break them
 * run under one advisory lock, apply themselves, then check the result before their transaction commits.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { ADMIN_GROUP } from './menu';

const ACCESS_LOCK = 724_010;
export const MANAGE_ACCESS = 'manageAccess';

/** Serialises changes to staff flags, activity and memberships, so two of them cannot each remove "another" admin. */
export async function lockAccessChanges(trx: DB): Promise<void> {
  await sql`select pg_advisory_xact_lock(${ACCESS_LOCK})`.execute(trx);
}

/** Call after applying a change, inside its transaction: refuses it when no active administrator is left. */
export async function assertAdministratorRemains(trx: DB): Promise<void> {
  const row = await trx
    .selectFrom('groupUsers')
    .innerJoin('groups', 'groups.id', 'groupUsers.groupId')
    .innerJoin('users', 'users.id', 'groupUsers.userId')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('groups.name', '=', ADMIN_GROUP)
    .where('users.isStaff', '=', true)
    .where('users.deactivatedAt', 'is', null)
    .executeTakeFirstOrThrow();
  if (row.n === 0) throw HttpError.of(422, 'access.lastAdmin');
}

export const isAdminGroup = (group: { name: string }) => group.name === ADMIN_GROUP;
