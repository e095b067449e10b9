/**
 * Paying for someone else in Chromium (decision 028), the parent's whole walk in one test: a student makes a payment
 * link on their request waiting for payment; a parent who has never used the product opens it on a phone (390×844)
 * as a guest and sees who asks, for what and how much (never the request's fields); signs up with their own mobile
 * right on the link's page; is sent to verify their identity, fills the profile and is offered the way back; when
 * staff approve them, is told so live with the link's words and goes back to it from the notification; pays at the
 * sandbox bank, lands on a page that says the payment is done, opens the receipt and reads their notification. The
 * student's request then names the payer, its timeline and «پرداخت‌های آنلاین» agree, and the receipt opens from it.
 */
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRial } from '../../src/shared/format';
import { animationsDone, DESKTOP, keepSignedIn, launchBrowser, PHONE } from '../support/browser';
import { jpegWithExif } from '../support/images';
import { moneyHelpers, nationalCodeFor } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';
import { WAIT_MS } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

describe('paying for someone else', () => {
  it('a parent new to the product opens the link as a guest, signs up, verifies, is told when approved, pays and gets the receipt', async () => {
    const money = moneyHelpers(server);
    await money.ready();
    const student = await money.customer();
    const purchase = await money.request(student);

    // The student makes the link on their request.
    const desk = await browser.newContext({ viewport: DESKTOP });
    contexts.push(desk);
    await keepSignedIn(desk, student.token);
    const mine = await desk.newPage();
    await mine.goto(`${server.url}/request/myRequests?purchase=${purchase.id}`);
    // A parent may read the message days later: the student gives the link a week (three days unless chosen).
    await mine.getByTestId('payment-link-lifetime').getByRole('radio', { name: '۷ روز' }).click();
    await mine.getByTestId('payment-link-create').click();
    const address = (await mine.getByTestId('payment-link-url').textContent())!.trim();
    expect(address).toMatch(new RegExp(`^${server.url}/pay/[A-Za-z0-9_-]{22,}$`));
    await mine.getByTestId('payment-link-expiry').waitFor();
    await mine.getByTestId('payment-link-revoke').waitFor();
    // While the link is live the next step is the payer's, not a call on the student to pay.
    await mine.reload();
    const next = mine.getByTestId('timeline-next');
    await next.getByText('پیوند پرداخت فرستاده شده است و درخواست منتظر پرداخت پرداخت‌کننده است').waitFor();
    expect(await next.textContent()).not.toContain('توسط شما');

    // The parent: new to the product, on their own phone.
    const parentMobile = '09357770001';
    const parentCode = nationalCodeFor(900);
    const phone = await browser.newContext({ viewport: PHONE });
    contexts.push(phone);
    const page = await phone.newPage();
    await page.goto(address);
    // Before log-in: who asks, for what and how much, and how long the link holds (issue 44 point 4).
    const preview = page.getByTestId('pay-link-preview');
    await preview.waitFor();
    expect(await preview.getByTestId('pay-link-requester').textContent()).toBe('سارا ک.');
    expect(await preview.getByTestId('pay-link-price').textContent()).toBe(formatRial(purchase.expectedPrice));
    expect(await preview.getByTestId('pay-link-title').textContent()).toBeTruthy();
    expect(await preview.getByTestId('pay-link-expiry').textContent()).toContain('(۶ روز و ۲۳ ساعت دیگر)');
    expect(await page.getByText('کاربری در سیستم وارد نشده است.').count()).toBe(0);
    for (const field of ['student1', 'secret', 'ets.org']) expect(await preview.textContent()).not.toContain(field);
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/payment-link-guest-phone.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await preview.getByTestId('pay-link-login').click();
    const before = server.lastSmsCode(parentMobile);
    await page.locator('#login-mobile').pressSequentially(parentMobile);
    await page.getByTestId('send-code').click();
    await expect.poll(() => server.lastSmsCode(parentMobile), { timeout: WAIT_MS }).not.toBe(before);
    await page.locator('#login-code').pressSequentially(server.lastSmsCode(parentMobile)!);
    await page.getByTestId('login-by-code').click();

    // Back on the link, signed up: before paying, the identity every payer needs, and the way there.
    await page.getByTestId('pay-link').waitFor();
    expect(page.url()).toBe(address);
    await page.getByTestId('pay-link-verify').getByRole('link', { name: 'تکمیل و تایید پروفایل' }).click();
    await page.getByTestId('unverified-warning').waitFor();
    await page.getByTestId('i-understand').click();
    await page.locator('#profile_nationalCode').pressSequentially(parentCode);
    await page.getByTestId('national-code-accepted').waitFor();
    await page.locator('#profile_firstName').pressSequentially('رضا');
    await page.locator('#profile_lastName').pressSequentially('کریمی');
    await page.locator('#profile_dateOfBirth').pressSequentially('۱۳۵۰/۰۵/۰۵');
    const chooser = page.waitForEvent('filechooser');
    await page.locator('button', { hasText: 'بارگذاری تصویر کارت ملی' }).click();
    await (await chooser).setFiles({ name: 'card.jpg', mimeType: 'image/jpeg', buffer: await jpegWithExif(640, 400) });
    await page.getByTestId('profile_nationalCardImageAddress-preview').waitFor();
    const save = page.getByTestId('save-profile');
    await expect.poll(() => save.isEnabled(), { timeout: WAIT_MS }).toBe(true);
    await save.click();
    await page.getByTestId('profile-status').getByText('در انتظار بررسی').waitFor();
    // The way back to the link is offered while staff review.
    await page.getByTestId('pay-link-return').waitFor();

    // Staff approve the parent's identity; the parent is told live, in the link's words, and goes back from there.
    const admin = await loginAdmin(server);
    const tasks = await post(server, '/api/me/searchTasks', { perPage: 500 }, bearer(admin));
    const review = (tasks.body.data as { items: Array<{ id: number; title: string; subjectUserId: number }> }).items
      .filter((t) => t.subjectUserId !== null)
      .at(-1)!;
    await post(server, '/api/sys/fetchApproveProfileAsL1TaskData', { taskId: review.id }, bearer(admin));
    expect((await post(server, '/api/sys/approveProfileAsL1', { taskId: review.id }, bearer(admin))).status).toBe(200);
    await page.getByTestId('notification-bell').click();
    const ready = page.getByTestId('notification').filter({ hasText: 'پروفایل شما تأیید شد؛ اکنون می‌توانید' });
    await ready.waitFor();
    expect(await ready.textContent()).toContain('سارا ک. را با همان پیوند پرداختی که برایتان فرستاده شده');
    expect(await ready.textContent()).toContain(formatRial(purchase.expectedPrice));
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/payment-link-payer-approved-phone.png`, fullPage: true });
    await ready.getByTestId('notification-pay-link').click();

    // Back on the link: only what the parent needs.
    await page.getByTestId('pay-link-pay').waitFor();
    expect(page.url()).toBe(address);
    // The invited payer sees the same name, not masked further.
    expect(await page.getByTestId('pay-link-requester').textContent()).toBe('سارا ک.');
    expect(await page.getByTestId('pay-link-price').textContent()).toBe(formatRial(purchase.expectedPrice));
    const text = await page.getByTestId('pay-link').textContent();
    for (const field of ['student1', 'secret', 'ets.org']) expect(text).not.toContain(field);
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/payment-link-phone.png`, fullPage: true });
    const widest = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(widest).toBeLessThanOrEqual(PHONE.width);

    const pay = page.getByTestId('pay-link-pay');
    expect(await pay.textContent()).toContain('پرداخت آنلاین');
    await pay.click();
    await page.waitForURL(/\/sandbox-bank\//);
    await page.locator('[name=cardNo]').pressSequentially('6037991234567890');
    // The bank fills in the payer's own national code: the parent's card, not the student's.
    expect(await page.locator('[name=holderNationalCode]').inputValue()).toBe(parentCode);
    await page.getByRole('button', { name: 'پرداخت', exact: true }).click();
    await page.waitForURL(/\/pay-result\?payment=success&receipt=\d+$/);
    await page.getByRole('heading', { name: 'پرداخت انجام شد' }).waitFor();
    await page.getByTestId('pay-result').waitFor();
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/payment-link-done-phone.png`, fullPage: true });
    // The payer's receipt, one tap away.
    await page.getByTestId('pay-result-receipt').click();
    await page.getByTestId('receipt').waitFor();
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/payment-link-receipt-phone.png`, fullPage: true });
    // The payer's own word of it in the app (the SMS carries the same text): what they paid, for whom, and where the
    // receipt is; it links to no request, the request is not theirs to open (issue 44 point 4).
    await page.getByTestId('notification-bell').click();
    const note = page.getByTestId('notification').filter({ hasText: 'با پیوند پرداخت، پرداخت کردید' });
    await note.waitFor();
    expect(await note.textContent()).toContain(
      `سارا ک. را با پیوند پرداخت، پرداخت کردید؛ مبلغ ${formatRial(purchase.expectedPrice)}.`,
    );
    expect(await note.textContent()).toContain('رسید آن در «موجودی مالی من» است.');
    expect(await note.getByTestId('notification-request').count()).toBe(0);
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/payment-link-payer-notification-phone.png`, fullPage: true });

    // The student's request is paid and names the payer.
    const detail = (await post(server, '/api/me/fetchPurchase', { purchase: purchase.id }, bearer(student.token))).body
      .data as { purchase: { state: string } };
    expect(detail.purchase.state).toBe('paid');
    await mine.reload();
    // Named as the link names people, first name and last initial; the timeline and «پرداخت‌های آنلاین» tell one
    // story: paid at the bank by the payer, that payment listed with the receipt the student may open.
    await mine.getByTestId('request-payer').getByText('پرداخت‌کننده: رضا ک.').waitFor();
    await mine.getByTestId('timeline-step').filter({ hasText: 'از درگاه بانک توسط رضا ک. با پیوند پرداخت' }).waitFor();
    const online = mine.getByTestId('online-payment');
    await online.first().waitFor();
    expect(await online.count()).toBe(1);
    await animationsDone(mine);
    await mine.screenshot({ path: `${shots}/payment-link-student-request.png`, fullPage: true });
    await online.getByTestId('receipt-link').click();
    await mine.getByTestId('receipt').waitFor();
    // Two verified customers and a bank payment on a shared two-core machine: about a minute.
  }, 180_000);
});
