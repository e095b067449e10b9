/**
 * Notifications as a customer meets them on a phone (issue 31), in Chromium at 390×844: the bell's count rises
 * without a reload when their password changes and when a request of theirs is paid (written by notify() on the
 * server's database, as the payment step does), the list shows both unread, tapping the request's link lands on the
 * request and marks it read, «علامت‌گذاری همه به عنوان خوانده‌شده» clears the count, and the account page shows the
 * security notice locked.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '../../src/server/modules/notifications/notify';
import { keepSignedIn, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
import { moneyHelpers } from '../support/money';
import { bearer, post, type RunningServer, startServer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const count = (page: Page) => page.getByTestId('notification-count');

describe('the bell and the notifications list', () => {
  it('counts live, opens the request, and marks all read', async () => {
    const money = moneyHelpers(server);
    await money.ready();
    const who = await money.customer();
    const purchase = await money.request(who);
    const context = await browser.newContext({ viewport: PHONE });
    await keepSignedIn(context, who.token);
    const page = await context.newPage();
    await page.goto(`${server.url}/request/myAccount`);
    await page.getByTestId('notification-bell').waitFor();
    expect(await count(page).count()).toBe(0);
    await page.getByTestId('preference-passwordChanged-sms').waitFor();
    expect(await page.getByTestId('preference-passwordChanged-sms').isDisabled()).toBe(true);

    // This session sets a password (from another tab): the bell counts it without a reload.
    await post(server, '/api/public/sendMobileValidationCode', { mobileNo: '09134000000' });
    const changed = await post(
      server,
      '/api/me/changePassword',
      { password: 'first-secret-1', validationCode: server.lastSmsCode('09134000000') },
      bearer(who.token),
    );
    expect(changed.status, changed.body.msg).toBe(200);
    await count(page).filter({ hasText: '۱' }).waitFor();
    await server.app.database.db.transaction().execute((trx) =>
      notify(trx, {
        userId: who.userId,
        kind: 'purchasePaid',
        params: { title: 'تافل', amount: 4_500_000 },
        purchaseId: purchase.id,
        eventKey: `e2e:${purchase.id}`,
      }),
    );
    await count(page).filter({ hasText: '۲' }).waitFor();

    await page.getByTestId('notification-bell').click();
    await page.waitForURL(`${server.url}/notifications`);
    const items = page.getByTestId('notification');
    await items.first().waitFor();
    expect(await items.count()).toBe(2);
    expect(await items.first().textContent()).toContain('درخواست «تافل» پرداخت شد؛ مبلغ ۴٬۵۰۰٬۰۰۰ ریال.');
    expect(await page.locator('[data-testid="notification"][data-read="false"]').count()).toBe(2);
    if (takeScreenshots) await page.screenshot({ path: `${shots}/notifications-phone.png` });

    await items.first().getByTestId('notification-request').click();
    await page.waitForURL(`${server.url}/request/myRequests?purchase=${purchase.id}`);
    await page.getByTestId('request-detail').waitFor();
    await count(page).filter({ hasText: '۱' }).waitFor();

    await page.getByTestId('notification-bell').click();
    await page.getByTestId('notifications-mark-all').click();
    await page.getByTestId('notifications-unread').filter({ hasText: 'همهٔ اعلان‌ها خوانده شده‌اند.' }).waitFor();
    await count(page).waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid="notification"][data-read="true"]').count()).toBe(2);
    await context.close();
  }, 120_000);
});
