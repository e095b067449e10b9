/**
 * A conversation per request (docs/architecture.md, requests): the customer writes to staff about one of their requests, staff answer or
 * leave internal notes the customer never sees. Text is stored and returned as written and shown literally by the
 * web; an attachment is an image the sender uploaded (purpose `purchaseMessage`), marked attached so the clean-up
 * keeps it. A staff answer notifies the customer (staffReply) in the same transaction; the live event leaves after
 * the commit and carries no text.
 */
import type { Kysely } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import type { Principal } from '../../contract/handlers';
import { HttpError, tooManyRequestsFor } from '../../http/errors';
import { nameOrMobile } from '../../lib/person-names';
import type { RateLimiter } from '../../lib/rate-limit';
import type { LiveEvents } from '../../realtime/events';
import { notify } from '../notifications';
import type { Storage } from '../storage';

export type PurchaseMessage = components['schemas']['PurchaseMessage'];

/** The upload purpose (file prefix) of a message's attachment. */
export const MESSAGE_ATTACHMENT = 'purchaseMessage';
/** A customer's messages allowed per person in each window. */
export const CUSTOMER_MESSAGE_LIMIT = { messages: 10, windowSeconds: 300 };

export interface ConversationDeps {
  db: Kysely<Database>;
  storage: Storage;
  live: LiveEvents;
  rateLimiter: RateLimiter;
  deskTitle: (desk: string) => string;
}

export interface MessageInput {
  purchase: number;
  body: string;
  attachment?: string | null;
}

/** The request, or 404 with the same answer for a missing one and someone else's (`userId` given). */
async function purchaseFor(db: Kysely<Database>, purchaseId: number, userId?: number) {
  const row = await db
    .selectFrom('purchases as p')
    .innerJoin('users as u', 'u.id', 'p.userId')
    .select(['p.id', 'p.userId', 'p.desk', 'u.uid'])
    .where('p.id', '=', purchaseId)
    .$if(userId !== undefined, (q) => q.where('p.userId', '=', userId!))
    .executeTakeFirst();
  if (!row) throw HttpError.of(404, 'purchase.notFound');
  return row;
}

/** A request's messages, oldest first; the customer's view (`staffView` false) never holds an internal note. */
async function messagesOf(deps: ConversationDeps, purchaseId: number, staffView: boolean): Promise<PurchaseMessage[]> {
  const rows = await deps.db
    .selectFrom('purchaseMessages as m')
    .innerJoin('users as a', 'a.id', 'm.authorUserId')
    .leftJoin('uploads as f', 'f.id', 'm.uploadId')
    .select([
      'm.id',
      'm.purchaseId',
      'm.fromStaff',
      'm.internal',
      'm.body',
      'm.createdAt',
      'f.path',
      'a.firstName',
      'a.lastName',
      'a.mobileNo',
    ])
    .where('m.purchaseId', '=', purchaseId)
    .$if(!staffView, (q) => q.where('m.internal', '=', false))
    .orderBy('m.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    purchaseId: r.purchaseId,
    fromStaff: r.fromStaff,
    internal: r.internal,
    ...(staffView && { authorName: nameOrMobile(r) }),
    body: r.body,
    attachmentUrl: r.path ? deps.storage.signedUrl(r.path) : null,
    createdAt: new Date(r.createdAt).toISOString(),
  }));
}

export async function customerMessages(deps: ConversationDeps, principal: Principal, purchaseId: number) {
  await purchaseFor(deps.db, purchaseId, principal.userId);
  return messagesOf(deps, purchaseId, false);
}

export async function staffMessages(deps: ConversationDeps, purchaseId: number) {
  await purchaseFor(deps.db, purchaseId);
  return messagesOf(deps, purchaseId, true);
}

/** The sender's own upload for a message, marked attached; 400 when they have none at that path. */
async function attachmentId(trx: Kysely<Database>, deps: ConversationDeps, path: string, ownerUserId: number) {
  const upload = await trx
    .selectFrom('uploads')
    .select('id')
    .where('path', '=', path)
    .where('ownerUserId', '=', ownerUserId)
    .where('purpose', '=', MESSAGE_ATTACHMENT)
    .executeTakeFirst();
  if (!upload || !(await deps.storage.attach(trx, path, ownerUserId, MESSAGE_ATTACHMENT))) {
    throw HttpError.of(400, 'conversation.attachmentNotFound');
  }
  return upload.id;
}

async function send(
  deps: ConversationDeps,
  principal: Principal,
  input: MessageInput,
  options: { fromStaff: boolean; internal: boolean },
): Promise<PurchaseMessage> {
  const body = input.body.trim();
  const attachment = input.attachment?.trim() || null;
  if (body === '' && !attachment) throw HttpError.of(400, 'conversation.empty');
  const purchase = await purchaseFor(deps.db, input.purchase, options.fromStaff ? undefined : principal.userId);
  if (!options.fromStaff) {
    const hit = await deps.rateLimiter.hit(
      `conversation:user:${principal.userId}`,
      CUSTOMER_MESSAGE_LIMIT.messages,
      CUSTOMER_MESSAGE_LIMIT.windowSeconds,
    );
    if (!hit.allowed) throw tooManyRequestsFor('conversation.tooMany', hit.retryAfterSeconds);
  }
  const id = await deps.db.transaction().execute(async (trx) => {
    const uploadId = attachment ? await attachmentId(trx, deps, attachment, principal.userId) : null;
    const row = await trx
      .insertInto('purchaseMessages')
      .values({
        purchaseId: purchase.id,
        authorUserId: principal.userId,
        fromStaff: options.fromStaff,
        internal: options.internal,
        body,
        uploadId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (options.fromStaff && !options.internal) {
      await notify(trx, {
        userId: purchase.userId,
        kind: 'staffReply',
        // Named as the timeline and the other notifications name it: the desk's title and the request's number.
        params: { title: `${deps.deskTitle(purchase.desk)} (${purchase.id})` },
        purchaseId: purchase.id,
        eventKey: `message:${row.id}`,
      });
    }
    return row.id;
  });
  deps.live.purchaseMessage(options.internal ? null : purchase.uid, {
    purchaseId: purchase.id,
    messageId: id,
    fromStaff: options.fromStaff,
  });
  const messages = await messagesOf(deps, purchase.id, options.fromStaff);
  return messages.find((m) => m.id === id)!;
}

export const sendCustomerMessage = (deps: ConversationDeps, principal: Principal, input: MessageInput) =>
  send(deps, principal, input, { fromStaff: false, internal: false });

export const sendStaffMessage = (
  deps: ConversationDeps,
  principal: Principal,
  input: MessageInput & { internal: boolean },
) => send(deps, principal, input, { fromStaff: true, internal: input.internal });
