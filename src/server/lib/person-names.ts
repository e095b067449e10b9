/**
 * How the server names a person (a customer or a staff member) from their `users` row: every module shows names
 * the same way, and none needs identity's service for it.
 */
import type { Users } from '../../generated/db';

type NameFields = Pick<Users, 'firstName' | 'lastName'>;

export function fullNameOf(user: NameFields): string | null {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return name || null;
}

/** How lists name a customer or staff member: the full name, else the mobile number. */
export const nameOrMobile = (user: NameFields & Pick<Users, 'mobileNo'>) => fullNameOf(user) ?? user.mobileNo ?? '';

/** The full name, else the mobile number, else the e-mail address. */
export const displayName = (user: NameFields & Pick<Users, 'mobileNo' | 'email'>) =>
  fullNameOf(user) ?? user.mobileNo ?? user.email ?? '';

/**
 * A name shown to someone who is not its owner (a receipt's public check): the first letter of the first and of the
 * last name, each followed by three stars («م*** ا***»); only stars when the account has no name.
 */
export function maskedName(user: NameFields): string {
  const parts = [user.firstName, user.lastName]
    .map((part) => part?.trim() ?? '')
    .filter(Boolean)
    .map((part) => `${Array.from(part)[0]}***`);
  return parts.length ? parts.join(' ') : '***';
}
