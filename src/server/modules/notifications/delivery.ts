/**
 * Delivery of committed notifications, attached by the composition (app.ts): once a transaction that wrote
 * notifications has committed, those shown in the app go live to their person's private channel and the SMS
 * worker is woken for those with an SMS queued. The live channel and the SMS driver come from higher floors
 * (realtime, identity), so they are handed in.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB as Database } from '../../../generated/db';
import { onNotificationsCommitted, type WrittenNotification } from './notify';
import { SmsWorker, type SmsWorkerOptions, type TextSender } from './sms-worker';

export interface LiveNotification {
  id: number;
  kind: string;
  text: string;
  purchaseId: number | null;
  createdAt: string;
}

export function startNotificationDelivery(deps: {
  db: Kysely<Database>;
  sender: TextSender;
  options: SmsWorkerOptions;
  log: FastifyBaseLogger;
  /** Sends `notification.created` to the person's private channel (named by their uid). */
  live: (uid: string, notification: LiveNotification) => void;
}): SmsWorker {
  const { db, log } = deps;
  const worker = new SmsWorker(db, deps.sender, deps.options, log);
  const announce = async (written: WrittenNotification[]) => {
    const shown = written.filter((n) => n.inApp);
    if (shown.length === 0) return;
    const users = await db
      .selectFrom('users')
      .select(['id', 'uid'])
      .where(
        'id',
        'in',
        shown.map((n) => n.userId),
      )
      .execute();
    const uidOf = new Map(users.map((u) => [Number(u.id), u.uid]));
    for (const n of shown) {
      const uid = uidOf.get(n.userId);
      if (!uid) continue;
      deps.live(uid, {
        id: n.id,
        kind: n.kind,
        text: n.text,
        purchaseId: n.purchaseId,
        createdAt: new Date(n.createdAt).toISOString(),
      });
    }
  };
  onNotificationsCommitted(db, (written) => {
    if (written.some((n) => n.sms)) worker.wake();
    announce(written).catch((error: unknown) => log.error({ err: error }, 'notification live event failed'));
  });
  worker.start();
  return worker;
}
