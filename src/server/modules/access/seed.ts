/**
 * Seeds the action catalogue, the administrators group holding every action, and one administrator (the
 * account itself through identity, which owns users).
 * The administrator's password comes from ADMIN_PASSWORD; without it a random one is generated and
 * returned once, on the start that creates the account, for the caller to print.
 */

import { sql } from 'kysely';
import actionCatalogue from '../../../../schemas/access/actions.json' with { type: 'json' };
import type { DB } from '../../db/database';
import { hashPassword, randomToken } from '../../lib/crypto';
import { ensureAdministratorAccount } from '../identity';
import { ADMIN_GROUP } from './menu';

export async function seedAccess(
  db: DB,
  admin: { username: string; password: string | undefined },
): Promise<{ generatedPassword: string | null }> {
  const passwordHash = admin.password ? await hashPassword(admin.password) : null;
  const generated = admin.password ? null : randomToken(12);
  const generatedHash = generated ? await hashPassword(generated) : null;
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(724003)`.execute(trx);
    for (const action of actionCatalogue.actions) {
      await trx
        .insertInto('actions')
        .values(action)
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    }
    await trx
      .insertInto('groups')
      .values({ name: ADMIN_GROUP, title: 'مدیران سیستم' })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const group = await trx.selectFrom('groups').select('id').where('name', '=', ADMIN_GROUP).executeTakeFirstOrThrow();
    await sql`insert into group_actions (group_id, action_id)
      select ${group.id}, id from actions on conflict do nothing`.execute(trx);

    const { userId, created } = await ensureAdministratorAccount(trx, {
      mobileNo: admin.username,
      passwordHash,
      initialPasswordHash: generatedHash,
    });
    await trx
      .insertInto('groupUsers')
      .values({ groupId: group.id, userId })
      .onConflict((oc) => oc.columns(['groupId', 'userId']).doNothing())
      .execute();
    return { generatedPassword: created ? generated : null };
  });
}
