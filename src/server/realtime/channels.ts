/**
 * Who may join which channel. Public channels are open; private ones need a Bearer token:
 * `private-user.<uid>` only its user, `private-staff` only staff.
 */
import type { Principal } from '../contract/handlers';

export const PUBLIC_CHANNEL = 'public-general-channel';
export const STAFF_CHANNEL = 'private-staff';
export const userChannel = (uid: string) => `private-user.${uid}`;

export type ChannelDecision = { allowed: true } | { allowed: false; status: 401 | 403 };

export function authorizeChannel(channel: string, principal: Principal | null): ChannelDecision {
  if (!channel.startsWith('private-') && !channel.startsWith('presence-')) return { allowed: true };
  if (!principal) return { allowed: false, status: 401 };
  if (channel === STAFF_CHANNEL) return principal.isStaff ? { allowed: true } : { allowed: false, status: 403 };
  if (channel === userChannel(principal.uid)) return { allowed: true };
  return { allowed: false, status: 403 };
}
