/**
 * The front door of cards (customers' bank cards, their inquiry and review): what other modules and the composition
 * may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one another
 * directly.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../db/database';
import type { FieldCipher } from '../../lib/field-cipher';
import type { LiveEvents } from '../../realtime/events';
import { cardHandlers } from './handlers';
import type { CardOwnerInquiry } from './inquiry';

export { createCardInquiry } from './inquiry';
export { resealCards } from './reseal';
export { namedCard, openMissingCardReviews, type PayingCard, payingCard } from './service';
export type { CardOwnerInquiry } from './inquiry';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: {
  db: DB;
  cipher: FieldCipher;
  log: FastifyBaseLogger;
  live: LiveEvents;
  cardInquiry: CardOwnerInquiry | null;
  /** Whether the gateway pays only from a named card: then a card the inquiry did not verify goes to staff. */
  gatewayNeedsCard: boolean;
}) =>
  cardHandlers(
    { db: deps.db, cipher: deps.cipher, inquiry: deps.cardInquiry, log: deps.log, staffReview: deps.gatewayNeedsCard },
    deps.live,
    { gatewayNeedsCard: deps.gatewayNeedsCard },
  );
