/**
 * Issue 31's timeline end to end: a request paid, taken by staff and done with part of the price back reads, on the
 * customer's 390x844 phone, as its steps in words with the role that acted (never the staff member) and, on staff's
 * requests page, with the staff member named; a paid request shows what comes next.
 */
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRial } from '../../src/shared/format';
import { animationsDone, DESKTOP, keepSignedIn, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
import { moneyHelpers } from '../support/money';
import { bearer, post, type RunningServer, startServer, staffWithActions } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
let money: ReturnType<typeof moneyHelpers>;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  money = moneyHelpers(server);
  await money.ready();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

async function pageAs(token: string, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  await keepSignedIn(context, token);
  return context.newPage();
}

describe('request timeline', () => {
  it('the customer reads the steps by role, staff see who acted', async () => {
    const staff = await staffWithActions(server, ['manageCurrencyPayments', 'viewTasks', 'viewRequests']);
    const staffMobile = (await post(server, '/api/me/fetchUserData', undefined, bearer(staff.token))).body.data as {
      mobileNo: string;
    };
    const who = await money.customer();
    const purchase = await money.paidRequest(who);
    const waiting = await money.paidRequest(who, 20);
    const task = await server.app.database.db
      .selectFrom('tasks')
      .select('id')
      .where('purchaseId', '=', purchase.id)
      .executeTakeFirstOrThrow();
    expect(
      (await post(server, '/api/sys/fetchFulfilmentTaskData', { taskId: task.id }, bearer(staff.token))).status,
    ).toBe(200);
    const back = 150_000;
    const done = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: purchase.id, realPrice: purchase.expectedPrice - back, currencyPaymentReference: 'ETS-9' },
      bearer(staff.token),
    );
    expect(done.status, done.body.msg).toBe(200);

    const phone = await pageAs(who.token, PHONE);
    await phone.goto(`${server.url}/request/myRequests?purchase=${purchase.id}`);
    const timeline = phone.getByTestId('request-timeline');
    await timeline.getByTestId('timeline-step').nth(3).waitFor();
    const steps = await timeline.getByTestId('timeline-step').allTextContents();
    expect(steps[1]).toContain(`پرداخت شد؛ ${formatRial(purchase.expectedPrice)}`);
    expect(steps[2]).toContain('کارشناس درخواست را برداشت');
    expect(steps[3]).toContain(`${formatRial(back)} به کیف پول برگشت`);
    expect(steps[3]).toContain('لحظاتی پیش');
    expect(await timeline.textContent()).not.toContain(staffMobile.mobileNo);
    if (takeScreenshots) {
      await timeline.scrollIntoViewIfNeeded();
      await animationsDone(phone);
      await phone.screenshot({ path: path.join(shots, 'request-timeline-phone.png') });
    }

    await phone.goto(`${server.url}/request/myRequests?purchase=${waiting.id}`);
    await phone.getByTestId('timeline-next').waitFor();
    expect(await phone.getByTestId('timeline-next').textContent()).toContain('مرحلهٔ بعد');

    const desk = await pageAs(staff.token, DESKTOP);
    await desk.goto(`${server.url}/management/requests`);
    await desk.getByRole('button', { name: `جزئیات درخواست ${purchase.id}` }).click();
    const staffTimeline = desk.getByTestId('staff-request-detail').getByTestId('request-timeline');
    await staffTimeline.getByTestId('timeline-step').nth(3).waitFor();
    expect(await staffTimeline.textContent()).toContain(staffMobile.mobileNo);
    if (takeScreenshots) {
      await animationsDone(desk);
      await staffTimeline.screenshot({ path: path.join(shots, 'request-timeline-staff.png') });
    }
  });
});
