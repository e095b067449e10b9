/** A user or group an administrator names, or a 404 in Persian. */
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';

export async function requireUser(db: DB, id: number) {
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!user) throw HttpError.of(404, 'access.userNotFound');
  return user;
}

export async function requireGroup(db: DB, id: number) {
  const group = await db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
  if (!group) throw HttpError.of(404, 'access.groupNotFound');
  return group;
}
