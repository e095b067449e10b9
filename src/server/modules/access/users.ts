/**
 * Accounts as administrators manage them (manageAccess): the user and customer lists, creating and editing a user,
 * deactivating one, their groups, password and metadata. The rows are identity's (accounts.ts writes them); every
 * change is audit-logged, and none may leave the administrators' group without an active administrator.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api';
import type { Handlers, Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { hashPassword } from '../../lib/crypto';
import { type ListEnvelope, type PageQuery, pageOf } from '../../lib/paging';
import { displayName } from '../../lib/person-names';
import { containsText } from '../../lib/sql';
import { toEnglishDigits } from '../../../shared/digits';
import { canonicalMobile } from '../../../shared/mobile';
import { createAccount, revokeAllTokens, updateAccount } from '../identity';
import { notify } from '../notifications';
import { requireGroup, requireUser } from './lookups';
import { assertAdministratorRemains, lockAccessChanges } from './guards';
import { replaceJoinRows, USER_GROUPS } from './join-rows';

type UserSummary = components['schemas']['UserSummary'];
type Body<K extends keyof Handlers> = NonNullable<Parameters<Handlers[K]>[0]['body']>;
const actor = (p: Principal | null) => p?.userId ?? null;
const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

export async function listUsers(
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

export async function saveUser(db: DB, principal: Principal | null, body: Body<'saveUser'>) {
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
        return { id: body.id };
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
      return { id: createdId };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw HttpError.of(409, 'access.mobileTaken');
    throw error;
  }
}

export async function removeUser(db: DB, principal: Principal | null, body: Body<'removeUser'>) {
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
  return null;
}

export async function saveUserGroups(db: DB, principal: Principal | null, body: Body<'saveUserGroups'>) {
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
  return null;
}

export async function changeUserPassword(db: DB, principal: Principal | null, body: Body<'changeUserPassword'>) {
  // One's own password needs the current one (api/me/changePassword): a stolen token must not be enough.
  if (body.id === principal!.userId) throw HttpError.of(422, 'access.ownPassword');
  const passwordHash = await hashPassword(body.password);
  await db.transaction().execute(async (trx) => {
    await requireUser(trx, body.id);
    await updateAccount(trx, body.id, { passwordHash });
    await revokeAllTokens(trx, body.id);
    // The person is told, as when they change it themselves (a security notice: always sent).
    await notify(trx, { userId: body.id, kind: 'passwordChanged', eventKey: `password:${randomUUID()}` });
    await audit(trx, {
      actorUserId: actor(principal),
      action: 'changePassword',
      entity: 'user',
      entityId: body.id,
    });
  });
  return null;
}

export async function saveUserMetaData(db: DB, principal: Principal | null, body: Body<'saveUserMetaData'>) {
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
  return null;
}
