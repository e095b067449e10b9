/**
 * Users, groups and actions (named permissions) for administrators, and the caller's own access object: the
 * operations, each calling the service of users.ts, groups.ts or actions.ts and answering in Persian.
 */
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { balancesOf } from '../ledger';
import { getActions, removeAction, saveAction } from './actions';
import { searchAuditLog } from './audit-trail';
import { getGroups, removeGroup, saveGroup, saveGroupActions, saveGroupUsers } from './groups';
import { ADMIN_GROUP, menuFor } from './menu';
import { changeUserPassword, listUsers, removeUser, saveUser, saveUserGroups, saveUserMetaData } from './users';
import { requireUser } from './lookups';

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
  | 'removeAction'
  | 'searchAuditLog';

export function accessHandlers(db: DB, actionsUsedByContract: ReadonlySet<string>): Pick<Handlers, AccessOperation> {
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

    saveUser: async ({ body, principal }) => ok(await saveUser(db, principal, body), msg('access.saved')),

    // Deactivation, not deletion: requests, payments, tasks and the audit trail reference the user.
    removeUser: async ({ body, principal }) => ok(await removeUser(db, principal, body), msg('access.deactivated')),

    saveUserGroups: async ({ body, principal }) => ok(await saveUserGroups(db, principal, body), msg('access.saved')),

    changeUserPassword: async ({ body, principal }) =>
      ok(await changeUserPassword(db, principal, body), msg('access.passwordReset')),

    getMetaData: async ({ body }) => {
      const user = await requireUser(db, body.id);
      return ok(user.metaData as Record<string, string | number | boolean>);
    },

    saveUserMetaData: async ({ body, principal }) =>
      ok(await saveUserMetaData(db, principal, body), msg('access.saved')),

    searchAuditLog: async ({ body }) => ok(await searchAuditLog(db, body ?? {})),

    getGroups: async () => ok(await getGroups(db)),

    saveGroup: async ({ body, principal }) => ok(await saveGroup(db, principal, body), msg('access.saved')),

    removeGroup: async ({ body, principal }) => ok(await removeGroup(db, principal, body), msg('access.removed')),

    saveGroupUsers: async ({ body, principal }) => ok(await saveGroupUsers(db, principal, body), msg('access.saved')),

    saveGroupActions: async ({ body, principal }) =>
      ok(await saveGroupActions(db, principal, body), msg('access.saved')),

    getActions: async () => ok(await getActions(db, actionsUsedByContract)),

    saveAction: async ({ body, principal }) =>
      ok(await saveAction(db, principal, body, actionsUsedByContract), msg('access.saved')),

    removeAction: async ({ body, principal }) =>
      ok(await removeAction(db, principal, body, actionsUsedByContract), msg('access.removed')),
  };
}
