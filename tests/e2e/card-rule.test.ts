/**
 * The card rule in Chromium on a phone (390×844), the way it runs with ZarinPal (issue 29 part 3, decision 024): the
 * sandbox bank in zarinpal mode and the sandbox card inquiry. A new customer submits a request, registers a card at the
 * pay step without leaving it (typing Persian digits key by key, the bank named after six digits), pays with it at
 * the bank (which refuses another card first), lands on the paid request, and finds the card in their profile. A card
 * the inquiry does not answer goes to staff, who verify it from the task queue's card-review dialog.
 * One server: CI time matters.
 */
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { latinDigits } from '../support/page-checks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_FOREIGN_CARDS, SANDBOX_UNANSWERED_CARDS } from '../../src/server/modules/cards/inquiry';
import { toPersianDigits } from '../../src/shared/digits';
import { animationsDone, DESKTOP, keepSignedIn, launchBrowser, PHONE } from '../support/browser';
import { submitToefl } from '../support/pay-flow';
import { bearer, loginAdmin, post, type RunningServer, startServer, verifiedCustomer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let staffContext: BrowserContext;

beforeAll(async () => {
  server = await startServer({ env: { SANDBOX_BANK_MODE: 'zarinpal', CARD_INQUIRY_DRIVER: 'sandbox' } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await context?.close();
  await staffContext?.close();
  await browser?.close();
  await server?.stop();
});

/** A Bank Saman card, Luhn-valid. */
const CARD = '6219861234567898';

describe('the card rule on a phone', () => {
  it('a new customer registers a card at the pay step and pays the request with it', async () => {
    const token = await verifiedCustomer(server, '09351120001', '1234567891');
    context = await browser.newContext({ viewport: PHONE });
    await keepSignedIn(context, token);
    const page = await context.newPage();
    const id = await submitToefl(page, server.url, '120');

    // No card yet: the pay step says why one is needed and offers the form; paying waits for a card.
    await page.getByTestId('pay-card-needed').waitFor();
    expect(await page.getByTestId('pay-purchase').isDisabled()).toBe(true);
    const input = page.getByTestId('card-number-input');
    await input.click();
    await input.pressSequentially(toPersianDigits('621986'));
    await page.getByTestId('card-number-help').getByText('بانک سامان').waitFor();
    await input.pressSequentially(toPersianDigits(` ${CARD.slice(6, 10)} ${CARD.slice(10)}`));
    await page.getByTestId('card-number-help').getByText('بانک سامان —').waitFor();
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/card-rule-pay-step-add-card-phone.png`, fullPage: true });
    await page.getByTestId('save-card').click();

    // Verified by the inquiry at once, and chosen by itself as the only card.
    const only = page.getByTestId('pay-card-only');
    await only.waitFor();
    expect(await only.getByTestId('card-masked').textContent()).toBe(toPersianDigits('6219 86** **** 7898'));
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid=pay-purchase]')?.disabled,
    );
    await page.getByTestId('pay-purchase').click();
    await page.waitForURL(/\/sandbox-bank\//);

    // The bank takes only the named card: another is refused with a Persian message.
    await page.locator('#required-card').waitFor();
    expect(await page.locator('[name=holderNationalCode]').count()).toBe(0);
    await page.locator('[name=cardNo]').pressSequentially(SANDBOX_FOREIGN_CARDS[0]!);
    await page.getByRole('button', { name: 'پرداخت', exact: true }).click();
    await page.getByText('پذیرنده فقط پرداخت با کارت').waitFor();
    await page.locator('[name=cardNo]').fill('');
    await page.locator('[name=cardNo]').pressSequentially(toPersianDigits(CARD));
    await page.getByRole('button', { name: 'پرداخت', exact: true }).click();

    await page.waitForURL(`${server.url}/request/myRequests?purchase=${id}&payment=success`);
    await page.getByTestId('payment-outcome').getByText('پرداخت با موفقیت انجام شد.').waitFor();
    await page.getByTestId('request-detail').getByTestId('request-state').getByText('پرداخت شده').waitFor();
    const paid = await post(server, '/api/me/fetchPurchase', { purchase: id }, bearer(token));
    expect((paid.body.data as { purchase: { state: string } }).purchase.state).toBe('paid');

    // The profile lists the card, verified.
    await page.goto(`${server.url}/request/myProfile`);
    const list = page.getByTestId('cards-list');
    await list.getByTestId('card-state').getByText('تایید شده').waitFor();
    await list.getByText('بانک سامان').waitFor();
    await page.getByTestId('my-cards').scrollIntoViewIfNeeded();
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/card-rule-profile-cards-phone.png`, fullPage: true });
  });

  it('staff verify a card the inquiry did not answer from its review task', async () => {
    const token = await verifiedCustomer(server, '09351120002', '0012345679');
    const saved = await post(
      server,
      '/api/me/saveUserCard',
      { cardNumber: SANDBOX_UNANSWERED_CARDS[0] },
      bearer(token),
    );
    expect((saved.body.data as { state: string }).state).toBe('pending');
    const task = await server.app.database.db
      .selectFrom('tasks')
      .select('id')
      .where('userCardId', '=', (saved.body.data as { id: number }).id)
      .executeTakeFirstOrThrow();

    staffContext = await browser.newContext({ viewport: DESKTOP });
    await keepSignedIn(staffContext, await loginAdmin(server));
    const staff = await staffContext.newPage();
    await staff.goto(`${server.url}/management/tasks`);
    await staff.getByTestId(`open-task-${task.id}`).click();
    const dialog = staff.getByTestId('card-review');
    await dialog.getByText('بانک پاسارگاد').waitFor();
    expect(await dialog.getByTestId('review-card-number').textContent()).toBe('۵۰۲۲ ۲۹۱۰ ۱۲۳۴ ۵۶۷۲');
    expect((await latinDigits(staff)).found).toEqual([]);
    await dialog.getByTestId('approve-card').click();
    await dialog.waitFor({ state: 'hidden' });
    const cards = await post(server, '/api/me/searchUserCards', undefined, bearer(token));
    expect((cards.body.data as { items: Array<{ state: string; verifiedBy: string }> }).items[0]).toMatchObject({
      state: 'verified',
      verifiedBy: 'staff',
    });
  });
});
