/** Reading and creating users, and shaping them as the contract's User. */
import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB } from '../../db/database';
import type { DB as Database, Users } from '../../../generated/db';
import { randomToken } from '../../lib/crypto';
import { displayName, fullNameOf } from '../../lib/person-names';
import { findPendingTask } from '../tasks';

export type UserDto = components['schemas']['User'];
export type UserRow = Selectable<Users>;

export const PRODUCT_CATEGORIES = ['educational', 'internationalExams', 'embassies', 'googleAds', 'others'] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

export const newUid = () => randomToken(9);

/** The task type that asks staff to verify a profile (level 1). */
export const PROFILE_REVIEW_TASK = 'approveProfileAsL1Task';

export async function findUserById(db: Kysely<Database>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findOrCreateByMobile(db: Kysely<Database>, mobileNo: string): Promise<UserRow> {
  const existing = await db.selectFrom('users').selectAll().where('mobileNo', '=', mobileNo).executeTakeFirst();
  if (existing) return existing;
  await db
    .insertInto('users')
    .values({ uid: newUid(), mobileNo })
    .onConflict((oc) => oc.column('mobileNo').doNothing())
    .execute();
  return db.selectFrom('users').selectAll().where('mobileNo', '=', mobileNo).executeTakeFirstOrThrow();
}

export async function toUserDto(db: Kysely<Database>, user: UserRow): Promise<UserDto> {
  const [approvals, pending] = await Promise.all([
    db.selectFrom('userPolicyApprovals').select('productCategory').where('userId', '=', user.id).execute(),
    findPendingTask(db, PROFILE_REVIEW_TASK, user.id),
  ]);
  const approved = new Set(approvals.map((a) => a.productCategory));
  return {
    id: user.id,
    uid: user.uid,
    name: displayName(user),
    email: user.email,
    mobileNo: user.mobileNo,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: fullNameOf(user),
    nationalCode: user.nationalCode,
    dateOfBirth: user.dateOfBirth,
    nationalCardImageAddress: user.nationalCardImageAddress,
    approvedLevel: user.approvedLevel,
    maxUnrejectedLevel: user.maxUnrejectedLevel,
    profileRejectionReason: user.profileRejectionReason,
    profileReviewPending: pending !== undefined,
    educationalPolicyApproved: approved.has('educational'),
    internationalExamsPolicyApproved: approved.has('internationalExams'),
    embassiesPolicyApproved: approved.has('embassies'),
    googleAdsPolicyApproved: approved.has('googleAds'),
    othersPolicyApproved: approved.has('others'),
    isStaff: user.isStaff,
    hasPassword: user.passwordHash !== null,
  };
}

export async function loadUserDto(db: DB, id: number): Promise<UserDto> {
  const user = await findUserById(db, id);
  if (!user) throw new Error(`user ${id} vanished`);
  return toUserDto(db, user);
}

/** 0912***6789: enough for the owner to recognise, not enough to contact. */
export const maskMobile = (mobile: string | null) =>
  mobile && mobile.length >= 8 ? `${mobile.slice(0, 4)}***${mobile.slice(-4)}` : '***';
