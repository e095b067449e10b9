/**
 * Paying requests end to end, on a phone (issue 8, "Done when"): a verified customer submits a TOEFL request,
 * pays it through the sandbox bank, comes back to a paid request, sees the reservation in the wallet and opens the
 * collection's receipt (and prints it); money paid for a request cancelled meanwhile lands in the wallet, and a
 * smaller request is then paid from the wallet without the bank; a payment with another person's card ends unpaid
 * with the money shown as returned to that card; a cancel on the bank's page leaves everything as it was.
 * Each test has a customer of its own, so the tests pass in any order.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { formatNumber, formatRial, toPersianDigits } from '../../src/shared/format';
import { rialInWords } from '../../src/shared/format/persian-words';
import { animationsDone, PHONE, keepSignedIn } from '../support/browser';
import { bearer, post, type RunningServer, verifiedCustomer } from '../support/server';
import { withE2eServer, choose } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

withE2eServer({}, async (t) => {
  server = t.server;
  browser = t.browser;
});

interface Customer {
  token: string;
  nationalCode: string;
  context: BrowserContext;
}

/** A verified customer signed in on a phone of their own. */
async function customer(mobileNo: string, nationalCode: string): Promise<Customer> {
  const token = await verifiedCustomer(server, mobileNo, nationalCode);
  const context = await browser.newContext({ viewport: PHONE });
  contexts.push(context);
  await keepSignedIn(context, token);
  return { token, nationalCode, context };
}

/** Fills the TOEFL desk for a dollar amount and submits it; returns the request's number from the pay step. */
async function submitToefl(page: Page, dollars: string): Promise<number> {
  await page.goto(`${server.url}/desks/toeflGeneralCpr`);
  await page.getByTestId('desk-page').waitFor();
  await choose(page, 'currency', 'دلار آمریکا');
  await page.locator('#root_amount').pressSequentially(dollars);
  await choose(page, 'requestedPaymentMethodGroup', 'کارت اعتباری بین‌المللی');
  await page.locator('#root_targetPageAddress').pressSequentially('https://ets.example.org');
  await page.locator('#root_targetPageUsername').pressSequentially('student');
  await page.locator('#root_targetPagePassword').pressSequentially('secret');
  await page.getByTestId('price-summary').waitFor();
  await page.getByTestId('confirm-price').click();
  await page.waitForFunction(
    () => !document.querySelector<HTMLButtonElement>('[data-testid=submit-request]')?.disabled,
  );
  await page.getByTestId('submit-request').click();
  await page.getByTestId('pay-step').waitFor();
  const id = Number(new URL(page.url()).searchParams.get('purchase'));
  expect(id).toBeGreaterThan(0);
  return id;
}

/** From the pay step (or an opened request) on to the sandbox bank's page. */
async function toBank(page: Page): Promise<void> {
  const pay = page.getByTestId('pay-purchase');
  expect(await pay.textContent()).toContain('پرداخت آنلاین');
  await pay.click();
  await page.waitForURL(/\/sandbox-bank\//);
  await page.locator('[name=cardNo]').waitFor();
}

async function payAtBank(page: Page, holderNationalCode?: string): Promise<void> {
  await page.locator('[name=cardNo]').pressSequentially('6037991234567890');
  if (holderNationalCode) {
    await page.locator('[name=holderNationalCode]').fill('');
    await page.locator('[name=holderNationalCode]').pressSequentially(holderNationalCode);
  }
  await page.getByRole('button', { name: 'پرداخت', exact: true }).click();
}

const outcome = (page: Page) => page.getByTestId('payment-outcome');
const balanceOf = async (c: Customer) =>
  (await post(server, '/api/accounting/userBalance', {}, bearer(c.token))).body.data as {
    balance: number;
    reserved: number;
  };
const purchaseOf = async (c: Customer, id: number) =>
  (await post(server, '/api/me/fetchPurchase', { purchase: id }, bearer(c.token))).body.data as {
    purchase: { state: string; expectedPrice: number; payablePrice: number };
  };

describe('paying requests', () => {
  it('pays a TOEFL request through the sandbox bank, lands on the paid request, sees the reservation and the receipt', async () => {
    const me = await customer('09351110001', '1234567891');
    const page = await me.context.newPage();
    const id = await submitToefl(page, '120');
    // The pay step: the whole price online, nothing from an empty wallet.
    const expected = (await purchaseOf(me, id)).purchase.expectedPrice;
    expect(await page.getByTestId('purchase-expected-price').textContent()).toBe(formatRial(expected));
    expect(await page.getByTestId('purchase-wallet-amount').textContent()).toBe(formatRial(0));
    expect(await page.getByTestId('purchase-payable-price').textContent()).toBe(formatRial(expected));
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/pay-step-phone.png`, fullPage: true });

    // My wallet open in another tab follows the payment live (wallet.changed), without a reload.
    const watcher = await me.context.newPage();
    await watcher.goto(`${server.url}/request/myWallet`);
    await watcher.getByTestId('wallet-reserved').getByText('۰', { exact: true }).waitFor();

    await toBank(page);
    // The bank fills in the payer's own national code.
    expect(await page.locator('[name=holderNationalCode]').inputValue()).toBe(me.nationalCode);
    await payAtBank(page);

    await page.waitForURL(`${server.url}/request/myRequests?purchase=${id}&payment=success`);
    await outcome(page).getByText('پرداخت با موفقیت انجام شد.').waitFor();
    await page.getByTestId('request-detail').getByTestId('request-state').getByText('پرداخت شده').waitFor();
    await page.getByTestId('state-history').getByText('پرداخت آنلاین').waitFor();
    expect((await purchaseOf(me, id)).purchase.state).toBe('paid');
    await watcher.getByTestId('wallet-reserved').getByText(formatNumber(expected)).waitFor();
    await watcher.close();
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/my-requests-paid-phone.png`, fullPage: true });

    // The wallet: nothing left in it, the whole price reserved; the reservation is the final (green) row of its
    // trace code and the collection before it is greyed.
    await page.goto(`${server.url}/request/myWallet`);
    await page.getByTestId('wallet-reserved').getByText(formatNumber(expected)).waitFor();
    expect(await balanceOf(me)).toEqual({ balance: 0, reserved: expected });
    const rows = page.getByTestId('myTransactions-row');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).getAttribute('data-row-color')).toBe('green');
    expect(await rows.nth(1).getAttribute('data-row-color')).toBe('grey');
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/wallet-phone.png`, fullPage: true });

    // The receipt of the collection, from the wallet's collection row.
    await rows.nth(1).getByTestId('transaction-receipt').click();
    await page.waitForURL(/\/request\/receipts\/\d+$/);
    const receipt = page.getByTestId('receipt');
    await receipt.waitFor();
    expect(await receipt.getByTestId('receipt-amount-words').textContent()).toBe(`به حروف: ${rialInWords(expected)}`);
    expect(await receipt.getByTestId('receipt-status').textContent()).toBe('دریافت شد');
    expect(await receipt.getByTestId('receipt-card').textContent()).toBe('۶۰۳۷۹۹******۷۸۹۰');
    expect(await receipt.getByTestId('receipt-customer').textContent()).toBe('سارا کریمی');
    expect(await receipt.getByTestId('receipt-purchase').textContent()).toContain(toPersianDigits(id));
    expect(await receipt.getByTestId('receipt-refunded').count()).toBe(0);
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/receipt-phone.png`, fullPage: true });
    // Printed: the receipt alone, on one page.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.app-header').isVisible()).toBe(false);
    expect(await page.getByTestId('print-receipt').isVisible()).toBe(false);
    // Paid at the sandbox bank: the printed receipt itself says it is a test, in place of the page's banner.
    expect(await page.locator('#test-instance-banner').isVisible()).toBe(false);
    expect(await receipt.getByTestId('receipt-test-instance').textContent()).toBe(
      'رسید آزمایشی: این پرداخت در درگاه آزمایشی انجام شده و پولی جابه‌جا نشده است.',
    );
    await page.screenshot({ path: `${shots}/receipt-print.png`, fullPage: true });
    const pdf = await page.pdf({ path: `${shots}/receipt.pdf`, format: 'A4', printBackground: true });
    expect((pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length).toBe(1);
    await page.emulateMedia({ media: 'screen' });
    await page.close();
  });

  it('credits the wallet for a request cancelled while at the bank, then pays a smaller request from the wallet', async () => {
    const me = await customer('09351110002', '2345678917');
    const bank = await me.context.newPage();
    const first = await submitToefl(bank, '200');
    await toBank(bank);

    // Meanwhile, in another tab, the customer cancels that request (after confirming).
    const tab = await me.context.newPage();
    await tab.goto(`${server.url}/request/myRequests?purchase=${first}`);
    await tab.getByTestId('request-detail').getByTestId('cancel-purchase').click();
    await tab.getByTestId('confirm-cancel-purchase').click();
    await tab.getByTestId('request-detail').getByTestId('request-state').getByText('لغو شد').waitFor();
    await tab.close();

    await payAtBank(bank);
    await bank.waitForURL(`${server.url}/request/myRequests?purchase=${first}&payment=walletCredited`);
    await outcome(bank).getByText('مبلغ به کیف پول شما واریز شد، اما درخواست پرداخت نشد.').waitFor();
    const paidIn = (await purchaseOf(me, first)).purchase.expectedPrice;
    expect(await balanceOf(me)).toEqual({ balance: paidIn, reserved: 0 });
    expect((await purchaseOf(me, first)).purchase.state).toBe('cancelled');

    // A smaller request: the wallet covers it, one button pays it without the bank.
    const page = await me.context.newPage();
    const second = await submitToefl(page, '50');
    const expected = (await purchaseOf(me, second)).purchase.expectedPrice;
    expect(expected).toBeLessThan(paidIn);
    expect(await page.getByTestId('purchase-payable-price').textContent()).toBe(formatRial(0));
    expect(await page.getByTestId('purchase-wallet-amount').textContent()).toBe(formatRial(expected));
    await page.getByTestId('pay-purchase').getByText('پرداخت از کیف پول').click();
    await page.waitForURL(`${server.url}/request/myRequests?purchase=${second}&payment=success`);
    await page.getByTestId('request-detail').getByTestId('request-state').getByText('پرداخت شده').waitFor();
    await page.getByTestId('state-history').getByText('پرداخت از کیف پول').waitFor();
    expect(await balanceOf(me)).toEqual({ balance: paidIn - expected, reserved: expected });

    // My account sums it up.
    await page.goto(`${server.url}/request/myAccount`);
    await page.getByTestId('account-summary').getByTestId('wallet-reserved').waitFor();
    await page.getByTestId('request-count-paid').getByText('پرداخت شده: ۱').waitFor();
    await page.getByTestId('request-count-cancelled').waitFor();
    await page.getByTestId('profile-status').getByText('هویت شما تایید شده است.').waitFor();
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/account-phone.png`, fullPage: true });
    await bank.close();
    await page.close();
  });

  it("refuses a payment with another person's card: the request stays unpaid and the money goes back to that card", async () => {
    const me = await customer('09351110003', '3456789122');
    const page = await me.context.newPage();
    const id = await submitToefl(page, '80');
    await toBank(page);
    await payAtBank(page, '4567891236');

    await page.waitForURL(`${server.url}/request/myRequests?purchase=${id}&payment=cardMismatch`);
    await outcome(page).getByText('کارت پرداخت‌کننده به نام شما نبود.').waitFor();
    expect(await outcome(page).textContent()).toContain('فقط به همان کارت پرداخت‌کننده');
    const detail = page.getByTestId('request-detail');
    await detail.getByTestId('request-state').getByText('در انتظار پرداخت').waitFor();
    await detail.getByTestId('online-payment').getByText('کارت دیگری؛ بازگشت به همان کارت').waitFor();
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/my-requests-card-mismatch-phone.png`, fullPage: true });
    expect((await purchaseOf(me, id)).purchase.state).toBe('waitingForPayment');
    expect(await balanceOf(me)).toEqual({ balance: 0, reserved: 0 });

    const receiptHref = await detail.getByTestId('receipt-link').getAttribute('href');
    expect(receiptHref).toMatch(/^\/request\/receipts\/\d+$/);

    // The wallet lists the refund to that card as the failed (red) end of its story, with its amount.
    const payable = (await purchaseOf(me, id)).purchase.payablePrice;
    await page.goto(`${server.url}/request/myWallet`);
    const rows = page.getByTestId('myTransactions-row');
    await rows.first().getByText('بازگشت وجه به کارت پرداخت‌کننده', { exact: false }).waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-row-color')).toBe('red');
    expect(await rows.first().locator('[data-label=مبلغ]').textContent()).toBe(formatRial(payable));

    // Its receipt says the money went back to the paying card.
    expect(await rows.first().getByTestId('transaction-receipt').getAttribute('href')).toBe(receiptHref);
    await rows.first().getByTestId('transaction-receipt').click();
    await page.getByTestId('receipt-refunded').getByText('همان کارت پرداخت‌کننده', { exact: false }).waitFor();
    expect(await page.getByTestId('receipt-status').textContent()).toBe('بازگشت به کارت پرداخت‌کننده');
    await page.close();
  });

  it('offers a fresh price for a request whose price expired, and pays at it once the customer confirms', async () => {
    const me = await customer('09351110005', '1112223339');
    const page = await me.context.newPage();
    const id = await submitToefl(page, '70');
    const expected = (await purchaseOf(me, id)).purchase.expectedPrice;
    // The price's lifetime (five minutes by default, at least 30 s) passes: rather than wait it out, the request's
    // quote is moved to end a few seconds from now, and the customer comes back to the page, which counts it down.
    await sql`update quotes set expires_at = now() + interval '3 seconds'
      where id = (select quote_id from purchases where id = ${id})`.execute(server.app.database.db);
    await page.reload();
    // The pay step counts the price's time down, then says it ran out.
    await page.getByTestId('purchase-quote-left').getByText('اعتبار قیمت تمام شده', { exact: false }).waitFor();
    await page.getByTestId('pay-purchase').click();
    const fresh = page.getByTestId('fresh-quote');
    await fresh.getByText('اعتبار قیمت این درخواست به پایان رسیده است.').waitFor();
    // Rates did not change: the fresh price is the same, and nothing is paid until it is confirmed.
    expect(await fresh.getByTestId('fresh-payable-price').textContent()).toBe(formatRial(expected));
    expect((await purchaseOf(me, id)).purchase.state).toBe('waitingForPayment');
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/pay-step-fresh-quote-phone.png`, fullPage: true });
    await fresh.getByTestId('confirm-fresh-quote').click();
    await page.waitForURL(/\/sandbox-bank\//);
    await page.locator('[name=cardNo]').waitFor();
    await page.close();
  });

  it("leaves everything as it was when the customer cancels on the bank's page", async () => {
    const me = await customer('09351110004', '5678912348');
    const page = await me.context.newPage();
    const id = await submitToefl(page, '60');
    const before = await purchaseOf(me, id);
    await toBank(page);
    // The moment the form is sent the page says it is leaving and marks its buttons; a second send while waiting
    // is refused. What the page showed is kept in the tab's sessionStorage (the bank and the app share an origin) by
    // a listener that runs after the page's own, and read back once the customer has landed.
    await page.evaluate(() => {
      const form = document.querySelector('form')!;
      let sends = 0;
      let tappedAgain = false;
      form.addEventListener('submit', (e) => {
        if (!e.defaultPrevented) sends++;
        const status = document.querySelector<HTMLElement>('[role=status]#leaving')!;
        const seen = {
          leaving: status.hidden ? null : status.textContent,
          buttons: [...form.querySelectorAll('button')].map((b) => b.getAttribute('aria-disabled')),
          sends,
        };
        sessionStorage.setItem('bank-leaving', JSON.stringify(seen));
        // A second tap, on pay, while the first send is on its way (after this event: a form cannot be sent again
        // from within its own submit event).
        if (!tappedAgain) {
          tappedAgain = true;
          setTimeout(() => form.requestSubmit(form.querySelector<HTMLButtonElement>('#pay')));
        }
      });
    });
    await page.getByRole('button', { name: 'انصراف', exact: true }).click();
    await page.waitForURL(`${server.url}/request/myRequests?purchase=${id}&payment=cancelled`);
    await outcome(page).getByText('پرداخت را در درگاه بانک لغو کردید.').waitFor();
    expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('bank-leaving')))!)).toEqual({
      leaving: 'در حال انصراف و بازگشت به سایت پذیرنده…',
      buttons: ['true', 'true'],
      sends: 1,
    });
    await page.getByTestId('request-detail').getByTestId('request-state').getByText('در انتظار پرداخت').waitFor();
    await page.getByTestId('request-detail').getByTestId('pay-purchase').waitFor();
    const after = await purchaseOf(me, id);
    expect(after.purchase.state).toBe('waitingForPayment');
    expect(after.purchase.expectedPrice).toBe(before.purchase.expectedPrice);
    expect(await balanceOf(me)).toEqual({ balance: 0, reserved: 0 });
    await page.goto(`${server.url}/request/myWallet`);
    await page.getByTestId('my-transactions-empty').waitFor();
    await page.close();
  });
});
