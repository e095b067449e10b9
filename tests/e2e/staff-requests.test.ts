/**
 * Issue 9's staff pages end to end: a paid request fails at staff from the requests page (its detail, history and
 * «انجام درخواست» opening the fulfilment dialog) and the customer, on a 390x844 phone, sees why and the whole
 * price back in the wallet; a request refused for the customer's own error from the task queue's third tab returns
 * the price less fee and tax; the currency payments page lists a payment recorded when a request was done.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../src/shared/format';
import { animationsDone, DESKTOP, PHONE } from '../support/browser';
import { moneyHelpers } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer } from '../support/server';
import { withE2eServer } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let money: ReturnType<typeof moneyHelpers>;
let adminToken: string;

const e2e = withE2eServer({}, async (t) => {
  server = t.server;
  money = moneyHelpers(server);
  await money.ready();
  adminToken = await loginAdmin(server);
});

async function walletOnPhone(token: string): Promise<string> {
  const phone = await (await e2e.signedInContext(token, PHONE)).newPage();
  await phone.goto(`${server.url}/request/myWallet`);
  const balance = phone.getByTestId('wallet-balance');
  await balance.waitFor();
  return (await balance.textContent()) ?? '';
}

describe('staff requests and currency payments', () => {
  it('a request fails at staff from the requests page; the customer sees why and the money back in the wallet', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who);
    const page = await (await e2e.signedInContext(adminToken, DESKTOP)).newPage();
    await page.goto(`${server.url}/management/requests`);
    await page.getByRole('button', { name: `جزئیات درخواست ${purchase.id}` }).click();
    const detail = page.getByTestId('staff-request-detail');
    await detail.getByTestId('state-history').waitFor();
    expect(await detail.getByTestId('request-state').textContent()).toBe('پرداخت شده');
    await animationsDone(page);
    await detail.screenshot({ path: path.join(shots, 'staff-request-detail.png') });
    await detail.getByTestId('open-fulfilment').click();

    const dialog = page.getByTestId('fulfilment-dialog');
    await dialog.getByTestId('fulfilment-fields').waitFor();
    await dialog.getByTestId('tab-failed').click();
    const reason = 'صفحه پرداخت آزمون برای این حساب بسته شده است.';
    await dialog.locator('#fulfilmentFailed_reason').pressSequentially(reason);
    await dialog.getByTestId('submit-failed').click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('درخواست ناموفق ثبت شد و مبلغ رزروشده آن به کیف پول مشتری بازگشت.').waitFor();

    // The request's detail comes back with the decision and its reason, and nothing left to do.
    await detail.getByTestId('state-reason').waitFor();
    expect(await detail.getByTestId('request-state').textContent()).toBe('ناموفق');
    expect(await detail.getByTestId('state-reason').textContent()).toContain(reason);
    expect(await detail.getByTestId('open-fulfilment').count()).toBe(0);

    const phone = await (await e2e.signedInContext(who.token, PHONE)).newPage();
    await phone.goto(`${server.url}/request/myRequests?purchase=${purchase.id}`);
    await phone.getByTestId('state-reason').waitFor();
    expect(await phone.getByTestId('request-state').textContent()).toBe('ناموفق');
    expect(await phone.getByTestId('state-history').textContent()).toContain('انجام نشد؛ مبلغ به کیف پول شما بازگشت');
    expect(await phone.getByTestId('state-reason').textContent()).toContain(reason);
    expect(await walletOnPhone(who.token)).toContain(formatNumber(purchase.expectedPrice));
  });

  it("a request refused for the customer's own error returns the price less fee and tax", async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who);
    const costs = await server.app.database.db
      .selectFrom('purchases')
      .select(['fee', 'tax'])
      .where('id', '=', purchase.id)
      .executeTakeFirstOrThrow();
    const refunded = purchase.expectedPrice - costs.fee - costs.tax;

    const page = await (await e2e.signedInContext(adminToken, DESKTOP)).newPage();
    await page.goto(`${server.url}/management/tasks`);
    const open = page.getByRole('button', { name: 'انجام', exact: true }).first();
    await open.waitFor();
    await open.click();
    const dialog = page.getByTestId('fulfilment-dialog');
    await dialog.getByTestId('fulfilment-fields').waitFor();
    await dialog.getByTestId('tab-user-error').click();
    expect(await dialog.getByTestId('user-error-split').textContent()).toContain(formatNumber(refunded));
    await dialog.locator('#fulfilmentRefundUserError_reason').pressSequentially('نام کاربری واردشده وجود ندارد.');
    await animationsDone(page);
    await dialog.screenshot({ path: path.join(shots, 'fulfilment-user-error.png') });
    await dialog.getByTestId('submit-user-error').click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('درخواست به دلیل خطای کاربر ناموفق ثبت شد', { exact: false }).waitFor();

    expect(await money.balanceOf(who)).toEqual({ balance: refunded, reserved: 0 });
    expect(await walletOnPhone(who.token)).toContain(formatNumber(refunded));
  });

  it('the currency payments page lists a recorded payment, found by its reference', async () => {
    const who = await money.customer();
    const purchase = await money.paidRequest(who, 25);
    const done = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: purchase.id, realPrice: purchase.expectedPrice, currencyPaymentReference: 'ETS-E2E-0077' },
      bearer(adminToken),
    );
    expect(done.status, done.body.msg).toBe(200);

    const page = await (await e2e.signedInContext(adminToken, PHONE)).newPage();
    await page.goto(`${server.url}/management/currencyPayments`);
    await page.getByRole('heading', { name: 'پرداخت‌های ارزی' }).waitFor();
    await page.getByLabel('جستجو').pressSequentially('E2E-0077');
    const found = page.getByText('ETS-E2E-0077');
    await found.waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('USD');
    expect(text).toContain(formatNumber(purchase.expectedPrice));
    await animationsDone(page);
    await page.screenshot({ path: path.join(shots, 'currency-payments-phone.png'), fullPage: true });
  });
});
