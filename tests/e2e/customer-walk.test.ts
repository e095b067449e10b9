/**
 * What a new customer tripped over (issue 32), walked again on a 390×844 phone, typed and tapped: the identity
 * notice is the first thing an unverified customer sees on a desk, and the form survives the detour to the profile
 * and back; Persian digits typed stay Persian when a field is left (amount, birth date, the national code once
 * saved); an error line appearing moves no control under the finger (its box is measured before and after); the
 * birth-date calendar opens decades back and a future date field shows a future example; every amount on the price
 * summary, the request, the wallet and the receipt reads number then unit from right to left (the rendered boxes of
 * the number and the unit, not the text); and a refused card's receipt says whose card it was and where the money
 * went, each payment with its own receipt.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partsOfIso, todayIso } from '../../src/shared/calendar/month-grid';
import { toPersianDigits } from '../../src/shared/digits';
import { keepSignedIn, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
import { jpegWithExif } from '../support/images';
import { moneyHelpers, nationalCodeFor } from '../support/money';
import { loginByCode, type RunningServer, startServer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
let money: ReturnType<typeof moneyHelpers>;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  money = moneyHelpers(server);
  await money.ready();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function phoneFor(token: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: PHONE });
  await keepSignedIn(context, token);
  return context;
}

const box = async (locator: Locator) => (await locator.boundingBox())!;

/**
 * Every amount drawn on the page (components/RialText) whose number is not to the right of its unit, by the boxes
 * the browser drew; and how many were measured.
 */
async function amountsOutOfOrder(page: Page): Promise<{ wrong: string[]; measured: number }> {
  const amounts = page.locator('.amount');
  const wrong: string[] = [];
  let measured = 0;
  for (let i = 0; i < (await amounts.count()); i++) {
    const amount = amounts.nth(i);
    if (!(await amount.isVisible())) continue;
    const number = await amount.locator('.amount-number').boundingBox();
    const unit = await amount.locator('.amount-unit').boundingBox();
    if (!number || !unit) continue;
    measured++;
    // Right to left: the number first (on the right), the unit after it (on the left), on one line.
    const inOrder = number.x >= unit.x + unit.width - 1 && Math.abs(number.y - unit.y) < number.height;
    if (!inOrder) wrong.push((await amount.textContent()) ?? '');
  }
  return { wrong, measured };
}

describe('an unverified customer on a desk', () => {
  it('is told first, keeps the form through the profile, and keeps the digits they typed', async () => {
    const context = await phoneFor(await loginByCode(server, '09187770001'));
    const page = await context.newPage();
    await page.goto(`${server.url}/desks/toeflGeneralCpr`);
    const notice = page.getByTestId('level-required');
    await notice.waitFor();
    // Above every field, and on the first screen without scrolling.
    const noticeBox = await box(notice);
    expect(noticeBox.y + noticeBox.height).toBeLessThan(PHONE.height);
    expect(noticeBox.y).toBeLessThan((await box(page.locator('#root_currency'))).y);
    if (takeScreenshots) await page.screenshot({ path: `${shots}/desk-identity-first-phone.png` });

    await page.locator('#root_amount').pressSequentially('۲۲۰');
    await page.locator('#root_targetPageUsername').pressSequentially('student');
    // Left: the amount keeps the Persian digits it was typed in.
    expect(await page.locator('#root_amount').inputValue()).toBe('۲۲۰');

    await notice.getByTestId('complete-profile').click();
    await page.waitForURL(/\/request\/myProfile\?back=/);
    await page.getByTestId('i-understand').click();

    // A future example is no birth date: the birth date's calendar opens about thirty years back.
    const birth = page.locator('#profile_dateOfBirth');
    expect(await birth.getAttribute('placeholder')).toBe('۱۳۷۰/۰۶/۳۱');
    await page.getByTestId('profile_dateOfBirth-picker').click();
    const thirtyYearsAgo = new Date(`${todayIso()}T00:00:00Z`);
    thirtyYearsAgo.setUTCFullYear(thirtyYearsAgo.getUTCFullYear() - 30);
    const opened = page.getByTestId('date-picker-year');
    await opened.waitFor();
    expect(Number(await opened.inputValue())).toBe(partsOfIso(thirtyYearsAgo.toISOString().slice(0, 10), 'fa').year);
    await page.keyboard.press('Escape');

    // An error appearing under the first name moves nothing below it.
    const lastName = page.locator('#profile_lastName');
    const before = await box(lastName);
    await page.locator('#profile_firstName').click();
    await lastName.click();
    await page.locator('[role=alert]', { hasText: 'نام را وارد نمایید.' }).waitFor();
    expect(await box(lastName)).toEqual(before);

    await page.locator('#profile_firstName').pressSequentially('مریم');
    await lastName.pressSequentially('احمدی');
    const code = nationalCodeFor(901);
    await page.locator('#profile_nationalCode').pressSequentially(toPersianDigits(code));
    await page.getByTestId('national-code-accepted').waitFor();
    await birth.pressSequentially('۱۳۷۲/۴/۱۵');
    await page.locator('#profile_firstName').click();
    // Completed to the canonical text, in the digits it was typed in.
    expect(await birth.inputValue()).toBe('۱۳۷۲/۰۴/۱۵');
    const card = path.join(os.tmpdir(), `card32-${Date.now()}.jpg`);
    writeFileSync(card, await jpegWithExif(640, 400));
    await page.getByTestId('profile_nationalCardImageAddress-file').setInputFiles(card);
    await page.getByTestId('profile_nationalCardImageAddress-preview').waitFor();
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid=save-profile]')?.disabled,
    );
    await page.getByTestId('save-profile').click();
    const back = page.getByTestId('back-to-request');
    await back.waitFor();
    // Saved and read back from the server: still in Persian digits.
    expect(await page.locator('#profile_nationalCode').inputValue()).toBe(toPersianDigits(code));
    if (takeScreenshots) await page.screenshot({ path: `${shots}/profile-back-to-request-phone.png` });

    await back.click();
    await page.waitForURL(`${server.url}/desks/toeflGeneralCpr`);
    await page.getByTestId('draft-restored').waitFor();
    // The desk opens at its top, where the note that the form came back is read first, not mid-page where the
    // profile's save button was.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    const restored = await box(page.getByTestId('draft-restored'));
    expect(restored.y + restored.height).toBeLessThan(PHONE.height);
    expect(await page.locator('#root_amount').inputValue()).toBe('۲۲۰');
    expect(await page.locator('#root_targetPageUsername').inputValue()).toBe('student');
    await context.close();
  });

  it('shows a day to come as the example of a future date', async () => {
    const context = await phoneFor(await loginByCode(server, '09187770002'));
    const page = await context.newPage();
    await page.goto(`${server.url}/desks/ieltsRegistrationAndCpr`);
    const exam = page.locator('#root_preferredTestDate');
    await exam.waitFor();
    const example = (await exam.getAttribute('placeholder'))!;
    const year = Number(example.slice(0, 4).replace(/[۰-۹]/g, (d) => String('۰۱۲۳۴۵۶۷۸۹'.indexOf(d))));
    expect(year).toBeGreaterThan(partsOfIso(todayIso(), 'fa').year);
    expect(await page.locator('#root_passportExpiry').getAttribute('placeholder')).toBe(example);
    await context.close();
  });
});

describe('amounts and receipts of a verified customer', () => {
  it('reads every amount number then unit, right to left, and a refused card says whose it was', async () => {
    const who = await money.customer();
    await money.deposit(who, 1_500_000);
    const context = await phoneFor(who.token);
    const page = await context.newPage();

    // The price summary of a desk.
    await page.goto(`${server.url}/desks/toeflGeneralCpr`);
    await page.locator('#root_currency').click();
    await page.getByRole('option', { name: 'دلار آمریکا' }).first().click();
    await page.locator('#root_amount').pressSequentially('۴۰');
    await page.locator('#root_requestedPaymentMethodGroup').click();
    await page.getByRole('option', { name: 'کارت اعتباری بین‌المللی' }).click();
    await page.getByTestId('price-summary').waitFor();
    await page.getByTestId('price-summary').scrollIntoViewIfNeeded();
    const summary = await amountsOutOfOrder(page);
    expect(summary.wrong).toEqual([]);
    expect(summary.measured).toBeGreaterThanOrEqual(8);

    // A request paid at the bank with someone else's card: refused, the money back to that card.
    const purchase = await money.request(who, 40);
    const paying = await money.payOk(who, purchase.id);
    const other = nationalCodeFor(902);
    await money.payAtSandboxBank(who, paying.gatewayUrl!, other);

    await page.goto(`${server.url}/request/myRequests?purchase=${purchase.id}`);
    const detail = page.getByTestId('request-detail');
    await detail.getByTestId('online-payment').first().waitFor();
    const requestAmounts = await amountsOutOfOrder(page);
    expect(requestAmounts.wrong).toEqual([]);
    expect(requestAmounts.measured).toBeGreaterThanOrEqual(6);
    // Each payment in its own block, with its own receipt.
    const payments = detail.getByTestId('online-payment');
    for (let i = 0; i < (await payments.count()); i++) {
      expect(await payments.nth(i).getByTestId('receipt-link').count()).toBeLessThanOrEqual(1);
    }
    await payments.first().getByTestId('receipt-link').click();

    const receipt = page.getByTestId('receipt');
    await receipt.waitFor();
    expect(await receipt.getByTestId('receipt-payer').textContent()).toContain(toPersianDigits(other));
    expect(await receipt.getByTestId('receipt-money-went').textContent()).toContain('به کیف پول شما واریز نشد');
    expect(await receipt.getByTestId('receipt-trace-code').textContent()).toMatch(/^[۰-۹]+$/);
    const receiptAmounts = await amountsOutOfOrder(page);
    expect(receiptAmounts.wrong).toEqual([]);
    expect(receiptAmounts.measured).toBeGreaterThanOrEqual(1);
    if (takeScreenshots) await page.screenshot({ path: `${shots}/receipt-refused-card-phone.png`, fullPage: true });

    await page.goto(`${server.url}/request/myWallet`);
    await page.getByTestId('wallet-balance').waitFor();
    await page.getByTestId('myTransactions-row').first().waitFor();
    const wallet = await amountsOutOfOrder(page);
    expect(wallet.wrong).toEqual([]);
    expect(wallet.measured).toBeGreaterThanOrEqual(6);
    await context.close();
  });
});
