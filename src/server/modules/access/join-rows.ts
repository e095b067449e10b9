/**
 * Replacing one side of a many-to-many join and auditing it: a user's groups, a group's users, a group's
 * actions. The caller checks the ids, holds the transaction and any lock, and runs its own checks after.
 */
import type { AuditAction } from '../../../shared/audit/names';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database';
import { audit } from '../../lib/audit';
import { sessionsChanged } from '../identity';

/** One side of a join table: the rows whose `owner` column holds the owner's id list its members in `member`. */
export interface JoinSide {
  table: 'groupUsers' | 'groupActions';
  owner: 'userId' | 'groupId';
  member: 'groupId' | 'userId' | 'actionId';
  /** The audit entry's entity: what the owner id names. */
  entity: 'user' | 'group';
}

export const USER_GROUPS = { table: 'groupUsers', owner: 'userId', member: 'groupId', entity: 'user' } as const;
export const GROUP_USERS = { table: 'groupUsers', owner: 'groupId', member: 'userId', entity: 'group' } as const;
export const GROUP_ACTIONS = { table: 'groupActions', owner: 'groupId', member: 'actionId', entity: 'group' } as const;

/** The join tables hold two id columns each; a table picked at run time is typed loosely. */
type JoinTables = Kysely<Record<JoinSide['table'], Record<string, number>>>;

/** Makes `memberIds` (distinct) the owner's whole list, and audits the list before and after. */
export async function replaceJoinRows(
  trx: DB,
  side: JoinSide,
  ownerId: number,
  memberIds: readonly number[],
  by: { actorUserId: number | null; action: AuditAction },
): Promise<void> {
  const db = trx as unknown as JoinTables;
  const before = await db.selectFrom(side.table).select(side.member).where(side.owner, '=', ownerId).execute();
  await db.deleteFrom(side.table).where(side.owner, '=', ownerId).execute();
  if (memberIds.length) {
    await db
      .insertInto(side.table)
      .values(memberIds.map((id) => ({ [side.owner]: ownerId, [side.member]: id })))
      .execute();
  }
  // A staff member's actions come from their groups' grants.
  sessionsChanged(trx);
  await audit(trx, {
    actorUserId: by.actorUserId,
    action: by.action,
    entity: side.entity,
    entityId: ownerId,
    before: before.map((row) => row[side.member]),
    after: memberIds,
  });
}
