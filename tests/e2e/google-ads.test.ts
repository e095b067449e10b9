/**
 * Google Ads accounts end to end in Chromium (issue 11, "Done when"). On a 390x844 phone a verified customer
 * accepts the Google Ads terms and asks for an account through the «ساخت حساب» dialog reached from the drawer
 * (e-mail lists typed key by key; a bad list shows its Persian message first); staff at a desktop add a manager
 * panel when there is none and make the account under it from the task queue; the customer sees it, the drawer's
 * «حساب‌های من» and «شارژ حساب» open up, and they recharge it through the sandbox bank; staff record the charge's
 * reference from the task queue; the customer sees the charge on their accounts page and in their wallet's
 * transactions. Also: a recharge opened from the staff requests page gets the Google Ads charge dialog, not the
 * currency-payment one, and a guest's drawer asks them to log in. Screenshots: tests/artifacts/screenshots/gads-*.png.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../../src/server/modules/ledger/invariants';
import { formatNumber } from '../../src/shared/format';
import { animationsDone, DESKTOP, PHONE, keepSignedIn } from '../support/browser';
import { type Customer, moneyHelpers, type Purchase } from '../support/money';
import { payAtBank, toBank } from '../support/pay-flow';
import { bearer, loginAdmin, post, type RunningServer } from '../support/server';
import { withE2eServer, choose, WAIT_MS } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;
let money: ReturnType<typeof moneyHelpers>;
let adminToken: string;
const contexts: BrowserContext[] = [];

withE2eServer({}, async (t) => {
  server = t.server;
  browser = t.browser;
  money = moneyHelpers(server);
  await money.ready();
  adminToken = await loginAdmin(server);
});

async function open(token: string | null, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  // A long story on a machine shared with other test runs: waits get more time than Playwright's 30 s default.
  context.setDefaultTimeout(90_000);
  contexts.push(context);
  if (token) {
    await keepSignedIn(context, token);
  }
  return context.newPage();
}

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await animationsDone(page);
  await page.screenshot({ path: path.join(shots, `gads-${name}.png`), fullPage });
}

/** The page at both sizes the product is made for: the phone first, then a desktop, then back to the phone. */
async function shotBoth(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize(PHONE);
  await shot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
  await shot(page, `${name}-desktop`);
  if (size) await page.setViewportSize(size);
}

/** Nothing on the page is wider than the window (no sideways scrolling on a phone). */
async function expectNoOverflow(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** Opens the drawer and its Google Ads group. */
async function googleAdsGroup(page: Page) {
  await page.getByTestId('menu-button').click();
  const drawer = page.getByTestId('drawer');
  await drawer.waitFor();
  const group = drawer.getByTestId('drawer-google-ads');
  if ((await group.getAttribute('open')) === null) await group.locator('summary').click();
  return group;
}

const taskOf = async (where: { purchaseId: number } | { googleAdsAccountRequestId: number }) => {
  const db = server.app.database.db;
  const [column, value] = Object.entries(where)[0] as ['purchaseId' | 'googleAdsAccountRequestId', number];
  return (await db.selectFrom('tasks').select('id').where(column, '=', value).executeTakeFirstOrThrow()).id;
};

/** The manager panel accounts are made under, added through the API when a test needs one and there is none. */
async function ensureMcc(): Promise<void> {
  const found = await post(server, '/api/sys/searchGoogleMccAccounts', { status: 'active' }, bearer(adminToken));
  if ((found.body.data as { total: number }).total > 0) return;
  const saved = await post(
    server,
    '/api/sys/saveGoogleMccAccount',
    { title: 'پنل پشتیبان', googleCustomerId: '222-333-4444', currency: money.usd.id },
    bearer(adminToken),
  );
  expect(saved.status, saved.body.msg).toBe(200);
}

describe('Google Ads accounts', () => {
  it('a customer asks for an account, staff make it, the customer recharges and pays, staff charge it, the customer sees the charge', async () => {
    const who = await money.customer();
    const db = server.app.database.db;

    // 1. The phone: before any account, the drawer offers only «ساخت حساب».
    const phone = await open(who.token, PHONE);
    await phone.goto(server.url);
    let group = await googleAdsGroup(phone);
    expect(await group.locator('[aria-disabled=true]').allTextContents()).toEqual(['حساب‌های من', 'شارژ حساب']);
    await group.getByText('پس از ساخت اولین حساب، مدیریت و شارژ آن فعال می‌شود.').waitFor();
    await shot(phone, 'drawer-no-account-phone', false);
    await group.getByRole('link', { name: 'ساخت حساب' }).click();
    await phone.waitForURL(`${server.url}/myGoogleAdsAccounts?create=1`);

    // The Google Ads terms come first, in the dialog itself.
    const dialog = phone.getByTestId('create-google-ads-account');
    await dialog.getByTestId('policy-required').waitFor();
    await shot(phone, 'terms-phone');
    await dialog.getByTestId('accept-policy').click();
    await dialog.locator('#gads_customerBusinessTitle').waitFor();

    await choose(phone, '#gads_accountCurrency', /دلار آمریکا/);
    await dialog.locator('#gads_customerBusinessTitle').pressSequentially('فروشگاه کتاب آنلاین');
    await dialog.locator('#gads_customerWebsite').pressSequentially('https://ketab.example.ir');
    // A list with a bad address says so, in Persian, before anything is sent.
    const standard = dialog.locator('#gads_requestedCustomerStandardUsers');
    await standard.pressSequentially('owner@ketab.example.ir, ads-at-ketab');
    await dialog.getByText('ایمیل‌ها باید با کاما جدا شده و معتبر باشند.').waitFor();
    await dialog.getByTestId('create-google-ads-account-submit').click();
    await dialog.getByText('ایمیل‌ها باید با کاما جدا شده و معتبر باشند.').waitFor();
    await shot(phone, 'create-invalid-emails-phone');
    expect(
      await db.selectFrom('googleAdsAccountRequests').select('id').where('userId', '=', who.userId).execute(),
    ).toEqual([]);
    // Corrected key by key at the end of the list (the failed submit left the caret at its start): the message goes.
    await standard.click();
    await standard.press('End');
    for (let i = 0; i < 'ads-at-ketab'.length; i++) await standard.press('Backspace');
    await standard.pressSequentially('ads@ketab.example.ir');
    expect(await standard.inputValue()).toBe('owner@ketab.example.ir, ads@ketab.example.ir');
    await expect.poll(() => dialog.getByText('ایمیل‌ها باید با کاما جدا شده و معتبر باشند.').count()).toBe(0);
    await dialog.locator('#gads_requestedCustomerReadonlyUsers').pressSequentially('viewer@ketab.example.ir');
    await expectNoOverflow(phone);
    await shot(phone, 'create-filled-phone');
    await dialog.getByTestId('create-google-ads-account-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    const requests = phone.getByTestId('my-google-ads-account-requests');
    await requests.getByText('در انتظار ساخت').waitFor();
    const request = await db
      .selectFrom('googleAdsAccountRequests')
      .select(['id', 'requestedCustomerStandardUsers', 'requestedCustomerReadonlyUsers'])
      .where('userId', '=', who.userId)
      .executeTakeFirstOrThrow();
    expect(request).toMatchObject({
      requestedCustomerStandardUsers: 'owner@ketab.example.ir, ads@ketab.example.ir',
      requestedCustomerReadonlyUsers: 'viewer@ketab.example.ir',
    });
    await shotBoth(phone, 'requested');

    // 2. Staff at a desktop: a manager panel when there is none, then the account from the task queue.
    const staff = await open(adminToken, DESKTOP);
    await staff.goto(`${server.url}/management/googleMccAccounts`);
    const panels = staff.getByTestId('table-googleMccAccounts');
    await panels.waitFor();
    await panels
      .getByText('هنوز پنل مدیریت تبلیغاتی ثبت نشده است.')
      .or(staff.getByTestId('googleMccAccounts-row').first())
      .waitFor();
    let panelTitle: string | RegExp = /./;
    if ((await staff.getByTestId('googleMccAccounts-row').count()) === 0) {
      await staff.getByTestId('mcc-add').click();
      const mcc = staff.getByTestId('mcc-dialog');
      await mcc.locator('#mcc_title').pressSequentially('پنل اصلی ارزپی');
      await mcc.locator('#mcc_googleCustomerId').pressSequentially('123-456-7890');
      await choose(staff, '#mcc_currency', /دلار آمریکا/);
      await mcc.locator('#mcc_notes').pressSequentially('پنل دلاری شرکت');
      await shot(staff, 'mcc-dialog-desktop');
      await mcc.getByTestId('mcc-save').click();
      await mcc.waitFor({ state: 'hidden' });
      await staff.getByTestId('googleMccAccounts-row').getByText('پنل اصلی ارزپی').waitFor();
      panelTitle = /پنل اصلی ارزپی/;
    }
    await shot(staff, 'mcc-panels-desktop');

    await staff.goto(`${server.url}/management/tasks`);
    await staff.getByTestId(`open-task-${await taskOf({ googleAdsAccountRequestId: request.id })}`).click();
    const make = staff.getByTestId('make-google-ads-account');
    const asked = make.getByTestId('make-account-request');
    await asked.waitFor();
    expect(await asked.textContent()).toContain('فروشگاه کتاب آنلاین');
    expect(await asked.textContent()).toContain('owner@ketab.example.ir, ads@ketab.example.ir');
    await choose(staff, '#make_googleMccAccount', panelTitle);
    await make.locator('#make_googleCustomerId').pressSequentially('۴۴۴۵۵۵۶۶۶۶');
    await shot(staff, 'make-account-desktop');
    await make.getByTestId('make-account-submit').click();
    await make.waitFor({ state: 'hidden' });

    // 3. The customer sees the account (live), and the drawer's two items open.
    const accounts = phone.getByTestId('my-google-ads-accounts');
    await expect.poll(() => accounts.textContent(), { timeout: WAIT_MS }).toContain('444-555-6666');
    await requests.getByText('ساخته شد').waitFor();
    expect(await accounts.textContent()).toContain('فعال');
    await shotBoth(phone, 'accounts');
    await phone.goto(server.url);
    group = await googleAdsGroup(phone);
    await group.getByRole('link', { name: 'حساب‌های من' }).waitFor();
    expect(await group.locator('[aria-disabled=true]').count()).toBe(0);
    await shot(phone, 'drawer-with-account-phone', false);
    await group.getByRole('link', { name: 'شارژ حساب' }).click();
    await phone.waitForURL(`${server.url}/desks/googleAdsAccountCr`);

    // 4. The recharge desk: the account chosen fills its currency; 50 dollars, priced, submitted, paid at the bank.
    await phone.getByTestId('desk-page').waitFor();
    await choose(phone, '#root_googleAdsAccount', /444-555-6666/);
    await phone.locator('#root_chargeAmount').pressSequentially('50');
    await phone.locator('#root_customerDescription').pressSequentially('شارژ ماه اول');
    await phone.getByTestId('price-summary').waitFor();
    await expectNoOverflow(phone);
    await shot(phone, 'recharge-desk-phone');
    await phone.getByTestId('confirm-price').click();
    await phone.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid=submit-request]')?.disabled,
    );
    await phone.getByTestId('submit-request').click();
    await phone.getByTestId('pay-step').waitFor();
    const purchaseId = Number(new URL(phone.url()).searchParams.get('purchase'));
    expect(purchaseId).toBeGreaterThan(0);
    const recharge = (await money.purchaseOf(who, purchaseId)).purchase as Purchase & {
      desk: string;
      amount: number;
    };
    expect(recharge).toMatchObject({ desk: 'googleAdsAccountCr', amount: 50, state: 'waitingForPayment' });
    await shot(phone, 'pay-step-phone');
    await toBank(phone);
    await payAtBank(phone);
    await phone.waitForURL(`${server.url}/request/myRequests?purchase=${purchaseId}&payment=success`);
    await phone.getByTestId('request-detail').getByTestId('request-state').getByText('پرداخت شده').waitFor();
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: recharge.expectedPrice });

    // 5. Staff charge the account in Google's console and record the reference from the task.
    await staff.goto(`${server.url}/management/tasks`);
    await staff.getByTestId(`open-task-${await taskOf({ purchaseId })}`).click();
    const charge = staff.getByTestId('google-ads-charge');
    await charge.getByTestId('charge-request').waitFor();
    expect(await charge.getByTestId('charge-amount').textContent()).toContain('50');
    expect(await charge.getByTestId('charge-request').textContent()).toContain('444-555-6666');
    await charge.locator('#charge_chargeReference').pressSequentially('GADS-2026-0101');
    await shot(staff, 'charge-desktop');
    await charge.getByTestId('charge-done-submit').click();
    await charge.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await money.purchaseOf(who, purchaseId)).purchase.state).toBe('purchaseSucceeded');

    // 6. The customer: the charge on the accounts page, and its spending in the wallet's transactions.
    await phone.goto(`${server.url}/myGoogleAdsAccounts`);
    const row = phone.getByTestId('myGoogleAdsAccounts-row');
    await row.first().waitFor();
    await expect.poll(() => row.first().locator('[data-label="تعداد شارژ"]').textContent()).toBe(formatNumber(1));
    expect(await row.first().locator('[data-label="مجموع شارژ"]').textContent()).toBe(formatNumber(50));
    expect(await row.first().locator('[data-label="آخرین شارژ"]').textContent()).toBe(
      `\u2066${formatNumber(50)} USD\u2069 (\u2066GADS-2026-0101\u2069)`,
    );
    await shotBoth(phone, 'accounts-charged');

    await phone.goto(`${server.url}/request/myWallet`);
    const moves = phone.getByTestId('myTransactions-row');
    await moves.first().waitFor();
    const spent = moves.filter({ hasText: 'هزینه‌کرد مبلغ رزروشده در انجام درخواست' });
    await spent.first().waitFor();
    expect(await spent.count()).toBe(1);
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: 0 });
    const types = (await money.transactions(who)).map((t) => t.type);
    expect(types.slice(0, 2)).toEqual(['transaction_F', 'transaction_D']);
    await expectNoOverflow(phone);
    await shotBoth(phone, 'wallet');
    expect(await checkInvariants(db)).toEqual([]);
  }, 900_000);

  it('a recharge opened from the staff requests page gets the Google Ads charge dialog and is charged there', async () => {
    await ensureMcc();
    const who: Customer = await money.customer();
    expect((await post(server, '/api/me/approveGoogleAdsPolicy', undefined, bearer(who.token))).status).toBe(200);
    const usd = money.usd.id;
    const asked = await post(
      server,
      '/api/me/createGoogleAdsAccount',
      {
        accountCurrency: usd,
        customerWebsite: 'https://gol.example.ir',
        customerBusinessTitle: 'گل‌فروشی',
        requestedCustomerStandardUsers: 'gol@gol.example.ir',
      },
      bearer(who.token),
    );
    expect(asked.status, asked.body.msg).toBe(200);
    const taskId = await taskOf({ googleAdsAccountRequestId: (asked.body.data as { id: number }).id });
    const opened = await post(server, '/api/sys/fetchMakeGoogleAdsAccountTaskData', { taskId }, bearer(adminToken));
    const mccId = (opened.body.data as { mccAccounts: Array<{ id: number }> }).mccAccounts[0]!.id;
    const made = await post(
      server,
      '/api/sys/makeGoogleAdsAccount',
      { taskId, googleMccAccount: mccId, googleCustomerId: '777-888-9999' },
      bearer(adminToken),
    );
    expect(made.status, made.body.msg).toBe(200);
    const account = (made.body.data as { id: number }).id;

    // A recharge submitted and paid from the wallet (a deposit of exactly its price).
    const priced = await post(
      server,
      '/api/me/desks/googleAdsAccountCr/priceInquiry',
      { googleAdsAccount: account, chargeAmount: 30 },
      bearer(who.token),
    );
    expect(priced.status, priced.body.msg).toBe(200);
    const submitted = await post(
      server,
      '/api/me/desks/googleAdsAccountCr/requests',
      {
        googleAdsAccount: account,
        currency: usd,
        chargeAmount: 30,
        quoteId: (priced.body.data as { quoteId: string }).quoteId,
      },
      { ...bearer(who.token), 'idempotency-key': money.newKey() },
    );
    expect(submitted.status, submitted.body.msg).toBe(200);
    const purchase = submitted.body.data as Purchase;
    await money.deposit(who, purchase.expectedPrice);
    expect((await money.payOk(who, purchase.id)).purchase.state).toBe('paid');

    const staff = await open(adminToken, DESKTOP);
    await staff.goto(`${server.url}/management/requests`);
    await staff.getByRole('button', { name: `جزئیات درخواست ${purchase.id}` }).click();
    const detail = staff.getByTestId('staff-request-detail');
    await detail.getByTestId('state-history').waitFor();
    const decide = detail.getByTestId('open-fulfilment');
    expect(await decide.textContent()).toBe('ثبت شارژ حساب');
    await decide.click();

    // The Google Ads charge dialog, never the currency-payment one (whose decision the server refuses).
    const charge = staff.getByTestId('google-ads-charge');
    await charge.getByTestId('charge-request').waitFor();
    expect(await staff.getByTestId('fulfilment-dialog').count()).toBe(0);
    expect(await charge.getByTestId('charge-request').textContent()).toContain('777-888-9999');
    await charge.locator('#charge_chargeReference').pressSequentially('GADS-REQ-77');
    await shot(staff, 'requests-page-charge-desktop');
    await charge.getByTestId('charge-done-submit').click();
    // The dialog closes only once the server accepted the charge (its snackbar lasts 3 s: too short to wait on).
    await charge.waitFor({ state: 'hidden' });
    await detail.getByTestId('request-state').getByText('انجام شد').waitFor();
    expect(await detail.getByTestId('open-fulfilment').count()).toBe(0);

    const mine = await post(server, '/api/me/searchGoogleAdsAccounts', {}, bearer(who.token));
    expect((mine.body.data as { items: Array<Record<string, unknown>> }).items[0]).toMatchObject({
      id: account,
      chargedAmount: 30,
      chargeCount: 1,
    });
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: 0 });
  }, 300_000);

  it("a guest's drawer asks them to log in for Google Ads", async () => {
    const page = await open(null, PHONE);
    await page.goto(server.url);
    const group = await googleAdsGroup(page);
    await group.getByText('برای ساخت و شارژ حساب گوگل ادز ابتدا وارد شوید.').waitFor();
    expect(await group.getByRole('link').count()).toBe(0);
    await shot(page, 'drawer-guest-phone', false);
    await page.goto(`${server.url}/myGoogleAdsAccounts`);
    await page.getByRole('main').getByText('کاربری در سیستم وارد نشده است.').waitFor();
    await shotBoth(page, 'accounts-guest');
  });
});
