/**
 * When a rate or a system parameter changes, every open desk page asks for a new quote. Each page waits a random
 * part of this window first, so N open pages reach the server spread over it rather than in one burst (decision
 * 016). The quote a page holds stays valid meanwhile: the server honours a quoted price until the quote expires.
 */
export const REQUOTE_SPREAD_MS = 3000;

/** How long a page waits before it asks again: uniform in [0, REQUOTE_SPREAD_MS). */
export const requoteDelay = (random: number = Math.random()) => Math.floor(random * REQUOTE_SPREAD_MS);
