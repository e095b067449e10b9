/**
 * The customer's profile: editable until approvedLevel reaches 1; saving a complete profile opens an
 * approveProfileAsL1Task for staff. Customers under 18 are not served (terms).
 */
import { toEnglishDigits } from '../../../shared/digits';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { openTaskOnce } from '../tasks';
import { findUserById, PROFILE_REVIEW_TASK, toUserDto, type UserDto } from './users-store';

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
    // Staff review the profile in the task queue, which owns the tasks table.
    const createdTaskId = await openTaskOnce(trx, PROFILE_REVIEW_TASK, user.id, { level: 1 });
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
 * Staff verified the profile: level 1 reached, a rejection reason cleared. Locks the user's row; returns the
 * levels before and after for the reviewer's audit entry.
 */
export async function approveProfileLevel1(trx: DB, userId: number) {
  const before = await trx
    .selectFrom('users')
    .select(['approvedLevel', 'maxUnrejectedLevel'])
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const after = {
    approvedLevel: Math.max(1, before.approvedLevel),
    maxUnrejectedLevel: Math.max(1, before.maxUnrejectedLevel),
  };
  await trx
    .updateTable('users')
    .set({ ...after, profileRejectionReason: null, updatedAt: new Date() })
    .where('id', '=', userId)
    .execute();
  return { before, after };
}

/**
 * Staff rejected level 1: the highest level not yet rejected drops below it, and stays so in history; the
 * customer sees `reason`. Locks the user's row.
 */
export async function rejectProfileLevel1(trx: DB, userId: number, reason: string) {
  const before = await trx
    .selectFrom('users')
    .select(['approvedLevel', 'maxUnrejectedLevel', 'profileRejectionReason'])
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const after = { maxUnrejectedLevel: 0, profileRejectionReason: reason };
  await trx
    .updateTable('users')
    .set({ ...after, updatedAt: new Date() })
    .where('id', '=', userId)
    .execute();
  return { before, after };
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
