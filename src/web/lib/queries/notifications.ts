/**
 * The signed-in person's notifications (api/me/searchNotifications), their unread count for the bell, marking them
 * read, and their choices per kind and channel. Every query sits under the `notifications` key, which
 * notification.created refreshes (lib/realtime.ts).
 */
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type Notification = components['schemas']['Notification'];
export type NotificationPreference = components['schemas']['NotificationPreference'];

export interface NotificationPage {
  items: Notification[];
  total: number;
  unreadCount: number;
}

export const NOTIFICATIONS_PER_PAGE = 20;

/** The bell's count: the first row is enough, the answer carries the unread count. */
export const unreadNotificationsQuery = {
  queryKey: ['notifications', 'unread'],
  queryFn: async () =>
    (await call<NotificationPage>(api.POST('/api/me/searchNotifications', { body: { perPage: 1 } }))).unreadCount,
};

export const notificationsQuery = (pages: number) => ({
  queryKey: ['notifications', 'list', pages],
  queryFn: () =>
    call<NotificationPage>(
      api.POST('/api/me/searchNotifications', { body: { page: 1, perPage: NOTIFICATIONS_PER_PAGE * pages } }),
    ),
});

export const markNotificationsRead = (body: { ids?: number[]; all?: boolean }) =>
  call<{ unreadCount: number }>(api.POST('/api/me/markNotificationsRead', { body }));

export const notificationPreferencesQuery = {
  queryKey: ['notifications', 'preferences'],
  queryFn: () => call<{ items: NotificationPreference[] }>(api.POST('/api/me/fetchNotificationPreferences')),
};

export const saveNotificationPreferences = (items: Array<Omit<NotificationPreference, 'locked'>>) =>
  call<{ items: NotificationPreference[] }>(api.POST('/api/me/saveNotificationPreferences', { body: { items } }));
