/**
 * The live channel: laravel-echo over socket.io-client to our own host (/socket.io), with the reconnect
 * settings of SPEC section 7 and the X-CSRF-TOKEN header from the page's meta tag. Each event invalidates
 * the queries it affects; wiring a new screen is one line in LIVE_QUERIES.
 * Loaded after the first render, so the first page does not wait for it.
 */
import type { QueryKey } from '@tanstack/react-query';
import { TOKEN_KEY } from './api-client';
import { queryClient } from './query';

/** Event → the query keys it makes stale (a prefix invalidates every query under it). */
export const LIVE_QUERIES: Record<string, QueryKey[]> = {
  'currency.updated': [['public', 'currencies'], ['table', 'currencies'], ['quote']],
  'systemParameters.updated': [['systemParameters'], ['quote']],
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
  'purchase.changed': [['table', 'myRequests'], ['table', 'requests'], ['purchase']],
  'wallet.changed': [
    ['wallet'],
    ['table', 'myTransactions'],
    ['collection'],
    ['table', 'myBankAccounts'],
    ['table', 'myWithdrawals'],
  ],
  'profile.reviewed': [['me']],
  // The staff home counts open tasks and paid requests waiting; the bank-account page shows who holds a review.
  'task.created': [['table', 'tasks'], ['taskTypes'], ['staff', 'waitingWork'], ['table', 'bankAccounts']],
  'task.claimed': [['table', 'tasks'], ['taskTypes'], ['staff', 'waitingWork'], ['table', 'bankAccounts']],
};

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
  const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
  const token = localStorage.getItem(TOKEN_KEY);
  const echo = new Echo({
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

  const listen = (channel: { listen(e: string, cb: (d: unknown) => void): unknown }, events: string[]) => {
    for (const event of events) {
      channel.listen(`.${event}`, (data: unknown) => {
        for (const key of LIVE_QUERIES[event] ?? []) void queryClient.invalidateQueries({ queryKey: key });
        options.onEvent(event, data);
      });
    }
  };
  // The public channel carries public data only; news about a person goes to their private channel, and to
  // the staff whose actions it concerns (the server refuses the staff channel to staff without such actions).
  listen(echo.channel('public-general-channel'), ['currency.updated', 'systemParameters.updated', 'catalogue.changed']);
  const accountEvents = ['userProfile.changed', 'googleAdsAccount.changed', 'googleMccAccount.changed'];
  if (options.userUid) {
    listen(echo.private(`user.${options.userUid}`), [
      'purchase.changed',
      'wallet.changed',
      'profile.reviewed',
      ...accountEvents,
    ]);
  }
  if (options.isStaff) listen(echo.private('staff'), ['task.created', 'task.claimed', ...accountEvents]);
  return { stop: () => echo.disconnect() };
}
