/**
 * Who may join which channel, decided without the database once the principal is known.
 * Only three channel names exist; anything else is refused. `private-user.<uid>` is its user's alone.
 * `private-staff` is for staff whose actions some staff event concerns, and each staff event reaches only the
 * holders of the action it concerns: joining the channel also puts the socket in one internal audience room per
 * such action (rooms no client can name, since they are not channels), and events are sent to those rooms.
 */
import type { Principal } from '../contract/handlers';

export const PUBLIC_CHANNEL = 'public-general-channel';
export const STAFF_CHANNEL = 'private-staff';
export const userChannel = (uid: string) => `private-user.${uid}`;
const USER_CHANNEL = /^private-user\.([A-Za-z0-9_-]{1,64})$/;

/** Staff lists that refetch when a user's profile changes: users (manageAccess) and customers (viewCustomers). */
export const PROFILE_WATCHERS = ['manageAccess', 'viewCustomers'] as const;

/** Staff whose lists refetch when a Google Ads account, or a manager panel, changes. */
export const GOOGLE_ADS_STAFF = 'manageGoogleAds';
export const GOOGLE_MCC_STAFF = 'manageGoogleMccAccounts';

/** Staff who see requests and answer their conversations (the waiting queue refetches on a new message). */
export const CONVERSATION_STAFF = 'viewRequests';

/**
 * Every action some staff event concerns: each task type's action (handed in by the composition, since the task
 * types are the tasks module's), the profile and Google Ads watchers.
 */
export const staffEventActions = (taskActions: Iterable<string>): ReadonlySet<string> =>
  new Set([...taskActions, ...PROFILE_WATCHERS, GOOGLE_ADS_STAFF, GOOGLE_MCC_STAFF, CONVERSATION_STAFF]);

/** The internal room of the staff who hold `action`, on the staff channel. */
export const staffAudience = (action: string) => `staff-action:${action}`;

export type ChannelKind = 'public' | 'staff' | 'user' | 'unknown';

export function channelKind(channel: string): ChannelKind {
  if (channel === PUBLIC_CHANNEL) return 'public';
  if (channel === STAFF_CHANNEL) return 'staff';
  return USER_CHANNEL.test(channel) ? 'user' : 'unknown';
}

export type ChannelDecision = { allowed: true; rooms: string[] } | { allowed: false; status: 401 | 403 | 404 };

/** Whether `principal` may join `channel`, and the rooms that joining means (`staffActions`: staffEventActions). */
export function authorizeChannel(
  channel: string,
  principal: Principal | null,
  staffActions: ReadonlySet<string>,
): ChannelDecision {
  const kind = channelKind(channel);
  if (kind === 'unknown') return { allowed: false, status: 404 };
  if (kind === 'public') return { allowed: true, rooms: [channel] };
  if (!principal) return { allowed: false, status: 401 };
  if (kind === 'user') {
    return channel === userChannel(principal.uid)
      ? { allowed: true, rooms: [channel] }
      : { allowed: false, status: 403 };
  }
  const concerned = principal.isStaff ? [...principal.actions].filter((a) => staffActions.has(a)) : [];
  if (concerned.length === 0) return { allowed: false, status: 403 };
  return { allowed: true, rooms: concerned.map(staffAudience) };
}
