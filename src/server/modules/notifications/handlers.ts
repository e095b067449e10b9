/**
 * A person's own notifications (the bell and the list), their choices per kind and channel, and the SMS staff must
 * look at because the worker gave up on them. Every query of a person's notifications is bound to the signed-in
 * user: ids of anyone else's are simply not found.
 */
import { type Kysely, sql } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import {
  isNotificationKind,
  isSecurityKind,
  NOTIFICATION_KIND_NAMES,
  NOTIFICATION_KINDS,
  type NotificationKind,
} from '../../../shared/notifications';
import type { Handlers, Principal } from '../../contract/handlers';
import { HttpError, ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { pageOf } from '../../lib/paging';

type Db = Kysely<Database>;
type Preference = components['schemas']['NotificationPreference'];

const iso = (value: Date | string) => new Date(value).toISOString();

export async function unreadCount(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('userId', '=', userId)
    .where('inApp', '=', true)
    .where('readAt', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function searchNotifications(db: Db, userId: number, query: { page?: number; perPage?: number }) {
  const q = db.selectFrom('notifications').where('userId', '=', userId).where('inApp', '=', true);
  const page = await pageOf(q, query, (x) =>
    x.select(['id', 'kind', 'text', 'purchaseId', 'createdAt', 'readAt']).orderBy('id', 'desc'),
  );
  return {
    total: page.total,
    unreadCount: await unreadCount(db, userId),
    items: page.items.map((n) => ({
      id: Number(n.id),
      kind: n.kind,
      text: n.text,
      purchaseId: n.purchaseId === null ? null : Number(n.purchaseId),
      createdAt: iso(n.createdAt),
      read: n.readAt !== null,
    })),
  };
}

async function markRead(db: Db, userId: number, body: { ids?: number[]; all?: boolean }) {
  if (!body.all && !body.ids?.length) throw HttpError.of(400, 'notifications.markRead.nothing');
  let q = db
    .updateTable('notifications')
    .set({ readAt: new Date() })
    .where('userId', '=', userId)
    .where('readAt', 'is', null);
  if (!body.all) q = q.where('id', 'in', body.ids!);
  await q.execute();
  return { unreadCount: await unreadCount(db, userId) };
}

/** The kinds a person chooses for: customers their own kinds, staff every kind. */
const kindsFor = (principal: Principal) =>
  NOTIFICATION_KIND_NAMES.filter((kind) => principal.isStaff || NOTIFICATION_KINDS[kind].audience === 'customer');

async function preferences(db: Db, principal: Principal): Promise<Preference[]> {
  const rows = await db
    .selectFrom('notificationPreferences')
    .select(['kind', 'channel', 'enabled'])
    .where('userId', '=', principal.userId)
    .execute();
  const on = (kind: NotificationKind, channel: string) =>
    isSecurityKind(kind) || !rows.some((r) => r.kind === kind && r.channel === channel && !r.enabled);
  return kindsFor(principal).map((kind) => ({
    kind,
    inApp: on(kind, 'inApp'),
    sms: on(kind, 'sms'),
    locked: isSecurityKind(kind),
  }));
}

async function savePreferences(
  db: Db,
  principal: Principal,
  items: Array<{ kind: string; inApp: boolean; sms: boolean }>,
): Promise<void> {
  const allowed = new Set<string>(kindsFor(principal));
  const seen = new Set<string>();
  for (const item of items) {
    if (!isNotificationKind(item.kind) || !allowed.has(item.kind)) throw HttpError.of(422, 'notifications.kindUnknown');
    // One upsert cannot touch a row twice (PostgreSQL refuses it with a 500): a repeated kind is the caller's mistake.
    if (seen.has(item.kind)) throw HttpError.of(422, 'notifications.kindRepeated');
    seen.add(item.kind);
    if (isSecurityKind(item.kind) && (!item.inApp || !item.sms)) {
      throw HttpError.of(422, 'notifications.securityLocked');
    }
  }
  const values = items
    .filter((item) => !isSecurityKind(item.kind as NotificationKind))
    .flatMap((item) => [
      { userId: principal.userId, kind: item.kind, channel: 'inApp', enabled: item.inApp },
      { userId: principal.userId, kind: item.kind, channel: 'sms', enabled: item.sms },
    ]);
  if (values.length === 0) return;
  await db
    .insertInto('notificationPreferences')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['userId', 'kind', 'channel']).doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled') })),
    )
    .execute();
}

/** Failed SMS for staff, newest first; a search matches the mobile number or the text. */
async function searchFailedSms(db: Db, filter: { search?: string; page?: number; perPage?: number }) {
  let q = db
    .selectFrom('notificationSms as s')
    .innerJoin('notifications as n', 'n.id', 's.notificationId')
    .where('s.state', '=', 'failed');
  const term = filter.search?.trim();
  if (term) {
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([eb('s.mobileNo', 'like', like), eb('s.text', 'like', like)]));
  }
  const page = await pageOf(q, filter, (x) =>
    x
      .select([
        's.id',
        's.notificationId',
        'n.kind',
        's.mobileNo',
        's.text',
        's.attempts',
        's.lastError',
        's.createdAt',
        's.dueAt',
      ])
      .orderBy('s.id', 'desc'),
  );
  return {
    total: page.total,
    items: page.items.map((r) => ({
      id: Number(r.id),
      notificationId: Number(r.notificationId),
      kind: r.kind,
      mobileNo: r.mobileNo,
      text: r.text,
      attempts: r.attempts,
      lastError: r.lastError,
      createdAt: iso(r.createdAt),
      // The worker leaves due_at at the moment of the last failed try.
      failedAt: iso(r.dueAt),
    })),
  };
}

export function notificationHandlers(
  db: Db,
): Pick<
  Handlers,
  | 'searchNotifications'
  | 'markNotificationsRead'
  | 'fetchNotificationPreferences'
  | 'saveNotificationPreferences'
  | 'searchFailedNotificationSms'
> {
  return {
    searchNotifications: async ({ body, principal }) =>
      ok(await searchNotifications(db, principal!.userId, { page: body?.page, perPage: body?.perPage })),
    markNotificationsRead: async ({ body, principal }) => ok(await markRead(db, principal!.userId, body)),
    fetchNotificationPreferences: async ({ principal }) => ok({ items: await preferences(db, principal!) }),
    saveNotificationPreferences: async ({ body, principal }) => {
      await savePreferences(db, principal!, body.items);
      return ok({ items: await preferences(db, principal!) }, msg('notifications.preferencesSaved'));
    },
    searchFailedNotificationSms: async ({ body }) => ok(await searchFailedSms(db, body ?? {})),
  };
}
