/**
 * The front door of cards (customers' bank cards, their inquiry and review): what other modules and the composition
 * may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one another
 * directly.
 */
export { cardHandlers } from './handlers';
export { createCardInquiry } from './inquiry';
export { resealCards } from './reseal';
export { namedCard, openMissingCardReviews, type PayingCard, payingCard } from './service';
