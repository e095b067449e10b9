/**
 * Changes to a request the page made itself (a payment from its own button), so their live events do not make it
 * fetch again what its own answer already refreshed. The server sends purchase.changed and
 * notification.created after its change commits, and answers the page after that: an event arriving while the
 * page's change is on its way, or soon after with the state the answer reported (or an earlier one), tells nothing
 * the refresh on the answer (lib/payments.ts invalidatePurchase) has not read. Any other event refreshes as usual.
 */
import type { QueryKey } from '@tanstack/react-query';

/** What the answer to the page's own change refreshes (invalidatePurchase): an event's other keys still refresh. */
export const OWN_CHANGE_REFRESHES: readonly QueryKey[] = [
  ['table', 'myRequests'],
  ['table', 'myTransactions'],
  ['purchase'],
  ['wallet'],
];

/** How long after the answer the change's own events may still arrive. */
const EVENTS_WITHIN_MS = 10_000;

/** A request's states in their order; the final ones all come last. */
const STATE_ORDER = ['waitingForPayment', 'paid', 'inProgress'];
const rank = (state: string) => (STATE_ORDER.includes(state) ? STATE_ORDER.indexOf(state) : STATE_ORDER.length);

/** The request state a notification reports, for the notifications a change of the page's own can cause. */
const NOTIFIED_STATE: Record<string, string> = { purchasePaid: 'paid' };

interface OwnChange {
  /** The state the answer reported; undefined while the change is on its way. */
  state?: string;
  answeredAt?: number;
  /** Keys held back from events that arrived while the change was on its way. */
  held: QueryKey[];
}

const changes = new Map<number, OwnChange>();

/** The page sends a change of request `purchase`. */
export function ownChangeStarted(purchase: number): void {
  changes.set(purchase, { held: [] });
}

/**
 * The change was answered: `state` is the request's state in the answer (null: refused or failed, no change of the
 * page's own). The page refreshes OWN_CHANGE_REFRESHES next; the keys returned, held back from events that arrived
 * meanwhile, are to be refreshed with them (all of them when nothing changed, the answer having refreshed nothing).
 */
export function ownChangeAnswered(purchase: number, state: string | null): QueryKey[] {
  const change = changes.get(purchase);
  if (!change) return [];
  if (state === null) {
    changes.delete(purchase);
    return change.held;
  }
  changes.set(purchase, { state, answeredAt: performance.now(), held: [] });
  return [];
}

const covered = (key: QueryKey) => OWN_CHANGE_REFRESHES.some((k) => JSON.stringify(k) === JSON.stringify(key));

/**
 * The keys a live event is to refresh: without those the page's own change of its request already refreshed.
 * `event` is the event's name, `data` its payload.
 */
export function keysToRefresh(event: string, data: unknown, keys: readonly QueryKey[]): QueryKey[] {
  const payload = (data ?? {}) as { purchaseId?: unknown; state?: unknown; kind?: unknown };
  const state =
    event === 'purchase.changed'
      ? payload.state
      : event === 'notification.created'
        ? NOTIFIED_STATE[String(payload.kind)]
        : undefined;
  const change = typeof payload.purchaseId === 'number' ? changes.get(payload.purchaseId) : undefined;
  if (!change || typeof state !== 'string') return [...keys];
  if (change.state === undefined) {
    // On its way: the answer's refresh comes after this event; if the change fails, these are refreshed then.
    change.held.push(...keys.filter(covered));
    return keys.filter((k) => !covered(k));
  }
  const recent = performance.now() - (change.answeredAt ?? 0) <= EVENTS_WITHIN_MS;
  const known = state === change.state || rank(state) < rank(change.state);
  return recent && known ? keys.filter((k) => !covered(k)) : [...keys];
}
