/** Users, groups and actions (named permissions) for administrators; the caller's own access object. */
import type { components } from '../../../generated/api';
import type { Handlers, Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError, ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import { hashPassword } from '../../lib/crypto';
import { revokeAllTokens, sessionsChanged } from '../identity/tokens';
import { createAccount, updateAccount } from '../identity/accounts';
import { balancesOf } from '../ledger/service';
import { displayName } from '../../lib/person-names';
import { assertAdministratorRemains, isAdminGroup, lockAccessChanges, MANAGE_ACCESS } from './guards';
import { GROUP_ACTIONS, GROUP_USERS, replaceJoinRows, USER_GROUPS } from './join-rows';
import { ADMIN_GROUP, menuFor } from './menu';
import { type ListEnvelope, listOf, type PageQuery, pageOf } from '../../lib/paging';
import { containsText } from '../../lib/sql';
import { canonicalMobile } from '../../../shared/mobile';
import { toEnglishDigits } from '../../../shared/digits';

type UserSummary = components['schemas']['UserSummary'];

type AccessOperation =
  | 'getUserAccess'
  | 'getPolicy'
  | 'getUsers'
  | 'searchUsers'
  | 'searchCustomers'
  | 'saveUser'
  | 'removeUser'
  | 'saveUserGroups'
  | 'changeUserPassword'
  | 'getMetaData'
  | 'saveUserMetaData'
  | 'getGroups'
  | 'saveGroup'
  | 'removeGroup'
  | 'saveGroupUsers'
  | 'saveGroupActions'
  | 'getActions'
  | 'saveAction'
  | 'removeAction';

async function listUsers(
  db: DB,
  filter: PageQuery & { isStaff?: boolean | undefined; search?: string | undefined },
): Promise<ListEnvelope<UserSummary>> {
  let q = db.selectFrom('users');
  if (filter.isStaff !== undefined) q = q.where('isStaff', '=', filter.isStaff);
  if (filter.search) {
    const term = filter.search;
    // Stored numbers are canonical: a whole number in any spelling finds its user, and a part typed
    // in Persian digits matches too.
    const mobile = canonicalMobile(term);
    q = q.where((eb) =>
      eb.or([
        ...(mobile ? [eb('mobileNo', '=', mobile)] : []),
        containsText(eb, ['mobileNo'], toEnglishDigits(term.trim())),
        containsText(eb, ['firstName', 'lastName', 'nationalCode', 'email'], term),
      ]),
    );
  }
  const { items: rows, total } = await pageOf(q, filter, (x) => x.selectAll().orderBy('id', 'desc'));
  const memberships = rows.length
    ? await db
        .selectFrom('groupUsers')
        .select(['userId', 'groupId'])
        .where(
          'userId',
          'in',
          rows.map((r) => r.id),
        )
        .execute()
    : [];
  return {
    total,
    items: rows.map((u) => ({
      id: u.id,
      uid: u.uid,
      name: displayName(u),
      mobileNo: u.mobileNo,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      isStaff: u.isStaff,
      isActive: u.deactivatedAt === null,
      approvedLevel: u.approvedLevel,
      groups: memberships.filter((m) => m.userId === u.id).map((m) => m.groupId),
      createdAt: new Date(u.createdAt).toISOString(),
    })),
  };
}

async function requireUser(db: DB, id: number) {
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!user) throw HttpError.of(404, 'access.userNotFound');
  return user;
}

async function requireGroup(db: DB, id: number) {
  const group = await db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
  if (!group) throw HttpError.of(404, 'access.groupNotFound');
  return group;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

export function accessHandlers(db: DB, actionsUsedByContract: ReadonlySet<string>): Pick<Handlers, AccessOperation> {
  const actor = (p: Principal | null) => p?.userId ?? null;

  return {
    getUserAccess: async ({ principal }) => {
      const p = principal!;
      const groups = await db
        .selectFrom('groupUsers')
        .innerJoin('groups', 'groups.id', 'groupUsers.groupId')
        .select('groups.name')
        .where('groupUsers.userId', '=', p.userId)
        .execute();
      const groupNames = groups.map((g) => g.name);
      const isAdmin = p.isStaff && groupNames.includes(ADMIN_GROUP);
      const actions = [...p.actions].sort();
      return ok({
        ...menuFor(actions),
        role: isAdmin ? ('admin' as const) : p.isStaff ? ('staff' as const) : ('customer' as const),
        is_admin: isAdmin,
        is_staff: p.isStaff,
        actions,
        groups: groupNames,
      });
    },

    getPolicy: async ({ body, principal }) =>
      ok({ permission: Boolean(principal?.isStaff && principal.actions.has(body.action)), action: body.action }),

    getUsers: async () => ok(await listUsers(db, { isStaff: true, perPage: 500 })),

    searchUsers: async ({ body }) => ok(await listUsers(db, body ?? {})),

    searchCustomers: async ({ body }) => {
      const customers = await listUsers(db, { ...(body ?? {}), isStaff: false });
      const balances = await balancesOf(
        db,
        customers.items.map((c) => c.id),
      );
      return ok({
        total: customers.total,
        items: customers.items.map((c) => ({ ...c, ...(balances.get(c.id) ?? { balance: 0, reserved: 0 }) })),
      });
    },

    saveUser: async ({ body, principal }) => {
      const mobileNo = canonicalMobile(body.mobileNo);
      if (!mobileNo) throw HttpError.of(400, 'login.mobileNo.invalid');
      const self = body.id !== undefined && body.id === principal!.userId;
      if (self && !body.isStaff) throw HttpError.of(422, 'access.cannotDemoteSelf');
      if (self && body.isActive === false) throw HttpError.of(422, 'access.cannotRemoveSelf');
      if (self && body.password) throw HttpError.of(422, 'access.ownPassword');
      // Left out on edit: unchanged. Empty names are stored as null.
      const values = {
        mobileNo,
        isStaff: body.isStaff,
        ...(body.email !== undefined ? { email: body.email ? body.email.toLowerCase() : null } : {}),
        ...(body.firstName !== undefined ? { firstName: body.firstName.trim() || null } : {}),
        ...(body.lastName !== undefined ? { lastName: body.lastName.trim() || null } : {}),
        ...(body.password ? { passwordHash: await hashPassword(body.password) } : {}),
      };
      try {
        return await db.transaction().execute(async (trx) => {
          if (body.id !== undefined) {
            await lockAccessChanges(trx);
            const before = await requireUser(trx, body.id);
            const wasActive = before.deactivatedAt === null;
            const active = body.isActive ?? wasActive;
            await updateAccount(trx, body.id, {
              ...values,
              ...(active !== wasActive ? { deactivatedAt: active ? null : new Date() } : {}),
            });
            // A deactivated account or a new password ends every session of the user.
            if ((!active && wasActive) || body.password) await revokeAllTokens(trx, body.id);
            await assertAdministratorRemains(trx);
            const shown = (u: {
              mobileNo: string | null;
              email?: string | null;
              firstName?: string | null;
              lastName?: string | null;
              isStaff: boolean;
            }) => ({
              mobileNo: u.mobileNo,
              email: u.email,
              firstName: u.firstName,
              lastName: u.lastName,
              isStaff: u.isStaff,
            });
            await audit(trx, {
              actorUserId: actor(principal),
              action: 'saveUser',
              entity: 'user',
              entityId: body.id,
              before: { ...shown(before), isActive: wasActive },
              after: { ...shown({ ...before, ...values }), isActive: active, passwordChanged: Boolean(body.password) },
            });
            return ok({ id: body.id }, msg('access.saved'));
          }
          const createdId = await createAccount(trx, {
            ...values,
            ...(body.isActive === false ? { deactivatedAt: new Date() } : {}),
          });
          await audit(trx, {
            actorUserId: actor(principal),
            action: 'saveUser',
            entity: 'user',
            entityId: createdId,
            after: {
              mobileNo: values.mobileNo,
              email: values.email ?? null,
              firstName: values.firstName ?? null,
              lastName: values.lastName ?? null,
              isStaff: values.isStaff,
              isActive: body.isActive !== false,
            },
          });
          return ok({ id: createdId }, msg('access.saved'));
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw HttpError.of(409, 'access.mobileTaken');
        throw error;
      }
    },

    // Deactivation, not deletion: requests, payments, tasks and the audit trail reference the user.
    removeUser: async ({ body, principal }) => {
      if (body.id === principal!.userId) throw HttpError.of(422, 'access.cannotRemoveSelf');
      await db.transaction().execute(async (trx) => {
        await lockAccessChanges(trx);
        const before = await requireUser(trx, body.id);
        await updateAccount(trx, body.id, { deactivatedAt: before.deactivatedAt ?? new Date() });
        await revokeAllTokens(trx, body.id);
        await assertAdministratorRemains(trx);
        await audit(trx, {
          actorUserId: actor(principal),
          action: 'removeUser',
          entity: 'user',
          entityId: body.id,
          before: { isActive: before.deactivatedAt === null },
          after: { isActive: false },
        });
      });
      return ok(null, msg('access.deactivated'));
    },

    saveUserGroups: async ({ body, principal }) => {
      await db.transaction().execute(async (trx) => {
        await lockAccessChanges(trx);
        await requireUser(trx, body.id);
        const groups = [...new Set(body.groups)];
        for (const groupId of groups) await requireGroup(trx, groupId);
        await replaceJoinRows(trx, USER_GROUPS, body.id, groups, {
          actorUserId: actor(principal),
          action: 'saveUserGroups',
        });
        await assertAdministratorRemains(trx);
      });
      return ok(null, msg('access.saved'));
    },

    changeUserPassword: async ({ body, principal }) => {
      // One's own password needs the current one (api/me/changePassword): a stolen token must not be enough.
      if (body.id === principal!.userId) throw HttpError.of(422, 'access.ownPassword');
      const passwordHash = await hashPassword(body.password);
      await db.transaction().execute(async (trx) => {
        await requireUser(trx, body.id);
        await updateAccount(trx, body.id, { passwordHash });
        await revokeAllTokens(trx, body.id);
        await audit(trx, {
          actorUserId: actor(principal),
          action: 'changePassword',
          entity: 'user',
          entityId: body.id,
        });
      });
      return ok(null, msg('access.passwordReset'));
    },

    getMetaData: async ({ body }) => {
      const user = await requireUser(db, body.id);
      return ok(user.metaData as Record<string, string | number | boolean>);
    },

    saveUserMetaData: async ({ body, principal }) => {
      const before = await requireUser(db, body.id);
      await updateAccount(db, body.id, { metaData: body.metaData });
      await audit(db, {
        actorUserId: actor(principal),
        action: 'saveUserMetaData',
        entity: 'user',
        entityId: body.id,
        before: before.metaData,
        after: body.metaData,
      });
      return ok(null, msg('access.saved'));
    },

    getGroups: async () => {
      const [groups, members, grants] = await Promise.all([
        db.selectFrom('groups').selectAll().orderBy('id').execute(),
        db.selectFrom('groupUsers').selectAll().execute(),
        db.selectFrom('groupActions').selectAll().execute(),
      ]);
      return ok(
        listOf(
          groups.map((g) => ({
            ...g,
            users: members.filter((m) => m.groupId === g.id).map((m) => m.userId),
            actions: grants.filter((a) => a.groupId === g.id).map((a) => a.actionId),
          })),
        ),
      );
    },

    saveGroup: async ({ body, principal }) => {
      try {
        if (body.id !== undefined) {
          const before = await requireGroup(db, body.id);
          if (isAdminGroup(before) && body.name !== before.name) throw HttpError.of(422, 'access.adminGroupRename');
          await db
            .updateTable('groups')
            .set({ name: body.name, title: body.title })
            .where('id', '=', body.id)
            .execute();
          await audit(db, {
            actorUserId: actor(principal),
            action: 'saveGroup',
            entity: 'group',
            entityId: body.id,
            before,
            after: body,
          });
          return ok({ id: body.id }, msg('access.saved'));
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
        return ok({ id: created.id }, msg('access.saved'));
      } catch (error) {
        if (isUniqueViolation(error)) throw HttpError.of(409, 'access.duplicateName');
        throw error;
      }
    },

    removeGroup: async ({ body, principal }) => {
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
      return ok(null, msg('access.removed'));
    },

    saveGroupUsers: async ({ body, principal }) => {
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
      return ok(null, msg('access.saved'));
    },

    saveGroupActions: async ({ body, principal }) => {
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
      return ok(null, msg('access.saved'));
    },

    getActions: async () => {
      const actions = await db.selectFrom('actions').selectAll().orderBy('id').execute();
      return ok(listOf(actions.map((a) => ({ ...a, usedByContract: actionsUsedByContract.has(a.name) }))));
    },

    saveAction: async ({ body, principal }) => {
      try {
        if (body.id !== undefined) {
          const before = await db.selectFrom('actions').selectAll().where('id', '=', body.id).executeTakeFirst();
          if (!before) throw HttpError.of(404, 'access.actionNotFound');
          // The contract refers to actions by name; renaming one it uses would lock everybody out.
          if (before.name !== body.name && actionsUsedByContract.has(before.name)) {
            throw HttpError.of(422, 'access.actionInUse');
          }
          await db
            .updateTable('actions')
            .set({ name: body.name, title: body.title, description: body.description ?? '' })
            .where('id', '=', body.id)
            .execute();
          sessionsChanged(db);
          await audit(db, {
            actorUserId: actor(principal),
            action: 'saveAction',
            entity: 'action',
            entityId: body.id,
            before,
            after: body,
          });
          return ok({ id: body.id }, msg('access.saved'));
        }
        const created = await db
          .insertInto('actions')
          .values({ name: body.name, title: body.title, description: body.description ?? '' })
          .returning('id')
          .executeTakeFirstOrThrow();
        await audit(db, {
          actorUserId: actor(principal),
          action: 'saveAction',
          entity: 'action',
          entityId: created.id,
          after: body,
        });
        return ok({ id: created.id }, msg('access.saved'));
      } catch (error) {
        if (isUniqueViolation(error)) throw HttpError.of(409, 'access.duplicateName');
        throw error;
      }
    },

    removeAction: async ({ body, principal }) => {
      await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('actions').selectAll().where('id', '=', body.id).executeTakeFirst();
        if (!before) throw HttpError.of(404, 'access.actionNotFound');
        if (actionsUsedByContract.has(before.name)) throw HttpError.of(422, 'access.actionInUse');
        const groups = await trx.selectFrom('groupActions').select('groupId').where('actionId', '=', body.id).execute();
        // Grants go with the action (on delete cascade); the audit entry keeps which groups had it.
        await trx.deleteFrom('actions').where('id', '=', body.id).execute();
        sessionsChanged(trx);
        await audit(trx, {
          actorUserId: actor(principal),
          action: 'removeAction',
          entity: 'action',
          entityId: body.id,
          before: { ...before, groups: groups.map((g) => g.groupId) },
        });
      });
      return ok(null, msg('access.removed'));
    },
  };
}
