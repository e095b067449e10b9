/**
 * Desks end to end: from the service menu to My requests, for a desk of each category in the menu and the
 * cash-delivery desk, with Persian validation messages, the server's quote, one request per double click;
 * and a live rate change by staff re-quoting an open desk page without a reload.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, keepSignedIn } from '../support/browser';
import { ADMIN_MOBILE, ADMIN_PASSWORD, bearer, post, type RunningServer, verifiedCustomer } from '../support/server';
import { withE2eServer, choose } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
let customer: BrowserContext;
let token: string;

withE2eServer({}, async (t) => {
  server = t.server;
  browser = t.browser;
  token = await verifiedCustomer(server, '09191234567', '0499370899');
  customer = await browser.newContext({ viewport: PHONE });
  await keepSignedIn(customer, token);
});

const fieldError = (page: Page, field: string) => page.locator(`[data-field=${field}] [role=alert]`);

const DESKS = [
  { category: 'educational', desk: 'uafCpr', title: 'پرداخت هزینه اپلیکیشن دانشگاه', cash: false },
  { category: 'internationalExams', desk: 'toeflGeneralCpr', title: 'آزمون تافل', cash: false },
  { category: 'embassies', desk: 'canadaEmbassyAppointmentCpr', title: 'وقت سفارت کانادا', cash: false },
  { category: 'others', desk: 'foriWire', title: 'تحویل نقدی ارز', cash: true },
] as const;

describe('desks', () => {
  for (const { category, desk, title, cash } of DESKS) {
    it(`${desk}: labels, Persian messages, quote, one request per double click, listed in My requests`, async () => {
      const page = await customer.newPage();
      await page.goto(`${server.url}/services/${category}`);
      await page.getByRole('link', { name: new RegExp(title) }).click();
      await page.waitForURL(`${server.url}/desks/${desk}`);
      await page.getByTestId('desk-page').waitFor();

      if (cash) {
        // Labels of the form (the list beside submit repeats field names in its messages).
        const labels = page.locator('form label');
        await labels.getByText('روش تحویل').waitFor();
        await labels.getByText('مشخصات بانکی گیرنده').waitFor();
        await labels.getByText('بابت', { exact: true }).waitFor();
        expect(await page.locator('#root_targetPageUsername').isVisible()).toBe(false);
      } else {
        const labels = page.locator('form label');
        await labels.getByText('روش پرداخت').waitFor();
        await labels.getByText('آدرس صفحه پرداخت').waitFor();
      }

      // Bad values: the form's own Persian messages, listed beside the submit button that waits for them,
      // and beside a field as its value is typed.
      expect(await page.getByTestId('submit-request').isDisabled()).toBe(true);
      if (desk === 'toeflGeneralCpr') {
        // The desk is paid in dollars only: its one currency is chosen for the customer.
        await page.locator('#root_currency').getByText('دلار آمریکا').waitFor();
      } else await page.getByTestId('submit-missing').getByText('ارز را انتخاب نمایید.').waitFor();
      await page.getByTestId('submit-missing').getByText('مبلغ را وارد نمایید.').waitFor();
      await page.fill('#root_amount', 'abc');
      await fieldError(page, 'amount').getByText('مبلغ، معتبر نیست.').waitFor();
      await page.fill('#root_amount', '0');
      await fieldError(page, 'amount').getByText('مبلغ باید بزرگتر از صفر باشد.').waitFor();
      await page.fill('#root_targetPageAddress', 'x'.repeat(101));
      await fieldError(page, 'targetPageAddress').getByText('حداکثر ۱۰۰ کاراکتر').waitFor();

      // Good values: the server's quote appears.
      await choose(page, 'currency', 'دلار آمریکا');
      await page.fill('#root_amount', '۱۲۰');
      await choose(page, 'requestedPaymentMethodGroup', cash ? 'تحویل نقدی در محل' : 'کارت اعتباری بین‌المللی');
      await page.fill(
        '#root_targetPageAddress',
        cash ? 'Ali Rezaei, DE89370400440532013000' : 'https://pay.example.org',
      );
      if (!cash) {
        await page.fill('#root_targetPageUsername', 'me@example.org');
        await page.fill('#root_targetPagePassword', 'secret');
      }
      await page.getByTestId('price-summary').waitFor();
      expect(await page.getByTestId('gross-price').textContent()).toBe('۱۲۴٬۲۰۰٬۰۰۰ ریال');
      expect(await page.getByTestId('submit-request').isDisabled()).toBe(true);
      await page
        .getByTestId('submit-missing')
        .getByText('مبلغ قابل پرداخت را بررسی و تایید کنید', { exact: false })
        .waitFor();
      await page.getByTestId('confirm-price').click();
      if (desk === 'uafCpr') await page.screenshot({ path: `${shots}/desk-quote-phone.png`, fullPage: true });
      await page.getByTestId('submit-request').dblclick();
      // The pay step takes the form's place; the request waits for payment in My requests.
      await page.getByTestId('pay-step').waitFor();
      expect(page.url()).toMatch(new RegExp(`/desks/${desk}\\?purchase=\\d+$`));
      await page.getByTestId('pay-step').getByRole('link', { name: 'درخواست‌های من' }).click();
      await page.waitForURL(/\/request\/myRequests\?purchase=\d+$/);
      // The request opened at the top, drawn with its desk, and the list below it.
      await page.getByTestId('request-detail').getByRole('heading', { name: title }).waitFor();
      await page.getByTestId('myRequests-row').filter({ hasText: title }).first().waitFor();

      if (desk === 'uafCpr') {
        // The state filter asks the server; no request of this customer has succeeded yet.
        await page.getByRole('combobox', { name: 'وضعیت' }).click();
        await page.getByRole('option', { name: 'انجام شد' }).click();
        await page.getByText('موردی با این فیلتر یافت نشد').waitFor();
        await page.getByRole('combobox', { name: 'وضعیت' }).click();
        await page.getByRole('option', { name: 'در انتظار پرداخت' }).click();
        await page.getByTestId('myRequests-row').first().waitFor();
        await page.screenshot({ path: `${shots}/my-requests-phone.png`, fullPage: true });
      }
      const mine = await post(server, '/api/me/searchPurchases', { desk }, bearer(token));
      expect((mine.body.data as { total: number }).total).toBe(1);
      await page.close();
    });
  }

  it.each([
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const)(
    'asks a guest to log in above the form with a button sized to its label (%s)',
    async (_name, viewport) => {
      const guest = await browser.newContext({ viewport });
      const page = await guest.newPage();
      await page.goto(`${server.url}/desks/uafCpr`);
      const note = page.getByTestId('guest-login-note');
      const button = note.getByRole('button', { name: 'ورود' });
      await button.waitFor();
      const [noteBox, buttonBox] = [(await note.boundingBox())!, (await button.boundingBox())!];
      // At the start of the line (the right, in Persian), not stretched across the note's column.
      expect(buttonBox.width).toBeLessThan(120);
      expect(noteBox.x + noteBox.width - (buttonBox.x + buttonBox.width)).toBeLessThan(40);
      // A tap before the page has hydrated is answered once it has (src/web/lib/early-clicks.ts): on a desk page that
      // waits for the form engine's code, two seconds or more on this machine in a busy hour.
      await button.click();
      await page.getByRole('dialog').waitFor();
      expect(await page.getByRole('dialog').count()).toBe(1);
      await guest.close();
    },
  );

  // The pound, so the dollar quotes of the tests above stay what they expect whatever the order.
  it('re-quotes an open desk page when staff change the rate in another browser', async () => {
    const page = await customer.newPage();
    await page.goto(`${server.url}/desks/sevisGeneralCpr`);
    await page.getByTestId('desk-page').waitFor();
    await choose(page, 'currency', 'پوند انگلیس');
    await page.fill('#root_amount', '100');
    await choose(page, 'requestedPaymentMethodGroup', 'کارت اعتباری بین‌المللی');
    await page.getByTestId('price-summary').waitFor();
    const before = await page.getByTestId('gross-price').textContent();

    const staff = await browser.newContext({ viewport: DESKTOP });
    const admin = await staff.newPage();
    await admin.goto(`${server.url}/login`);
    await admin.getByRole('tab', { name: 'ورود با رمز عبور' }).click();
    await admin.fill('#login-username', ADMIN_MOBILE);
    await admin.fill('#login-password', ADMIN_PASSWORD);
    await admin.getByTestId('login-by-password').click();
    await admin.waitForURL(`${server.url}/management`);
    await admin.goto(`${server.url}/management/currencies`);
    await admin.getByTestId('edit-GBP').click();
    await admin.fill('#currency_rate', '1,400,000');
    await admin.getByTestId('save-currency').click();
    await admin.getByText('ارز ذخیره شد.').waitFor();

    await page.waitForFunction(
      (old) => document.querySelector('[data-testid=gross-price]')?.textContent !== old,
      before,
    );
    expect(before).toBe('۱۳۱٬۲۰۰٬۰۰۰ ریال');
    expect(await page.getByTestId('gross-price').textContent()).toBe('۱۴۰٬۰۰۰٬۰۰۰ ریال');
    expect(await page.getByTestId('quote-rate').textContent()).toContain('۱٬۴۰۰٬۰۰۰');
    await staff.close();
    await page.close();
  });
});
