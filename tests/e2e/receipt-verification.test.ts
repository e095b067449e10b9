/**
 * Receipts anyone can verify (issue 34, part 1) in Chromium: the printed receipt (print media, A4, one page) carries
 * a QR code; decoded from a screenshot (jsqr) it is the absolute /verify/<code> address of this site, and that page,
 * opened by a guest on a phone (390×844), shows the receipt in Persian and in English. The /verify box takes the code
 * as a person types it; an unknown code says «رسیدی با این کد یافت نشد».
 */
import path from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPersianDigits } from '../../src/shared/digits';
import { animationsDone, keepSignedIn, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
import { type Customer, moneyHelpers } from '../support/money';
import { bearer, post, type RunningServer, startServer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
let customer: Customer;
let collectionId: number;
let code: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const money = moneyHelpers(server);
  await money.ready();
  customer = await money.customer();
  const purchase = await money.request(customer, 120);
  const paying = await money.payOk(customer, purchase.id);
  await money.payAtSandboxBank(customer, paying.gatewayUrl!);
  const detail = await money.purchaseOf(customer, purchase.id);
  collectionId = detail.payments.find((p) => p.collectionId !== null)!.collectionId!;
  const receipt = await post(server, '/api/me/fetchCollection', { collection: collectionId }, bearer(customer.token));
  code = (receipt.body.data as { verificationCode: string }).verificationCode;
}, 180_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

async function phone(options: { token?: string; deviceScaleFactor?: number } = {}) {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: options.deviceScaleFactor ?? 1 });
  contexts.push(context);
  if (options.token) await keepSignedIn(context, options.token);
  return context.newPage();
}

describe('a receipt anyone can verify', () => {
  it("prints the receipt with its QR and code; the QR opens this site's verify page, in Persian and English", async () => {
    const page = await phone({ token: customer.token, deviceScaleFactor: 2 });
    await page.goto(`${server.url}/request/receipts/${collectionId}`);
    const receipt = page.getByTestId('receipt');
    await receipt.waitFor();
    expect(await receipt.getByTestId('receipt-verification-code').textContent()).toBe(code);
    // Each unbreakable group ends with its hyphen, so a wrapped code never starts a line with «-» (issue 44).
    const groups = await receipt.locator('.receipt-code-group').allTextContents();
    expect(groups.join('')).toBe(code);
    expect(groups.some((g) => g.startsWith('-'))).toBe(false);
    await receipt.getByTestId('receipt-qr').waitFor();

    // Printed: the receipt alone, on one A4 page, with the QR and the code.
    await page.emulateMedia({ media: 'print' });
    await animationsDone(page);
    expect(await page.locator('.app-header').isVisible()).toBe(false);
    expect(await receipt.getByTestId('receipt-qr').isVisible()).toBe(true);
    expect(await receipt.getByTestId('receipt-verification-code').isVisible()).toBe(true);
    const shot = await receipt.screenshot();
    if (takeScreenshots) await page.screenshot({ path: `${shots}/receipt-verification-print.png`, fullPage: true });
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    expect((pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length).toBe(1);
    await page.emulateMedia({ media: 'screen' });

    const png = PNG.sync.read(shot);
    const decoded = jsQR(
      new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length),
      png.width,
      png.height,
    );
    expect(decoded, 'a QR code in the printed receipt').not.toBeNull();
    // No PUBLIC_URL on this server: the address is the page's own origin.
    expect(decoded!.data).toBe(`${server.url}/verify/${code}`);

    // A guest follows it on a phone.
    const reader = await phone();
    await reader.goto(decoded!.data);
    const result = reader.getByTestId('verify-result');
    await result.waitFor();
    const fa = result.getByTestId('verify-fa');
    expect(await fa.getByRole('heading').textContent()).toBe('این رسید معتبر است و توسط ارزپی صادر شده است');
    expect(await fa.getByTestId('verify-state').textContent()).toBe('پرداخت شده، در صف انجام');
    expect(await fa.getByTestId('verify-payer').textContent()).toBe('س*** ک***');
    expect(await fa.getByTestId('verify-foreign').textContent()).toBe(`${toPersianDigits(120)} USD`);
    expect(await fa.getByTestId('verify-amount').textContent()).toMatch(/^[۰-۹٬]+ ریال$/);
    const en = result.getByTestId('verify-en');
    expect(await en.getAttribute('lang')).toBe('en');
    expect(await en.getAttribute('dir')).toBe('ltr');
    expect(await en.getByRole('heading').textContent()).toBe('This receipt is genuine: it was issued by Arzpay');
    expect(await en.getByTestId('verify-en-state').textContent()).toBe('Paid, waiting to be carried out');
    expect(await en.getByTestId('verify-en-foreign').textContent()).toBe('120 USD');
    expect(await en.getByTestId('verify-en-amount').textContent()).toMatch(/^[\d,]+ IRR$/);
    // Nothing that identifies the customer beyond the masked name.
    const text = (await reader.locator('main, body').first().textContent()) ?? '';
    expect(text).not.toContain(customer.nationalCode);
    expect(text).not.toContain(toPersianDigits(customer.nationalCode));
    expect(text).not.toContain('7890');
    // Fits the phone: nothing wider than the screen.
    expect(await reader.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    if (takeScreenshots) {
      await animationsDone(reader);
      await reader.screenshot({ path: `${shots}/receipt-verification-phone.png`, fullPage: true });
    }
    // Two pages, a PDF and a screenshot at twice the pixels: longer than one page's test on a busy machine.
  }, 120_000);

  it('takes the code typed in the /verify box, and says when no receipt has a code', async () => {
    const page = await phone();
    await page.goto(`${server.url}/verify`);
    const box = page.getByLabel(/کد بررسی رسید/);
    await box.pressSequentially(toPersianDigits(code.toLowerCase().replace(/-/g, ' ')));
    await page.getByRole('button', { name: /بررسی/ }).click();
    await page.waitForURL(`${server.url}/verify/${code}`);
    await page.getByTestId('verify-result').waitFor();
    expect(await page.getByTestId('verify-en-payer').textContent()).toBe('س*** ک***');

    // An unknown code: its own answer, in Persian and English.
    await page.goto(`${server.url}/verify/ZZZZ-ZZZZ-ZZZZ-ZZZZ`);
    const missing = page.getByTestId('verify-not-found');
    await missing.waitFor();
    expect(await missing.textContent()).toContain('رسیدی با این کد یافت نشد');
    expect(await missing.textContent()).toContain('No receipt has this code');
    if (takeScreenshots) await page.screenshot({ path: `${shots}/receipt-verification-not-found.png` });
  });
});
