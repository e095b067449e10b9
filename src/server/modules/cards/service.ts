/**
 * Customers' bank cards: the only writer of `user_cards` (docs/decisions/024-cards-and-the-card-rule.md).
 *
 * A card is saved by its number (Luhn-checked, its bank from the BIN: src/shared/cards), sealed with the field key
 * (decision 021) next to its mask and SHA-256 — the hash ZarinPal's verify reports as card_hash. It is verified as the
 * customer's own by the card inquiry adapter when one is configured (inquiry.ts), or else by staff through an
 * approveUserCardTask, as a bank account's IBAN is. A gateway payment names one of the customer's verified cards;
 * the bank takes no other, and the payments module checks verify's card against it.
 */
import type { FastifyBaseLogger } from 'fastify';
import { maskCardNumber, parseCardNumber } from '../../../shared/cards/card-number';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import type { FieldCipher } from '../../lib/field-cipher';
import type { ListEnvelope } from '../../lib/paging';
import { claimTask, decideTask, openCardTask } from '../tasks';
import { cardHashOf } from './card-hash';
import { CardInquiryUnavailableError, type CardOwnerInquiry } from './inquiry';

export type CardState = 'pending' | 'verified' | 'rejected';

export interface UserCardDto {
  id: number;
  userId: number;
  /** First six digits, ******, last four. */
  maskedPan: string;
  bin: string;
  bankName: string;
  state: CardState;
  /** How a verified card was verified: by the inquiry service or by staff. */
  verifiedBy: 'inquiry' | 'staff' | null;
  /** Why a rejected card was rejected (Persian, shown to the customer). */
  decisionReason: string | null;
  createdAt: string;
  decidedAt: string | null;
}

/** What binds a sealed card number to its owner: a sealed value copied to another customer's row does not open. */
export const cardSealContext = (userId: number) => `user-card:${userId}`;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function cardSelect(db: DB) {
  return db
    .selectFrom('userCards')
    .select([
      'id',
      'userId',
      'maskedPan',
      'bin',
      'bankName',
      'state',
      'verifiedBy',
      'decisionReason',
      'createdAt',
      'decidedAt',
    ]);
}

type CardRow = Awaited<ReturnType<ReturnType<typeof cardSelect>['executeTakeFirstOrThrow']>>;

const toCardDto = (r: CardRow): UserCardDto => ({
  id: r.id,
  userId: r.userId,
  maskedPan: r.maskedPan,
  bin: r.bin,
  bankName: r.bankName,
  state: r.state as CardState,
  verifiedBy: (r.verifiedBy as UserCardDto['verifiedBy']) ?? null,
  decisionReason: r.decisionReason,
  createdAt: new Date(r.createdAt).toISOString(),
  decidedAt: iso(r.decidedAt),
});

const cardOf = async (db: DB, id: number) =>
  toCardDto(await cardSelect(db).where('id', '=', id).executeTakeFirstOrThrow());

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

export interface CardServices {
  db: DB;
  cipher: FieldCipher;
  /** Null: no inquiry service; every card is reviewed by staff. */
  inquiry: CardOwnerInquiry | null;
  log: FastifyBaseLogger;
  /**
   * Whether a card the inquiry did not verify goes to staff: only while the gateway needs a named card (decision
   * 034). A gateway that checks the holder itself (the sandbox bank's holder mode) never asks for a card, so a staff
   * review of one would mean nothing; the card stays `pending` until a named-card gateway needs it.
   */
  staffReview: boolean;
}

export interface SavedCard {
  card: UserCardDto;
  /** The staff review opened for it, when it went to staff. */
  task: { taskId: number } | null;
  /** False when the card was saved before and is answered as it stands. */
  checkedNow: boolean;
}

/**
 * Registers `cardNumber` as one of the customer's cards and has it verified: at once by the inquiry service when
 * one is configured (and answers), otherwise by staff. A card saved again is answered as it stands; a rejected one is
 * checked again. A card verified as another customer's is refused.
 */
export async function saveCard(
  services: CardServices,
  userId: number,
  input: { cardNumber: string },
): Promise<SavedCard> {
  const { db, cipher, inquiry } = services;
  const parsed = parseCardNumber(input.cardNumber);
  if (!parsed.ok) throw new HttpError(422, parsed.message, { field: 'cardNumber' });
  // Keyed: a backup without the field key cannot test candidate numbers against it (decision 031).
  const cardHash = cipher.cardHash(parsed.cardNumber);
  const user = await db.selectFrom('users').select(['nationalCode']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (!user.nationalCode) throw HttpError.of(422, 'card.nationalCodeRequired');

  const stored = await db.transaction().execute(async (trx) => {
    const takenByAnother = await trx
      .selectFrom('userCards')
      .select('id')
      .where('cardHash', '=', cardHash)
      .where('state', '=', 'verified')
      .where('userId', '<>', userId)
      .executeTakeFirst();
    if (takenByAnother) throw HttpError.of(409, 'card.ownedByAnother');
    const inserted = await trx
      .insertInto('userCards')
      .values({
        userId,
        cardSealed: cipher.seal(parsed.cardNumber, cardSealContext(userId)),
        cardHash,
        maskedPan: maskCardNumber(parsed.cardNumber),
        bin: parsed.bin,
        bankName: parsed.bankName,
      })
      .onConflict((oc) => oc.columns(['userId', 'cardHash']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return { id: inserted.id, check: true };
    const existing = await trx
      .selectFrom('userCards')
      .select(['id', 'state'])
      .where('userId', '=', userId)
      .where('cardHash', '=', cardHash)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (existing.state !== 'rejected') return { id: existing.id, check: false };
    // Rejected before: the customer asks again (perhaps the card was theirs after all).
    await trx
      .updateTable('userCards')
      .set({ state: 'pending', verifiedBy: null, decidedBy: null, decidedAt: null, decisionReason: null })
      .where('id', '=', existing.id)
      .execute();
    return { id: existing.id, check: true };
  });
  if (!stored.check) return { card: await cardOf(db, stored.id), task: null, checkedNow: false };

  let answer: Awaited<ReturnType<CardOwnerInquiry['checkHolder']>> | null = null;
  if (inquiry) {
    try {
      answer = await inquiry.checkHolder({ cardNumber: parsed.cardNumber, nationalCode: user.nationalCode });
    } catch (error) {
      if (!(error instanceof CardInquiryUnavailableError)) throw error;
      services.log.warn({ err: error, card: stored.id }, 'card inquiry unavailable; the card goes to staff review');
    }
  }
  return db.transaction().execute(async (trx): Promise<SavedCard> => {
    const after = answer
      ? answer.holderMatches
        ? { state: 'verified' as const, verifiedBy: 'inquiry' as const, decisionReason: null }
        : { state: 'rejected' as const, verifiedBy: null, decisionReason: msg('card.inquiryMismatchReason') }
      : null;
    let task: SavedCard['task'] = null;
    if (after) {
      try {
        await trx
          .updateTable('userCards')
          .set({ ...after, decidedAt: new Date() })
          .where('id', '=', stored.id)
          .where('state', '=', 'pending')
          .execute();
      } catch (error) {
        // Another customer's same card was verified a moment ago (the partial unique index).
        if (isUniqueViolation(error)) throw HttpError.of(409, 'card.ownedByAnother');
        throw error;
      }
    } else if (services.staffReview) {
      const taskId = await openCardTask(trx, userId, stored.id, { bankName: parsed.bankName });
      if (taskId !== null) task = { taskId };
    }
    await audit(trx, {
      actorUserId: userId,
      action: 'saveUserCard',
      entity: 'userCard',
      entityId: stored.id,
      after: {
        maskedPan: maskCardNumber(parsed.cardNumber),
        bankName: parsed.bankName,
        ...(after
          ? { state: after.state, inquiry: inquiry?.name }
          : { state: 'pending', review: services.staffReview ? 'staff' : 'notNeeded' }),
      },
    });
    return { card: await cardOf(trx, stored.id), task, checkedNow: true };
  });
}

export async function searchCards(db: DB, userId: number): Promise<ListEnvelope<UserCardDto>> {
  const rows = await cardSelect(db).where('userId', '=', userId).orderBy('id', 'desc').execute();
  return { items: rows.map(toCardDto), total: rows.length };
}

/**
 * Claims the card review task and reads what staff compare: the card (its full number, opened for this reviewer and
 * audited with the claim, so they can ask their bank who holds it) and the customer it is said to belong to.
 */
export async function claimCardTask(db: DB, cipher: FieldCipher, principal: Principal, taskId: number) {
  return db.transaction().execute(async (trx) => {
    const { task, claimedNow, before } = await claimTask(trx, taskId, ['approveUserCardTask'], principal.userId);
    await audit(trx, {
      actorUserId: principal.userId,
      action: claimedNow ? 'claimTask' : 'openTask',
      entity: 'task',
      entityId: task.id,
      before,
      after: { state: 'claimed', claimedBy: principal.userId, revealed: 'cardNumber' },
    });
    const row = await trx
      .selectFrom('userCards')
      .select(['cardSealed', 'userId'])
      .where('id', '=', task.userCardId!)
      .executeTakeFirstOrThrow();
    const card = await cardOf(trx, task.userCardId!);
    return { task, card, cardNumber: cipher.open(row.cardSealed, cardSealContext(row.userId)) };
  });
}

/** Verifies (the customer's own) or rejects (with a reason) the card the claimed task is about. */
export async function decideCard(
  db: DB,
  principal: Principal,
  taskId: number,
  decision: { approved: true } | { approved: false; reason: string },
): Promise<UserCardDto> {
  try {
    return await db.transaction().execute(async (trx) => {
      const reason = decision.approved ? undefined : decision.reason.trim();
      const task = await decideTask(trx, taskId, 'approveUserCardTask', principal.userId, {
        state: decision.approved ? 'approved' : 'rejected',
        ...(reason === undefined ? {} : { reason }),
      });
      const before = await trx
        .selectFrom('userCards')
        .select(['state', 'decisionReason'])
        .where('id', '=', task.userCardId!)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (before.state !== 'pending') throw HttpError.of(409, 'task.alreadyDecided');
      const after = decision.approved
        ? { state: 'verified' as const, verifiedBy: 'staff' as const, decisionReason: null }
        : { state: 'rejected' as const, verifiedBy: null, decisionReason: reason ?? null };
      await trx
        .updateTable('userCards')
        .set({ ...after, decidedBy: principal.userId, decidedAt: new Date() })
        .where('id', '=', task.userCardId!)
        .execute();
      await audit(trx, {
        actorUserId: principal.userId,
        action: decision.approved ? 'approveUserCardOwnership' : 'rejectUserCardOwnership',
        entity: 'userCard',
        entityId: task.userCardId,
        before,
        after,
      });
      return cardOf(trx, task.userCardId!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw HttpError.of(409, 'card.ownedByAnother');
    throw error;
  }
}

/** A card a payment may name: the customer's own and verified. */
export interface PayingCard {
  id: number;
  /** The 16 digits, opened for the gateway's request (metadata.card_pan). */
  cardNumber: string;
  cardHash: string;
  maskedPan: string;
}

/** The customer's verified card `cardId`, opened for a payment; 404 when not theirs, 422 when not verified. */
export async function payingCard(db: DB, cipher: FieldCipher, userId: number, cardId: number): Promise<PayingCard> {
  const row = await db
    .selectFrom('userCards')
    .select(['id', 'cardSealed', 'cardHash', 'maskedPan', 'state'])
    .where('id', '=', cardId)
    .where('userId', '=', userId)
    .executeTakeFirst();
  if (!row) throw HttpError.of(404, 'card.notFound');
  if (row.state !== 'verified') throw HttpError.of(422, 'card.notVerified');
  const cardNumber = cipher.open(row.cardSealed, cardSealContext(userId));
  return { id: row.id, cardNumber, cardHash: cardHashOf(cardNumber), maskedPan: row.maskedPan };
}

/** The card a payment named, as the settlement compares it with what the gateway verified. */
export async function namedCard(
  db: DB,
  cipher: FieldCipher,
  cardId: number,
): Promise<{ cardHash: string; maskedPan: string }> {
  const row = await db
    .selectFrom('userCards')
    .select(['userId', 'cardSealed', 'maskedPan'])
    .where('id', '=', cardId)
    .executeTakeFirstOrThrow();
  // The gateway reports the plain SHA-256 of the number it charged: compared with the opened number, never stored.
  const cardNumber = cipher.open(row.cardSealed, cardSealContext(row.userId));
  return { cardHash: cardHashOf(cardNumber), maskedPan: row.maskedPan };
}

/**
 * At start with a gateway that needs a named card: a card saved while the gateway did not need one
 * (no review was opened then) gets its staff review now, so it does not wait for nothing.
 */
export async function openMissingCardReviews(db: DB, log: FastifyBaseLogger): Promise<void> {
  const waiting = await db
    .selectFrom('userCards')
    .select(['id', 'userId', 'bankName'])
    .where('state', '=', 'pending')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('tasks')
            .select('tasks.id')
            .whereRef('tasks.userCardId', '=', 'userCards.id')
            .where('tasks.state', 'in', ['open', 'claimed']),
        ),
      ),
    )
    .execute();
  for (const card of waiting) await openCardTask(db, card.userId, card.id, { bankName: card.bankName });
  if (waiting.length > 0) log.info({ cards: waiting.length }, 'opened staff reviews for cards saved without one');
}
