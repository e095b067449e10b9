import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { liveRefresher } from '../../src/web/lib/live-refresh';

const settle = () => new Promise((resolve) => setTimeout(resolve, 80));

/** A client with the request's detail on screen (an observer), counting how often it is fetched. */
async function detailOnScreen() {
  const client = new QueryClient();
  let fetches = 0;
  const observer = new QueryObserver(client, {
    queryKey: ['purchase', 'detail', 7],
    queryFn: async () => {
      fetches++;
      await new Promise((resolve) => setTimeout(resolve, 15));
      return { state: fetches };
    },
  });
  const unsubscribe = observer.subscribe(() => undefined);
  await settle();
  return { client, fetches: () => fetches, stop: () => (unsubscribe(), client.clear()) };
}

describe('live refreshes', () => {
  let stop = () => undefined as unknown;
  afterEach(() => stop());

  it('fetch the request once for a payment’s two events (purchase.changed, notification.created)', async () => {
    const page = await detailOnScreen();
    stop = page.stop;
    const refresh = liveRefresher(page.client, { coalesceMs: 10 });
    expect(page.fetches()).toBe(1);
    refresh([['table', 'myRequests'], ['purchase'], ['myPlan']]);
    refresh([['notifications'], ['purchase'], ['rateAlerts']]);
    await settle();
    expect(page.fetches()).toBe(2);
  });

  it('leave a fetch that started after the event arrived (the payment’s answer) to finish', async () => {
    const page = await detailOnScreen();
    stop = page.stop;
    const refresh = liveRefresher(page.client, { coalesceMs: 10 });
    refresh([['purchase']]);
    void page.client.invalidateQueries({ queryKey: ['purchase'] });
    await settle();
    expect(page.fetches()).toBe(2);
  });

  it('fetch again a query whose fetch began before an event concerning it: it may have read the old data', async () => {
    const page = await detailOnScreen();
    stop = page.stop;
    const refresh = liveRefresher(page.client, { coalesceMs: 10 });
    void page.client.invalidateQueries({ queryKey: ['purchase'] });
    await new Promise((resolve) => setTimeout(resolve, 2));
    refresh([['purchase']]);
    await settle();
    expect(page.fetches()).toBe(3);
    // One event before the answer's fetch and one after it: the later one's change may postdate that fetch.
    refresh([['purchase']]);
    void page.client.invalidateQueries({ queryKey: ['purchase'] });
    await new Promise((resolve) => setTimeout(resolve, 2));
    refresh([['notifications'], ['purchase']]);
    await settle();
    expect(page.fetches()).toBe(5);
  });
});
