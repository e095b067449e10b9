/**
 * Issue 50 point 3 in the browser: paying a request from the wallet on its page makes the page fetch the request's
 * detail once, though the server's answer, purchase.changed and notification.created all report the payment; a
 * change made elsewhere afterwards (staff taking the request) still refreshes the open page live.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { settled, takeScreenshots } from '../support/browser';
import { withE2eServer } from '../support/e2e';
import { bearer, post } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const t = withE2eServer();

interface Seen {
  /** The frame's text (socket.io: the event's name, channel and payload). */
  text: string;
  /** How many fetches of the request's detail the page had sent when the frame arrived. */
  fetchesBefore: number;
}

describe('the request page after a wallet payment', () => {
  it('fetches the detail once for its own payment, and again for staff taking the request', async () => {
    const { money, server } = t;
    const who = await money.customer();
    const purchase = await money.request(who, 10);
    await money.deposit(who, purchase.expectedPrice);
    const page = await t.signedIn(who.token);
    const fetches: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/me/fetchPurchase') fetches.push(request.postData() ?? '');
    });
    const frames: Seen[] = [];
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        frames.push({ text: payload.toString(), fetchesBefore: fetches.length });
      }),
    );
    const framesWith = (part: string) => frames.filter((f) => f.text.includes(part));

    await page.goto(`${server.url}/request/myRequests?purchase=${purchase.id}`);
    const state = page.getByTestId('request-state');
    await state.filter({ hasText: 'در انتظار پرداخت' }).waitFor();
    // The customer's own channel is joined: the payment's events reach this page.
    await expect.poll(() => framesWith('"subscription_succeeded","private-user.').length).toBe(1);
    // The first join reads again what the channel feeds (news sent before it would be lost): that fetch is the page's
    // start, not the payment's.
    await settled(page);
    const before = fetches.length;

    await page.getByTestId('pay-purchase').click();
    await state.filter({ hasText: 'پرداخت شده' }).waitFor();
    await expect
      .poll(() => framesWith('"purchase.changed"').length + framesWith('"notification.created"').length)
      .toBe(2);

    // Staff take the request: the open page shows it without a reload.
    const staff = await t.staff(['viewTasks', 'manageCurrencyPayments']);
    const task = await server.app.database.db
      .selectFrom('tasks')
      .select('id')
      .where('purchaseId', '=', purchase.id)
      .executeTakeFirstOrThrow();
    const taken = await post(server, '/api/sys/fetchFulfilmentTaskData', { taskId: task.id }, bearer(staff));
    expect(taken.status, taken.body.msg).toBe(200);
    await state.filter({ hasText: 'در حال انجام' }).waitFor();
    await page.getByTestId('request-timeline').getByText('کارشناس درخواست را برداشت').waitFor();

    // Up to the first event of staff's change, the payment (its answer and its two events) made one fetch.
    const staffFirst = frames.find((f) => /"purchaseTaken"|"state":"inProgress"/.test(f.text));
    expect(staffFirst?.fetchesBefore).toBe(before + 1);
    expect(fetches.slice(before, before + 1)).toEqual([JSON.stringify({ purchase: purchase.id })]);
    // Staff's change was fetched live.
    expect(fetches.length).toBeGreaterThan(before + 1);
    if (takeScreenshots) await page.screenshot({ path: path.join(shots, 'detail-fetches-phone.png') });
  }, 40_000);
});
