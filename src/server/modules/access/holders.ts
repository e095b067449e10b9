/**
 * Who holds which staff action, read from access's own tables (groups, their actions and members): the one place
 * other modules learn it. Modules below access on the floors (identity, notifications) are handed these functions
 * by the composition (app.ts) as ports.
 */
import { type Kysely, sql } from 'kysely';
import type { DB as Database } from '../../../generated/db';

/** The active staff who hold `action` through a group. */
export async function staffHolding(db: Kysely<Database>, action: string): Promise<number[]> {
  const rows = await db
    .selectFrom('groupActions')
    .innerJoin('actions', 'actions.id', 'groupActions.actionId')
    .innerJoin('groupUsers', 'groupUsers.groupId', 'groupActions.groupId')
    .innerJoin('users', 'users.id', 'groupUsers.userId')
    .select(sql<number>`distinct users.id`.as('id'))
    .where('actions.name', '=', action)
    .where('users.isStaff', '=', true)
    .where('users.deactivatedAt', 'is', null)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** The actions `userId` holds through their groups, sorted (whether they are staff is the caller's question). */
export async function actionsHeldBy(db: Kysely<Database>, userId: number): Promise<string[]> {
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
