/**
 * Named actions (the permissions the contract's `x-access` names): listed with whether the contract uses each,
 * saved and removed; an action the contract uses cannot be renamed or removed (it would lock everybody out).
 */
import type { Handlers, Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { listOf } from '../../lib/paging';
import { sessionsChanged } from '../identity';

type Body<K extends keyof Handlers> = NonNullable<Parameters<Handlers[K]>[0]['body']>;
const actor = (p: Principal | null) => p?.userId ?? null;
const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

export async function getActions(db: DB, actionsUsedByContract: ReadonlySet<string>) {
  const actions = await db.selectFrom('actions').selectAll().orderBy('id').execute();
  return listOf(actions.map((a) => ({ ...a, usedByContract: actionsUsedByContract.has(a.name) })));
}

export async function saveAction(
  db: DB,
  principal: Principal | null,
  body: Body<'saveAction'>,
  actionsUsedByContract: ReadonlySet<string>,
) {
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
      return { id: body.id };
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
    return { id: created.id };
  } catch (error) {
    if (isUniqueViolation(error)) throw HttpError.of(409, 'access.duplicateName');
    throw error;
  }
}

export async function removeAction(
  db: DB,
  principal: Principal | null,
  body: Body<'removeAction'>,
  actionsUsedByContract: ReadonlySet<string>,
) {
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
  return null;
}
