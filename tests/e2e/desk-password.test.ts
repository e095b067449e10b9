/**
 * The third-party password on a desk: typed into a password field (hidden), shown and hidden again with an
 * accessible toggle button, sent with the request and never shown in My requests.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RunningServer, verifiedCustomer } from '../support/server';
import { withE2eServer, choose } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;

const e2e = withE2eServer({}, async (t) => {
  server = t.server;
});

describe('the desk password field', () => {
  it('is a password field whose toggle shows and hides it, and the request list never shows it', async () => {
    const token = await verifiedCustomer(server, '09171230001', '0084567899');
    const page = await e2e.signedIn(token);
    await page.goto(`${server.url}/desks/uafCpr`);
    await page.getByTestId('desk-page').waitFor();

    const secret = 'Qx7-secret-Pw';
    const field = page.getByLabel(/^رمز عبور/);
    expect(await field.getAttribute('id')).toBe('root_targetPagePassword');
    expect(await field.getAttribute('type')).toBe('password');
    expect(await field.getAttribute('autocomplete')).toBe('new-password');
    await field.pressSequentially(secret);
    expect(await field.inputValue()).toBe(secret);

    // A toggle button with a Persian name: pressed shows the text, pressed again hides it.
    const toggle = page.getByRole('button', { name: 'نمایش رمز عبور' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await field.getAttribute('type')).toBe('text');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await field.inputValue()).toBe(secret);
    await page.screenshot({ path: `${shots}/desk-password-shown-phone.png`, fullPage: true });
    // By keyboard too: the toggle follows the field in tab order and Space presses it.
    await field.focus();
    await page.keyboard.press('Tab');
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    expect(await field.getAttribute('type')).toBe('password');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');

    // The request goes through with it; My requests never shows it.
    await choose(page, 'currency', 'دلار آمریکا');
    await page.locator('#root_amount').pressSequentially('25');
    await choose(page, 'requestedPaymentMethodGroup', 'کارت اعتباری بین‌المللی');
    await page.locator('#root_targetPageAddress').pressSequentially('https://pay.example.org');
    await page.locator('#root_targetPageUsername').pressSequentially('student7');
    await page.getByTestId('price-summary').waitFor();
    await page.getByTestId('confirm-price').click();
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid=submit-request]')?.disabled,
    );
    await page.getByTestId('submit-request').click();
    await page.getByTestId('pay-step').getByRole('link', { name: 'درخواست‌های من' }).click();
    await page.waitForURL(/\/request\/myRequests\?purchase=\d+$/);
    await page.getByTestId('myRequests-row').first().waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.screenshot({ path: `${shots}/desk-password-my-requests-phone.png`, fullPage: true });
    await page.context().close();
  });
});
