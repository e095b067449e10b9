/**
 * Buttons that say why: the profile lists what save still needs; a desk's submit is enabled only when it can
 * succeed and lists what is missing until then; a renewed quote (driven by staff changing the rate through
 * the API) is announced with its price, keeps the customer's place and focus, and asks for a new
 * confirmation beside the box only when the payable price changed.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE } from '../support/browser';
import { jpegWithExif } from '../support/images';
import { bearer, loginAdmin, loginByCode, post, type RunningServer, verifiedCustomer } from '../support/server';
import { withE2eServer, choose } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;

const e2e = withE2eServer({}, async (t) => {
  server = t.server;
});

const listed = async (page: Page, testId: string) =>
  (await page.getByTestId(testId).locator('li').allTextContents()).map((t) => t.trim());

/** Waits until the list beside a button reads exactly these lines. */
async function waitForList(page: Page, testId: string, items: string[]): Promise<void> {
  await page.waitForFunction(
    ({ testId, items }) =>
      JSON.stringify(
        [...document.querySelectorAll(`[data-testid=${testId}] li`)].map((li) => li.textContent?.trim()),
      ) === JSON.stringify(items),
    { testId, items },
  );
}

describe('the profile says what save still needs', () => {
  it('lists the missing fields beside the disabled save button, one line less per field filled', async () => {
    const token = await loginByCode(server, '09161230001');
    for (const [name, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const page = await e2e.signedIn(token, viewport);
      await page.goto(`${server.url}/request/myProfile`);
      await page.getByTestId('i-understand').click();
      const save = page.getByTestId('save-profile');
      expect(await save.isDisabled()).toBe(true);
      expect(await listed(page, 'save-missing')).toEqual([
        'کد ملی را وارد نمایید.',
        'نام را وارد نمایید.',
        'نام خانوادگی را وارد نمایید.',
        'تاریخ تولد را وارد نمایید.',
        'تصویر کارت ملی را بارگذاری نمایید.',
      ]);
      // The button names the list for screen readers.
      expect(await save.getAttribute('aria-describedby')).toBe('save-missing');
      await page.screenshot({ path: `${shots}/guidance-profile-${name}.png`, fullPage: true });
      await page.close();
    }

    const page = await e2e.signedIn(token);
    await page.goto(`${server.url}/request/myProfile`);
    await page.getByTestId('i-understand').click();
    await page.locator('#profile_nationalCode').pressSequentially('0499370899');
    await page.getByTestId('national-code-accepted').waitFor();
    await page.locator('#profile_firstName').pressSequentially('مریم');
    await page.locator('#profile_lastName').pressSequentially('احمدی');
    const card = path.join(os.tmpdir(), `guidance-card-${Date.now()}.jpg`);
    writeFileSync(card, await jpegWithExif(640, 400));
    await page.getByTestId('profile_nationalCardImageAddress-file').setInputFiles(card);
    await page.getByTestId('profile_nationalCardImageAddress-preview').waitFor();
    // Only the birth date is left, and the list says exactly that.
    await waitForList(page, 'save-missing', ['تاریخ تولد را وارد نمایید.']);
    expect(await page.getByTestId('save-profile').isDisabled()).toBe(true);
    await page.screenshot({ path: `${shots}/guidance-profile-one-left-phone.png`, fullPage: true });
    await page.close();
  });
});

describe('a desk enables submit when it can succeed', () => {
  it('lists what is missing, enables submit once the price is confirmed, and announces a renewed quote', async () => {
    const token = await verifiedCustomer(server, '09161230002', '0499370899');
    const admin = await loginAdmin(server);
    const page = await e2e.signedIn(token);
    // When the live news of a rate came, and when the page asked for a price: the browser's own timestamps (one
    // clock, ms), not when this process heard of them, which lags by a varying amount on a loaded machine.
    let rateNewsAt = 0;
    const inquiriesAt: number[] = [];
    const devtools = await page.context().newCDPSession(page);
    await devtools.send('Network.enable');
    devtools.on('Network.webSocketFrameReceived', ({ timestamp, response }) => {
      if (response.payloadData.includes('currency.updated')) rateNewsAt ||= timestamp * 1000;
    });
    devtools.on('Network.requestWillBeSent', ({ timestamp, request }) => {
      if (request.url.endsWith('/priceInquiry')) inquiriesAt.push(timestamp * 1000);
    });
    await page.goto(`${server.url}/desks/sevisGeneralCpr`);
    await page.getByTestId('desk-page').waitFor();
    const submit = page.getByTestId('submit-request');
    await page.getByTestId('submit-missing').waitFor();
    expect(await submit.isDisabled()).toBe(true);
    const before = await listed(page, 'submit-missing');
    expect(before).toContain('ارز را انتخاب نمایید.');
    expect(before).toContain('مبلغ را وارد نمایید.');
    expect(await submit.getAttribute('aria-describedby')).toBe('submit-missing');

    await choose(page, 'currency', 'دلار آمریکا');
    await page.locator('#root_amount').pressSequentially('100');
    await choose(page, 'requestedPaymentMethodGroup', 'کارت اعتباری بین‌المللی');
    await page.locator('#root_targetPageAddress').pressSequentially('https://pay.example.org');
    expect(await page.locator('#root_targetPageAddress').inputValue()).toBe('https://pay.example.org');
    await page.locator('#root_targetPageUsername').pressSequentially('me@example.org');
    await page.locator('#root_targetPagePassword').pressSequentially('secret');
    await page.getByTestId('price-summary').waitFor();

    // The form is complete and priced: only the confirmation is missing, and submit waits for it.
    await waitForList(page, 'submit-missing', ['مبلغ قابل پرداخت را بررسی و تایید کنید (تیک تایید مبلغ).']);
    expect(await submit.isDisabled()).toBe(true);
    const confirm = page.getByTestId('confirm-price');
    await confirm.click();
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid=submit-request]')?.disabled,
    );
    expect(await page.getByTestId('submit-missing').count()).toBe(0);
    expect(await confirm.getAttribute('aria-checked')).toBe('true');
    await page.screenshot({ path: `${shots}/guidance-desk-ready-phone.png`, fullPage: true });

    // Staff change the rate: the open page re-quotes live. The customer's place and focus stay.
    await confirm.focus();
    const placeBefore = await page.evaluate(() => ({
      top: document.querySelector('[data-testid=confirm-price]')!.getBoundingClientRect().top,
    }));
    const oldPayable = await page.getByTestId('payable-price').textContent();
    const currencies = await post(server, '/api/sys/searchCurrencies', { perPage: 200 }, bearer(admin));
    const usd = (currencies.body.data as { items: Array<Record<string, unknown>> }).items.find(
      (c) => c.code === 'USD',
    )!;
    const saveRate = (rate: number) =>
      post(
        server,
        '/api/sys/saveCurrency',
        {
          id: usd.id,
          title: usd.title,
          code: usd.code,
          rate,
          useForUafCpr: usd.useForUafCpr,
          useForGoogleAdsAccountCr: usd.useForGoogleAdsAccountCr,
        },
        bearer(admin),
      );
    // The page's own random draw decides its wait within the re-quote spread (decision 016): a half here, 1.5 s.
    await page.evaluate(() => {
      Math.random = () => 0.5;
    });
    expect((await saveRate(1_150_000)).status).toBe(200);

    const notice = page.getByTestId('quote-renewed');
    await notice.waitFor();
    expect(rateNewsAt).toBeGreaterThan(0);
    const requote = inquiriesAt.find((at) => at >= rateNewsAt);
    expect(requote! - rateNewsAt).toBeGreaterThanOrEqual(1400);
    const newPayable = await page.getByTestId('payable-price').textContent();
    expect(newPayable).not.toBe(oldPayable);
    expect(await notice.textContent()).toBe(
      `قیمت تمدید شد و مبلغ قابل پرداخت تغییر کرد: ${newPayable} (پیش‌تر ${oldPayable}).`,
    );
    // Not silently unticked: the box says the new price needs confirming; submit waits for it.
    expect(await page.getByTestId('reconfirm-price').textContent()).toContain(newPayable!);
    expect(await confirm.getAttribute('aria-checked')).toBe('false');
    expect(await submit.isDisabled()).toBe(true);
    expect(await submit.getAttribute('aria-describedby')).toBe('reconfirm-price');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('confirm-price');
    const placeAfter = await page.evaluate(() => ({
      top: document.querySelector('[data-testid=confirm-price]')!.getBoundingClientRect().top,
      height: window.innerHeight,
    }));
    expect(Math.abs(placeAfter.top - placeBefore.top)).toBeLessThan(2);
    expect(placeAfter.top).toBeGreaterThan(0);
    expect(placeAfter.top).toBeLessThan(placeAfter.height);
    await page.getByTestId('price-summary').screenshot({ path: `${shots}/guidance-desk-renewed-summary-phone.png` });
    await confirm.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/guidance-desk-renewed-phone.png` });
    await page.setViewportSize(DESKTOP);
    await confirm.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/guidance-desk-renewed-desktop.png` });
    await page.setViewportSize(PHONE);

    await confirm.click();
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid=submit-request]')?.disabled,
    );
    expect(await page.getByTestId('reconfirm-price').count()).toBe(0);

    // A renewal at the same price (the rate saved unchanged) keeps the confirmation and says so.
    const firstNoticeText = await notice.textContent();
    expect((await saveRate(1_150_000)).status).toBe(200);
    await page.waitForFunction(
      (old) => document.querySelector('[data-testid=quote-renewed]')?.textContent !== old,
      firstNoticeText,
    );
    expect(await notice.textContent()).toBe(`قیمت تمدید شد. مبلغ قابل پرداخت تغییری نکرد: ${newPayable}.`);
    expect(await confirm.getAttribute('aria-checked')).toBe('true');
    expect(await submit.isDisabled()).toBe(false);
    expect(await page.getByTestId('reconfirm-price').count()).toBe(0);

    // The renewed quote is the one submitted.
    await submit.click();
    await page.getByTestId('pay-step').waitFor();
    const mine = await post(server, '/api/me/searchPurchases', { desk: 'sevisGeneralCpr' }, bearer(token));
    expect((mine.body.data as { total: number }).total).toBe(1);
    await page.close();
  });
});
