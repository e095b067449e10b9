/**
 * A conversation per request in Chromium (issue 31, point 3): the customer writes to staff from their request at
 * 390x844; staff at 1366x768 see it counted on their home, open the waiting queue, open the request from it and
 * answer, with an internal note beside; the customer sees the answer arrive without a reload, and never the note.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPersianDigits } from '../../src/shared/digits';
import { DESKTOP, keepSignedIn, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
import { moneyHelpers } from '../support/money';
import { loginAdmin, type RunningServer, startServer } from '../support/server';

const shots = '/tmp/shots31c';
let server: RunningServer;
let browser: Browser;
let money: ReturnType<typeof moneyHelpers>;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer();
  browser = await launchBrowser();
  money = moneyHelpers(server);
  await money.ready();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** axe-core on the conversation section: no serious or critical finding. */
async function accessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).include('[data-testid="conversation"]').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

describe('conversation', () => {
  it('the customer writes, staff answer from the waiting queue, the answer arrives live', async () => {
    const who = await money.customer();
    const purchase = await money.request(who, 10);
    const admin = await loginAdmin(server);

    const phone = await browser.newContext({ viewport: PHONE });
    await keepSignedIn(phone, who.token);
    const customer = await phone.newPage();
    await customer.goto(`${server.url}/request/myRequests?purchase=${purchase.id}`);
    const conversation = customer.getByTestId('conversation');
    await conversation.waitFor();
    const question = 'سلام، <b>کی</b> انجام می‌شود؟';
    await conversation.getByTestId('message-input').pressSequentially(question);
    expect(await conversation.getByTestId('message-counter').textContent()).toBe(
      `${toPersianDigits(question.length)} / ۲۰۰۰`,
    );
    await conversation.getByTestId('message-send').click();
    const mine = conversation.getByTestId('conversation-message').filter({ hasText: 'شما' });
    await mine.waitFor();
    expect(await mine.getByTestId('message-body').textContent()).toBe(question);
    expect(await conversation.getByTestId('message-input').inputValue()).toBe('');
    if (takeScreenshots) {
      await conversation.scrollIntoViewIfNeeded();
      await customer.screenshot({ path: `${shots}/customer-asked-phone.png`, fullPage: true });
    }

    const desk = await browser.newContext({ viewport: DESKTOP });
    await keepSignedIn(desk, admin);
    const staff = await desk.newPage();
    await staff.goto(`${server.url}/management`);
    await staff.getByTestId('support-summary').waitFor();
    await staff.getByTestId('support-waiting').filter({ hasText: '۱' }).waitFor();
    if (takeScreenshots) await staff.screenshot({ path: `${shots}/staff-home-desktop.png`, fullPage: true });
    await staff.getByTestId('support-waiting').click();
    await staff.waitForURL(`${server.url}/management/support-threads`);
    await staff.getByTestId(`support-thread-${purchase.id}`).waitFor();
    if (takeScreenshots) await staff.screenshot({ path: `${shots}/staff-queue-desktop.png`, fullPage: true });
    await staff.getByTestId(`support-thread-${purchase.id}`).click();
    const detail = staff.getByTestId('staff-request-detail');
    const thread = detail.getByTestId('conversation');
    await thread.getByTestId('conversation-message').filter({ hasText: question }).waitFor();

    // An internal note first, then the answer.
    await thread.getByTestId('message-internal').click();
    await thread.getByTestId('message-input').pressSequentially('یادداشت محرمانه برای همکاران');
    await thread.getByTestId('message-send').click();
    await thread.getByTestId('conversation-note').waitFor();
    await thread.getByTestId('message-internal').click();
    await thread.getByTestId('message-input').pressSequentially('فردا صبح انجام می‌شود.');
    await thread.getByTestId('message-send').click();
    await thread.getByTestId('conversation-message').filter({ hasText: 'فردا صبح' }).waitFor();
    if (takeScreenshots) await staff.screenshot({ path: `${shots}/staff-answered-desktop.png` });
    await accessible(staff);

    // The customer's page, never reloaded, shows the answer from «کارشناس», and not the note.
    const answer = conversation.getByTestId('conversation-message').filter({ hasText: 'فردا صبح انجام می‌شود.' });
    await answer.waitFor();
    expect(await answer.getByTestId('message-author').textContent()).toBe('کارشناس');
    expect(await conversation.textContent()).not.toContain('یادداشت محرمانه');
    await accessible(customer);
    if (takeScreenshots) await customer.screenshot({ path: `${shots}/customer-answered-phone.png`, fullPage: true });

    // Answered: the queue is empty again.
    await staff.goto(`${server.url}/management/support-threads`);
    await staff.getByText('گفتگویی در انتظار پاسخ نیست').waitFor();
    await phone.close();
    await desk.close();
  });
});
