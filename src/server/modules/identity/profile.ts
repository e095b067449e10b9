/**
 * The customer's profile: editable until approvedLevel reaches 1; saving a complete profile opens an
 * approveProfileAsL1Task for staff. Customers under 18 are not served (terms).
 */
import { toEnglishDigits } from '../../../shared/digits';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { findUserById, toUserDto, type UserDto } from './users-store';

export const MINIMUM_AGE_YEARS = 18;

export interface ProfileInput {
  nationalCode: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  nationalCardImageAddress: string;
}

export function ageInYears(dateOfBirth: string, today = new Date()): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  const beforeBirthday = today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

export async function updateProfile(
  db: DB,
  principal: Principal,
  input: ProfileInput,
): Promise<{ user: UserDto; createdTaskId: number | null }> {
  const nationalCode = toEnglishDigits(input.nationalCode.trim());
  const dob = input.dateOfBirth;
  if (new Date(`${dob}T00:00:00Z`).getTime() > Date.now()) throw HttpError.of(422, 'profile.dateOfBirth.future');
  if (ageInYears(dob) < MINIMUM_AGE_YEARS) throw HttpError.of(422, 'profile.underAge');

  return db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', principal.userId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) throw HttpError.of(401, 'http.unauthorized');
    if (user.approvedLevel >= 1) throw HttpError.of(422, 'profile.locked');
    const taken = await trx
      .selectFrom('users')
      .select('id')
      .where('nationalCode', '=', nationalCode)
      .where('id', '!=', user.id)
      .executeTakeFirst();
    if (taken) throw HttpError.of(422, 'profile.nationalCodeTaken');
    const card = await trx
      .selectFrom('uploads')
      .select('id')
      .where('path', '=', input.nationalCardImageAddress)
      .where('ownerUserId', '=', user.id)
      .executeTakeFirst();
    if (!card) throw HttpError.of(422, 'profile.cardImageNotYours');

    const after = {
      nationalCode,
      firstName: input.firstName.trim(),
      lastName: input.lastName.trim(),
      dateOfBirth: dob,
      nationalCardImageAddress: input.nationalCardImageAddress,
    };
    await trx
      .updateTable('users')
      .set({ ...after, profileRejectionReason: null, updatedAt: new Date() })
      .where('id', '=', user.id)
      .execute();
    const openTask = await trx
      .selectFrom('tasks')
      .select('id')
      .where('type', '=', 'approveProfileAsL1Task')
      .where('subjectUserId', '=', user.id)
      .where('state', 'in', ['open', 'claimed'])
      .executeTakeFirst();
    let createdTaskId: number | null = null;
    if (!openTask) {
      const created = await trx
        .insertInto('tasks')
        .values({ type: 'approveProfileAsL1Task', subjectUserId: user.id, payload: JSON.stringify({ level: 1 }) })
        .returning('id')
        .executeTakeFirstOrThrow();
      createdTaskId = created.id;
    }
    const before = {
      nationalCode: user.nationalCode,
      firstName: user.firstName,
      lastName: user.lastName,
      dateOfBirth: user.dateOfBirth,
      nationalCardImageAddress: user.nationalCardImageAddress,
    };
    await audit(trx, {
      actorUserId: user.id,
      action: 'updateUserData',
      entity: 'user',
      entityId: user.id,
      before,
      after,
    });
    const saved = await findUserById(trx, user.id);
    return { user: await toUserDto(trx, saved!), createdTaskId };
  });
}

/**
 * Who else holds `nationalCode`. The caller's own code reveals nothing and is not counted (the profile page
 * looks it up on every visit); any other lookup passes `limit` first, which throws when too many were made.
 */
export async function inquiryNationalCode(
  db: DB,
  principal: Principal,
  nationalCode: string,
  limit: () => Promise<void>,
): Promise<{ mobileNo: string | null } | null> {
  const owner = await db
    .selectFrom('users')
    .select(['id', 'mobileNo'])
    .where('nationalCode', '=', toEnglishDigits(nationalCode.trim()))
    .executeTakeFirst();
  if (owner?.id === principal.userId) return null;
  await limit();
  return owner ? { mobileNo: owner.mobileNo } : null;
}
