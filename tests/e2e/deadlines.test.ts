/**
 * Deadlines (issue 31, point 4) in Chromium: staff at 1366x768 see paid requests' tasks ordered by deadline with
 * «مهلت در خطر» and the time left on the one due soon; the customer at 390x844 sees the countdown on the request.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, keepSignedIn, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
import { type Customer, moneyHelpers } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';

const shots = '/tmp/shots31d';
let server: RunningServer;
let browser: Browser;
let money: ReturnType<typeof moneyHelpers>;
let who: Customer;
let admin: string;
const paid: Record<'soon' | 'later' | 'none', number> = { soon: 0, later: 0, none: 0 };

/** Tehran's calendar date `days` from today (ISO, as the form sends it). */
const tehranDate = (days: number) => new Date(Date.now() + (210 + days * 1440) * 60_000).toISOString().slice(0, 10);

async function paidRequest(deadlineDays: number | null): Promise<number> {
  const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
    items: Array<{ id: number; isCash: boolean }>;
  };
  const form = {
    currency: money.usd.id,
    amount: 10,
    requestedPaymentMethodGroup: groups.items.find((g) => !g.isCash)!.id,
  };
  const quote = await post(server, '/api/me/desks/toeflGeneralCpr/priceInquiry', form, bearer(who.token));
  const res = await post(
    server,
    '/api/me/desks/toeflGeneralCpr/requests',
    {
      ...form,
      quoteId: (quote.body.data as { quoteId: string }).quoteId,
      targetPageAddress: 'https://www.ets.org/toefl/pay',
      targetPageUsername: 'student1',
      targetPagePassword: 'secret',
      ...(deadlineDays === null ? {} : { deadlineDate: tehranDate(deadlineDays) }),
    },
    { ...bearer(who.token), 'idempotency-key': money.newKey() },
  );
  expect(res.status, res.body.msg).toBe(200);
  const purchase = res.body.data as { id: number; expectedPrice: number };
  await money.deposit(who, purchase.expectedPrice);
  await money.payOk(who, purchase.id);
  return purchase.id;
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  money = moneyHelpers(server);
  await money.ready();
  who = await money.customer();
  admin = await loginAdmin(server);
  paid.none = await paidRequest(null);
  paid.later = await paidRequest(10);
  paid.soon = await paidRequest(1);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('deadlines', () => {
  it('staff see the queue by deadline with the one at risk marked; the customer sees the countdown', async () => {
    const tasks = await server.app.database.db.selectFrom('tasks').select(['id', 'purchaseId']).execute();
    const taskOf = (purchaseId: number) => tasks.find((t) => t.purchaseId === purchaseId)!.id;

    const staff = await browser.newContext({ viewport: DESKTOP });
    await keepSignedIn(staff, admin);
    const page = await staff.newPage();
    await page.goto(`${server.url}/management/tasks?type=uafCprCpTask`);
    const rows = page.getByTestId('tasks-row');
    await rows.nth(2).waitFor();
    const ids = await rows.evaluateAll((els) => els.map((el) => el.querySelector('td')?.textContent ?? ''));
    const persian = (n: number) => n.toLocaleString('fa-IR', { useGrouping: false });
    expect(ids).toEqual([paid.soon, paid.later, paid.none].map((p) => persian(taskOf(p))));
    await rows.first().getByTestId('deadline-at-risk').getByText('مهلت در خطر').waitFor();
    expect(await rows.first().getByTestId('deadline-left').textContent()).toMatch(/(ساعت|دقیقه) مانده$/);
    expect(await rows.nth(1).getByTestId('deadline-at-risk').count()).toBe(0);
    expect(await rows.nth(1).getByTestId('deadline-left').textContent()).toMatch(/^[۹۱۰]+ روز/);
    if (takeScreenshots) await page.screenshot({ path: `${shots}/staff-tasks.png`, fullPage: true });
    // Staff were told of the one at risk: its notification opens the request on staff's requests page.
    await page.getByTestId('notification-bell').click();
    const atRisk = page.getByTestId('notification').filter({ hasText: 'هنوز انجام نشده' });
    await atRisk.getByTestId('notification-request').click();
    await page.waitForURL(`${server.url}/management/requests?open=${paid.soon}`);
    await page.getByTestId('staff-request-detail').waitFor();
    await staff.close();

    const customer = await browser.newContext({ viewport: PHONE });
    await keepSignedIn(customer, who.token);
    const phone = await customer.newPage();
    await phone.goto(`${server.url}/request/myRequests?purchase=${paid.later}`);
    const countdown = phone.getByTestId('request-detail').getByTestId('deadline-countdown');
    await countdown.waitFor();
    expect(await countdown.textContent()).toMatch(/^[۹۱۰]+ روز( و [۰-۹]+ ساعت)? تا مهلت/);
    await countdown.scrollIntoViewIfNeeded();
    if (takeScreenshots) await phone.screenshot({ path: `${shots}/customer-countdown.png` });
    await customer.close();
  });
});
