/**
 * The profile page when the national-code lookup is refused for too many lookups (issue 15, point 5): the
 * customer reads the server's Persian message, with its wait, beside the save button, and cannot save.
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE, keepSignedIn } from '../support/browser';
import { loginByCode, type RunningServer, startServer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ env: { INQUIRY_LIMIT_PER_USER: '1', INQUIRY_LIMIT_WINDOW_SECONDS: '86400' } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('national-code lookup limit on the profile page', () => {
  it('shows the Persian 429 message with its wait, and save stays disabled', async () => {
    const token = await loginByCode(server, '09381000001');
    const context = await browser.newContext({ viewport: PHONE });
    await keepSignedIn(context, token);
    const page = await context.newPage();
    await page.goto(`${server.url}/request/myProfile`);
    await page.getByTestId('i-understand').click();

    const code = page.locator('#profile_nationalCode');
    await code.click();
    await code.pressSequentially('0499370899');
    await page.getByTestId('national-code-accepted').waitFor();

    // A second code is the second lookup: over this server's limit of one.
    await code.press('Control+A');
    await code.press('Backspace');
    await code.pressSequentially('0013542419');
    const refused = page.getByText(/^تعداد استعلام کد ملی بیش از حد مجاز است\. لطفا [۰-۹]+ (ساعت|دقیقه|ثانیه)/);
    await refused.first().waitFor();
    expect(await page.getByTestId('save-profile').isDisabled()).toBe(true);
    await page.screenshot({ path: `${shots}/profile-inquiry-limit-phone.png`, fullPage: true });
    await context.close();
  });
});
