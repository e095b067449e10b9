/**
 * Never left wondering (issue 31), as a customer meets it on a phone (Chromium, 390×844), typed and tapped: they pay
 * a request at the sandbox bank; the bell's count rises without a reload when staff take it; the notification opens
 * the request on its timeline; they write to staff and the answer arrives live, with its own notification. Marking all
 * read clears the count, and the account page shows the security notice locked. (Staff answering from their queue at
 * 1366×768 is conversation.test.ts; the deadline ordering is deadlines.test.ts.)
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepSignedIn, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
import { moneyHelpers } from '../support/money';
import { payAtBank, submitToefl, toBank } from '../support/pay-flow';
import { bearer, post, type RunningServer, staffWithActions, startServer } from '../support/server';

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

describe('never left wondering', () => {
  it('pay, hear that staff took it, open its timeline, write to staff, hear the answer live', async () => {
    const money = moneyHelpers(server);
    await money.ready();
    const who = await money.customer();
    const staff = await staffWithActions(server, ['viewTasks', 'manageCurrencyPayments', 'viewRequests']);
    const context = await browser.newContext({ viewport: PHONE });
    await keepSignedIn(context, who.token);
    const page = await context.newPage();

    const purchase = await submitToefl(page, server.url, '10');
    await toBank(page);
    await payAtBank(page);
    await page.waitForURL((url) => url.origin === server.url && !url.pathname.startsWith('/sandbox-bank'));
    // Unread: the profile's approval (the customer was just verified) and the payment.
    await count(page).filter({ hasText: '۲' }).waitFor();

    // Staff take the request: the bell counts it on the page as it is, without a reload.
    const task = await server.app.database.db
      .selectFrom('tasks')
      .select('id')
      .where('purchaseId', '=', purchase)
      .executeTakeFirstOrThrow();
    const taken = await post(server, '/api/sys/fetchFulfilmentTaskData', { taskId: task.id }, bearer(staff.token));
    expect(taken.status, taken.body.msg).toBe(200);
    await count(page).filter({ hasText: '۳' }).waitFor();

    await page.getByTestId('notification-bell').click();
    await page.waitForURL(`${server.url}/notifications`);
    const items = page.getByTestId('notification');
    await items.nth(1).waitFor();
    expect(await items.first().textContent()).toContain('کارشناس درخواست');
    expect(await items.nth(1).textContent()).toMatch(/پرداخت شد؛ مبلغ [۰-۹٬]+ ریال/);
    if (takeScreenshots) await page.screenshot({ path: `${shots}/notifications-phone.png` });

    await items.first().getByTestId('notification-request').click();
    await page.waitForURL(`${server.url}/request/myRequests?purchase=${purchase}`);
    const timeline = page.getByTestId('request-timeline');
    await timeline.getByText('کارشناس درخواست را برداشت').waitFor();
    await count(page).filter({ hasText: '۲' }).waitFor();

    const conversation = page.getByTestId('conversation');
    await conversation.getByTestId('message-input').pressSequentially('رسید ETS را کی می‌فرستید؟');
    await conversation.getByTestId('message-send').click();
    await conversation.getByTestId('conversation-message').filter({ hasText: 'رسید ETS' }).waitFor();
    const reply = await post(
      server,
      '/api/sys/sendStaffPurchaseMessage',
      { purchase, body: 'تا یک ساعت دیگر.', internal: false },
      bearer(staff.token),
    );
    expect(reply.status, reply.body.msg).toBe(200);
    await conversation.getByTestId('conversation-message').filter({ hasText: 'تا یک ساعت دیگر.' }).waitFor();
    await count(page).filter({ hasText: '۳' }).waitFor();
    if (takeScreenshots) await page.screenshot({ path: `${shots}/conversation-answer-phone.png`, fullPage: true });

    await page.getByTestId('notification-bell').click();
    await items.first().filter({ hasText: 'به پیام شما' }).waitFor();
    await page.getByTestId('notifications-mark-all').click();
    await page.getByTestId('notifications-unread').filter({ hasText: 'همهٔ اعلان‌ها خوانده شده‌اند.' }).waitFor();
    await count(page).waitFor({ state: 'detached' });

    await page.goto(`${server.url}/request/myAccount`);
    await page.getByTestId('preference-passwordChanged-sms').waitFor();
    expect(await page.getByTestId('preference-passwordChanged-sms').isDisabled()).toBe(true);
    await context.close();
  }, 120_000);
});
