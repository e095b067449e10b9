/**
 * Fulfilment end to end (issue 9): a customer's request is paid (from a deposit, through the API); staff at a
 * desktop open its task from the queue, reveal the target page's password, and record it done with a real price
 * lower than expected; the customer, on a 390x844 phone, sees the request succeeded with the difference back in
 * the wallet.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatNumber, toPersianDigits } from '../../src/shared/format';
import { animationsDone, DESKTOP, PHONE } from '../support/browser';
import { moneyHelpers } from '../support/money';
import { loginAdmin, type RunningServer } from '../support/server';
import { withE2eServer } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;

const e2e = withE2eServer({}, async (t) => {
  server = t.server;
});

describe('fulfilment', () => {
  it('staff complete a paid request from its task with a lower real price; the customer sees it and the difference', async () => {
    const money = moneyHelpers(server);
    await money.ready();
    const who = await money.customer();
    const purchase = await money.paidRequest(who);
    const difference = 2_500_000;
    const realPrice = purchase.expectedPrice - difference;

    const staff = await e2e.signedInContext(await loginAdmin(server), DESKTOP);
    const page = await staff.newPage();
    await page.goto(`${server.url}/management/tasks`);
    const open = page.getByRole('button', { name: 'انجام', exact: true }).first();
    await open.waitFor();
    await open.click();
    const dialog = page.getByTestId('fulfilment-dialog');
    await dialog.getByTestId('fulfilment-fields').waitFor();
    // Opening the task took the request: it is in progress now (decision 037).
    await expect(dialog.getByTestId('fulfilment-state').textContent()).resolves.toBe('در حال انجام');
    const fields = await dialog.getByTestId('fulfilment-fields').textContent();
    expect(fields).toContain('student1');
    expect(fields).toContain('دلار آمریکا (USD)');
    expect(fields).not.toContain('secret');

    await dialog.getByTestId('reveal-targetPagePassword').click();
    await expect(dialog.getByTestId('revealed-targetPagePassword').textContent()).resolves.toBe('secret');

    // Typed in Persian digits, the price stays in them, grouped, when the field is left (issue 32).
    await dialog.locator('#fulfilmentDone_realPrice').pressSequentially(toPersianDigits(realPrice));
    await dialog.locator('#fulfilmentDone_currencyPaymentReference').pressSequentially('ETS-2026-0042');
    expect(await dialog.locator('#fulfilmentDone_realPrice').inputValue()).toBe(formatNumber(realPrice));
    await expect(dialog.getByTestId('fulfilment-split').textContent()).resolves.toContain(formatNumber(difference));
    // Tall enough for the whole dialog in one picture.
    await page.setViewportSize({ width: DESKTOP.width, height: 1500 });
    await animationsDone(page);
    await dialog.screenshot({ path: path.join(shots, 'fulfilment-dialog.png') });
    await page.setViewportSize(DESKTOP);
    // The confirmation is a snackbar that goes after 3 s: watched for from before the click, so a busy machine
    // that reaches this line late cannot miss it; and the server's answer itself, waited for as it comes.
    const told = page.getByText('انجام درخواست ثبت شد.').waitFor();
    const recorded = page.waitForResponse((r) => r.url().endsWith('/api/sys/uafCprDone'));
    await dialog.getByTestId('submit-done').click();
    expect((await recorded).status()).toBe(200);
    await told;
    await dialog.waitFor({ state: 'hidden' });

    const phone = await (await e2e.signedInContext(who.token, PHONE)).newPage();
    await phone.goto(`${server.url}/request/myRequests?purchase=${purchase.id}`);
    const state = phone.getByTestId('request-state');
    await state.waitFor();
    expect(await state.textContent()).toBe('انجام شد');
    expect(await phone.getByTestId('state-history').textContent()).toContain('مابه‌التفاوت قیمت به کیف پول شما بازگشت');
    await phone.goto(`${server.url}/request/myWallet`);
    const balance = phone.getByTestId('wallet-balance');
    await balance.waitFor();
    expect(await balance.textContent()).toContain(formatNumber(difference));
    await animationsDone(phone);
    await phone.screenshot({ path: path.join(shots, 'fulfilment-customer-wallet.png'), fullPage: true });
  });
});
