/**
 * Writing a notification: in the caller's transaction, so it commits with the change it reports or not at all (the
 * outbox). One row per event and person (its event key), the text rendered once, and an SMS queued in
 * `notification_sms` when the person wants SMS of that kind; quiet hours set when it is due. Once the transaction
 * has committed, the listener the composition attached to this database (live event, waking the SMS worker) hears of
 * it; a rolled-back change tells nobody.
 */
import type { Kysely } from 'kysely';
import type { DB as Database } from '../../../generated/db';
import {
  isSecurityKind,
  type NotificationKind,
  type NotificationParams,
  renderNotification,
  smsDueAt,
} from '../../../shared/notifications';
import { afterCommit } from '../../db/after-commit';

export interface NotificationInput {
  userId: number;
  kind: NotificationKind;
  params?: NotificationParams;
  /** The request it is about: the notification links to it. */
  purchaseId?: number | null;
  /** Names the event (`purchase:12:paid`); with the person and kind, the same event never notifies twice. */
  eventKey: string;
  /** The deadline it warns of: an SMS that quiet hours would hold past it goes out at once (smsDueAt). */
  deadline?: Date | null;
}

export interface WrittenNotification {
  id: number;
  userId: number;
  kind: NotificationKind;
  text: string;
  purchaseId: number | null;
  inApp: boolean;
  createdAt: Date;
  /** An SMS was queued for it. */
  sms: boolean;
}

export type NotificationListener = (written: WrittenNotification[]) => void;

const listeners = new WeakMap<object, NotificationListener>();

/** The composition's reaction to committed notifications of one database (app.ts: live event, wake the worker). */
export function onNotificationsCommitted(db: Kysely<Database>, listener: NotificationListener): void {
  listeners.set(db, listener);
}

/**
 * Whether `userId` wants `kind` on each channel (no row: yes; security notices: always), and their mobile number for
 * the SMS: one query.
 */
async function wanted(trx: Kysely<Database>, userId: number, kind: NotificationKind) {
  const rows = await trx
    .selectFrom('users')
    .leftJoin('notificationPreferences as np', (j) => j.onRef('np.userId', '=', 'users.id').on('np.kind', '=', kind))
    .select(['users.mobileNo', 'np.channel', 'np.enabled'])
    .where('users.id', '=', userId)
    .execute();
  const mobileNo = rows[0]?.mobileNo ?? null;
  if (isSecurityKind(kind)) return { inApp: true, sms: true, mobileNo };
  const off = (channel: string) => rows.some((r) => r.channel === channel && r.enabled === false);
  return { inApp: !off('inApp'), sms: !off('sms'), mobileNo };
}

/**
 * Records a notification for one person in `trx`; returns it, or null when this event already notified them or
 * they turned the kind off on both channels. `now` is injectable so tests can set the clock (quiet hours).
 */
export async function notify(
  trx: Kysely<Database>,
  input: NotificationInput,
  now: Date = new Date(),
): Promise<WrittenNotification | null> {
  const want = await wanted(trx, input.userId, input.kind);
  if (!want.inApp && !want.sms) return null;
  const params = input.params ?? {};
  const text = renderNotification(input.kind, params);
  const row = await trx
    .insertInto('notifications')
    .values({
      userId: input.userId,
      kind: input.kind,
      purchaseId: input.purchaseId ?? null,
      params: JSON.stringify(params),
      text,
      eventKey: `${input.kind}:${input.userId}:${input.eventKey}`,
      inApp: want.inApp,
    })
    .onConflict((oc) => oc.column('eventKey').doNothing())
    .returning(['id', 'createdAt'])
    .executeTakeFirst();
  if (!row) return null;
  let sms = false;
  if (want.sms && want.mobileNo) {
    await trx
      .insertInto('notificationSms')
      .values({
        notificationId: row.id,
        mobileNo: want.mobileNo,
        text,
        dueAt: smsDueAt(now, input.kind, input.deadline),
      })
      .execute();
    sms = true;
  }
  const written: WrittenNotification = {
    id: Number(row.id),
    userId: input.userId,
    kind: input.kind,
    text,
    purchaseId: input.purchaseId ?? null,
    inApp: want.inApp,
    createdAt: row.createdAt,
    sms,
  };
  afterCommit(trx, (root) => listeners.get(root)?.([written]));
  return written;
}

/** Who holds a staff action: access's read (modules/access/holders.ts), a port the composition fills. */
export type StaffHolding = (db: Kysely<Database>, action: string) => Promise<number[]>;
let staffHolding: StaffHolding | null = null;

/** The composition (app.ts) hands notifications access's read of who holds an action. */
export function attachStaffHolding(read: StaffHolding): void {
  staffHolding = read;
}

/** Notifies each of `userIds` (the event key is shared; each person gets one). */
export async function notifyStaff(
  trx: Kysely<Database>,
  userIds: readonly number[],
  input: Omit<NotificationInput, 'userId'>,
  now: Date = new Date(),
): Promise<WrittenNotification[]> {
  const written: WrittenNotification[] = [];
  for (const userId of userIds) {
    const one = await notify(trx, { ...input, userId }, now);
    if (one) written.push(one);
  }
  return written;
}

/** Notifies every active staff member who holds `action` (the event key is shared; each person gets one). */
export async function notifyStaffHolding(
  trx: Kysely<Database>,
  action: string,
  input: Omit<NotificationInput, 'userId'>,
  now: Date = new Date(),
): Promise<WrittenNotification[]> {
  if (!staffHolding)
    throw new Error('notifyStaffHolding: the composition has not handed notifications attachStaffHolding');
  return notifyStaff(trx, await staffHolding(trx, action), input, now);
}
