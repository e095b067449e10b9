/**
 * The live channel: laravel-echo over socket.io-client to our own host (/socket.io), with the reconnect
 * settings of SPEC section 7 and the X-CSRF-TOKEN header from the page's meta tag. Each event invalidates
 * the queries it affects; wiring a new screen is one line in LIVE_QUERIES.
 * Loaded after the first render, so the first page does not wait for it.
 */
import type { QueryKey } from '@tanstack/react-query';
import { TOKEN_KEY } from './api-client';
import { nextTask } from './idle';
import { liveRefresher } from './live-refresh';
import { keysToRefresh } from './own-changes';
import { queryClient } from './query';
import { requoteDelay } from '../../shared/requote';

/** Event → the query keys it makes stale (a prefix invalidates every query under it). */
export const LIVE_QUERIES: Record<string, QueryKey[]> = {
  'currency.updated': [
    ['public', 'currencies'],
    ['public', 'rateHistory'],
    ['table', 'currencies'],
    ['quote'],
    ['myPlan'],
  ],
  'systemParameters.updated': [['systemParameters'], ['quote'], ['myPlan']],
  // A desk or form type published or changed on disk: desk pages re-render their form from the new catalogue.
  'catalogue.changed': [['catalogue'], ['staff', 'catalogue']],
  'googleAdsAccount.changed': [
    ['table', 'googleAdsAccounts'],
    ['table', 'myGoogleAdsAccounts'],
    ['table', 'myGoogleAdsAccountRequests'],
    ['table', 'googleMccAccounts'],
    ['googleAds'],
  ],
  'googleMccAccount.changed': [['table', 'googleMccAccounts']],
  // The user concerned reloads their own profile (LiveUpdates); staff lists refetch.
  'userProfile.changed': [['table', 'users'], ['table', 'customers'], ['staffUsers']],
  // A request's state is its plan step's state (the customer's study-abroad plan).
  'purchase.changed': [['table', 'myRequests'], ['table', 'requests'], ['purchase'], ['myPlan']],
  // A request's conversation (customer or staff view) and staff's queue of conversations waiting for an answer.
  'purchase.message': [['conversation'], ['staff', 'supportThreads']],
  'wallet.changed': [
    ['wallet'],
    ['table', 'myTransactions'],
    ['collection'],
    ['table', 'myBankAccounts'],
    ['table', 'myWithdrawals'],
  ],
  'profile.reviewed': [['me']],
  // The bell's count and the list of notifications; an open request, whose timeline has the step it reports; a rate
  // alert that fired.
  'notification.created': [['notifications'], ['purchase'], ['rateAlerts']],
  // The staff home counts open tasks and paid requests waiting; the bank-account page shows who holds a review.
  'task.created': [['table', 'tasks'], ['taskTypes'], ['staff', 'waitingWork'], ['table', 'bankAccounts']],
  'task.claimed': [['table', 'tasks'], ['taskTypes'], ['staff', 'waitingWork'], ['table', 'bankAccounts']],
};

const refreshTogether = liveRefresher(queryClient);

/** Makes the queries under `keys` fetch again (lib/live-refresh.ts: events close together refresh each query once). */
function refresh(keys: Iterable<QueryKey>): void {
  const now: QueryKey[] = [];
  for (const queryKey of keys) {
    // Every open desk page re-quotes on a rate change: each waits its own random part of the spread, so the server
    // gets them over REQUOTE_SPREAD_MS rather than at once (decision 016). The quote held meanwhile is honoured.
    if (queryKey[0] === 'quote') setTimeout(() => refreshTogether([queryKey]), requoteDelay());
    else now.push(queryKey);
  }
  refreshTogether(now);
}

export type LiveHandler = (event: string, data: unknown) => void;

interface Connection {
  stop(): void;
}

export async function connectLive(options: {
  userUid: string | null;
  isStaff: boolean;
  onEvent: LiveHandler;
}): Promise<Connection> {
  const [{ default: Echo }, { io }] = await Promise.all([import('laravel-echo'), import('socket.io-client')]);
  // The connection is opened in a task of its own: with its modules' evaluation it held a slow phone's main thread
  // for one task of 80-350 ms.
  await nextTask();
  const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
  const token = localStorage.getItem(TOKEN_KEY);
  const echo = new Echo<'socket.io'>({
    broadcaster: 'socket.io',
    client: io,
    host: window.location.origin,
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    reconnection: true,
    reconnectionDelay: 1000,
    reconnectionDelayMax: 5000,
    randomizationFactor: 0.5,
    timeout: 20000,
    reconnectionAttempts: Number.POSITIVE_INFINITY,
    auth: { headers: { 'X-CSRF-TOKEN': csrf, ...(token ? { Authorization: `Bearer ${token}` } : {}) } },
  });

  /** Channel name → the query keys its events make stale, each once. */
  const keysOn = new Map<string, Map<string, QueryKey>>();
  const listen = (
    channel: { name: string; listen(e: string, cb: (d: unknown) => void): unknown },
    events: string[],
  ) => {
    keysOn.set(channel.name, new Map(events.flatMap((e) => LIVE_QUERIES[e] ?? []).map((k) => [JSON.stringify(k), k])));
    for (const event of events) {
      channel.listen(`.${event}`, (data: unknown) => {
        // What the page's own change (its payment) already refreshed is not fetched again.
        refresh(keysToRefresh(event, data, LIVE_QUERIES[event] ?? []));
        options.onEvent(event, data);
      });
    }
  };
  // Events sent while the connection was down are lost: once a channel is joined again after a reconnect, what its
  // events feed is fetched anew. (The server confirms each join with subscription_succeeded.)
  // The first join comes after the first screen (LiveUpdates waits for it), so news sent between the page's first
  // reads and that join is lost too: what a person's own channels feed (their requests, wallet, the bell and the
  // notifications) is read again then. The public channel's data (rates, the catalogue) is left: it changes rarely,
  // and the catalogue is large.
  const joinedBefore = new Set<string>();
  echo.connector.socket.on('subscription_succeeded', (name: string) => {
    const keys = [...(keysOn.get(name)?.values() ?? [])];
    if (joinedBefore.has(name) || name.startsWith('private-')) refresh(keys);
    joinedBefore.add(name);
  });
  // The public channel carries public data only; news about a person goes to their private channel, and to
  // the staff whose actions it concerns (the server refuses the staff channel to staff without such actions).
  listen(echo.channel('public-general-channel'), ['currency.updated', 'systemParameters.updated', 'catalogue.changed']);
  const accountEvents = ['userProfile.changed', 'googleAdsAccount.changed', 'googleMccAccount.changed'];
  if (options.userUid) {
    listen(echo.private(`user.${options.userUid}`), [
      'purchase.changed',
      'wallet.changed',
      'profile.reviewed',
      'purchase.message',
      'notification.created',
      ...accountEvents,
    ]);
  }
  if (options.isStaff)
    listen(echo.private('staff'), ['task.created', 'task.claimed', 'purchase.message', ...accountEvents]);
  return { stop: () => echo.disconnect() };
}
