/**
 * Staff taking a request is what the customer sees (decision 037): a customer on a 390x844 phone has their paid
 * request open; staff open its task; without reloading, the customer reads «در حال انجام» on the request and on their
 * list, and the timeline's step «کارشناس درخواست را برداشت».
 */
import { describe, expect, it } from 'vitest';
import { PHONE } from '../support/browser';
import { watchErrors, withE2eServer } from '../support/e2e';
import { bearer, post } from '../support/server';

const e2e = withE2eServer();

describe('a request staff took', () => {
  it('reads «در حال انجام» to its customer on the phone, live', async () => {
    const who = await e2e.customer();
    const purchase = await e2e.money.paidRequest(who);
    const page = await e2e.signedIn(who.token, PHONE);
    const errors = watchErrors(page);
    await page.goto(`${e2e.server.url}/request/myRequests?purchase=${purchase.id}`);
    const state = page.getByTestId('request-state');
    await state.getByText('پرداخت شده').waitFor();

    const staff = await e2e.staff(['manageCurrencyPayments', 'viewTasks']);
    const task = await e2e.server.app.database.db
      .selectFrom('tasks')
      .select('id')
      .where('purchaseId', '=', purchase.id)
      .executeTakeFirstOrThrow();
    const taken = await post(e2e.server, '/api/sys/fetchFulfilmentTaskData', { taskId: task.id }, bearer(staff));
    expect(taken.status, taken.body.msg).toBe(200);

    // The open page hears of it (purchase.changed): the state, the timeline and the list row, with no reload.
    await state.getByText('در حال انجام').waitFor();
    await page.locator('[data-testid="timeline-step"][data-kind="taken"]').waitFor();
    expect(await page.getByTestId('request-timeline').textContent()).toContain('کارشناس درخواست را برداشت');
    await page.getByRole('cell', { name: 'در حال انجام' }).or(page.getByText('در حال انجام').nth(1)).first().waitFor();
    expect(errors).toEqual([]);
  });
});
