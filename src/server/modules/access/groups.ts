/**
 * Staff groups (manageAccess): listed with their members and actions, saved, removed, and their members and
 * actions replaced. The administrators' group keeps its name, cannot be removed and keeps manageAccess.
 */
import type { Handlers, Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { listOf } from '../../lib/paging';
import { sessionsChanged } from '../identity';
import { assertAdministratorRemains, isAdminGroup, lockAccessChanges, MANAGE_ACCESS } from './guards';
import { GROUP_ACTIONS, GROUP_USERS, replaceJoinRows } from './join-rows';
import { requireGroup, requireUser } from './lookups';

type Body<K extends keyof Handlers> = NonNullable<Parameters<Handlers[K]>[0]['body']>;
const actor = (p: Principal | null) => p?.userId ?? null;
const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

export async function getGroups(db: DB) {
  const [groups, members, grants] = await Promise.all([
    db.selectFrom('groups').selectAll().orderBy('id').execute(),
    db.selectFrom('groupUsers').selectAll().execute(),
    db.selectFrom('groupActions').selectAll().execute(),
  ]);
  return listOf(
    groups.map((g) => ({
      ...g,
      users: members.filter((m) => m.groupId === g.id).map((m) => m.userId),
      actions: grants.filter((a) => a.groupId === g.id).map((a) => a.actionId),
    })),
  );
}

export async function saveGroup(db: DB, principal: Principal | null, body: Body<'saveGroup'>) {
  try {
    if (body.id !== undefined) {
      const before = await requireGroup(db, body.id);
      if (isAdminGroup(before) && body.name !== before.name) throw HttpError.of(422, 'access.adminGroupRename');
      await db.updateTable('groups').set({ name: body.name, title: body.title }).where('id', '=', body.id).execute();
      await audit(db, {
        actorUserId: actor(principal),
        action: 'saveGroup',
        entity: 'group',
        entityId: body.id,
        before,
        after: body,
      });
      return { id: body.id };
    }
    const created = await db
      .insertInto('groups')
      .values({ name: body.name, title: body.title })
      .returning('id')
      .executeTakeFirstOrThrow();
    await audit(db, {
      actorUserId: actor(principal),
      action: 'saveGroup',
      entity: 'group',
      entityId: created.id,
      after: body,
    });
    return { id: created.id };
  } catch (error) {
    if (isUniqueViolation(error)) throw HttpError.of(409, 'access.duplicateName');
    throw error;
  }
}

export async function removeGroup(db: DB, principal: Principal | null, body: Body<'removeGroup'>) {
  await db.transaction().execute(async (trx) => {
    const before = await requireGroup(trx, body.id);
    if (isAdminGroup(before)) throw HttpError.of(422, 'access.adminGroupNotRemovable');
    const [users, actions] = await Promise.all([
      trx.selectFrom('groupUsers').select('userId').where('groupId', '=', body.id).execute(),
      trx.selectFrom('groupActions').select('actionId').where('groupId', '=', body.id).execute(),
    ]);
    // Memberships and grants go with the group (on delete cascade); the audit entry keeps them.
    await trx.deleteFrom('groups').where('id', '=', body.id).execute();
    sessionsChanged(trx);
    await audit(trx, {
      actorUserId: actor(principal),
      action: 'removeGroup',
      entity: 'group',
      entityId: body.id,
      before: { ...before, users: users.map((u) => u.userId), actions: actions.map((a) => a.actionId) },
    });
  });
  return null;
}

export async function saveGroupUsers(db: DB, principal: Principal | null, body: Body<'saveGroupUsers'>) {
  await db.transaction().execute(async (trx) => {
    await lockAccessChanges(trx);
    await requireGroup(trx, body.id);
    const users = [...new Set(body.users)];
    for (const userId of users) await requireUser(trx, userId);
    await replaceJoinRows(trx, GROUP_USERS, body.id, users, {
      actorUserId: actor(principal),
      action: 'saveGroupUsers',
    });
    await assertAdministratorRemains(trx);
  });
  return null;
}

export async function saveGroupActions(db: DB, principal: Principal | null, body: Body<'saveGroupActions'>) {
  await db.transaction().execute(async (trx) => {
    const group = await requireGroup(trx, body.id);
    const actions = [...new Set(body.actions)];
    const known = actions.length
      ? await trx.selectFrom('actions').select(['id', 'name']).where('id', 'in', actions).execute()
      : [];
    if (known.length !== actions.length) throw HttpError.of(404, 'access.actionNotFound');
    if (isAdminGroup(group) && !known.some((a) => a.name === MANAGE_ACCESS)) {
      throw HttpError.of(422, 'access.adminGroupNeedsManageAccess');
    }
    await replaceJoinRows(trx, GROUP_ACTIONS, body.id, actions, {
      actorUserId: actor(principal),
      action: 'saveGroupActions',
    });
  });
  return null;
}
