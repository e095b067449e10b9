/**
 * Stored text is text: markup and `javascript:` links written into free-text fields by customers and staff (a
 * desk's subject, description and target page address, a failed request's reason, user names, group and action
 * titles, Google Ads business titles and websites, MCC titles and notes, a Google Ads rejection reason, a bank
 * account's rejection, a withdrawal's refusal and a profile's rejection reasons) are shown
 * literally on every page that shows them, customer's and staff's, in Chromium: no script runs, no link points to
 * `javascript:`. Profile names accept Persian letters only, so markup there is refused with a Persian message.
 * The texts are stored through the API (what a form would send); the pages are opened as their readers would.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, keepSignedIn } from '../support/browser';
import { jpegWithExif, uploadForm } from '../support/images';
import { ibanMod97 } from '../../src/shared/iban';
import { type Customer, moneyHelpers, nationalCodeFor } from '../support/money';
import { bearer, loginAdmin, loginByCode, post, type RunningServer, startServer } from '../support/server';
import { step } from '../support/steps';
import { WAIT_MS } from '../support/e2e';

const IMG = '<img src=x onerror=window.__xss=1>';
const SCRIPT = '<script>window.__xss=1</script>';
const LINK = 'javascript:window.__xss=1';
/** All three in one text, tagged so each field's copy is told apart (fits a 100-character field). */
const hostile = (tag: string) => `${tag} ${IMG} ${SCRIPT} ${LINK}`;

let server: RunningServer;
let browser: Browser;
let money: ReturnType<typeof moneyHelpers>;
let admin: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  money = moneyHelpers(server);
  await money.ready();
  admin = await loginAdmin(server);
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

async function pageAs(token: string): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  contexts.push(context);
  await keepSignedIn(context, token);
  return context.newPage();
}

/** Waits until the page shows each text literally, then checks that nothing ran and no link is a script. */
async function showsLiterally(page: Page, texts: string[]): Promise<void> {
  for (const text of texts) {
    await page
      .waitForFunction((t) => document.body.innerText.includes(t), text, { timeout: WAIT_MS })
      .catch(() => {
        throw new Error(`${page.url()} does not show ${JSON.stringify(text)}`);
      });
  }
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  const scriptLinks = await page.evaluate(
    () =>
      [...document.querySelectorAll('a[href], [src]')].filter((el) =>
        /^\s*javascript:/i.test(el.getAttribute('href') ?? el.getAttribute('src') ?? ''),
      ).length,
  );
  expect(scriptLinks, `${page.url()} links to javascript:`).toBe(0);
  // The stored markup made no element of its own.
  expect(await page.locator('img[src="x"]').count()).toBe(0);
}

async function ok(res: Awaited<ReturnType<typeof post>>): Promise<Record<string, unknown>> {
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as Record<string, unknown>;
}

/** Stores markup in every free-text field a customer or staff can write; runs once, for whichever test is first. */
const stored = step(async () => {
  const requester = await money.customer();

  // A desk request with markup in its subject, description and target page address, paid, then failed by staff
  // with markup in the reason the customer reads.
  const desk = { subject: hostile('S1'), customerDescription: hostile('D1'), targetPageAddress: hostile('A1') };
  const form = { currency: money.usd.id, amount: 10, requestedPaymentMethodGroup: await cardGroup() };
  const quote = await ok(
    await post(server, '/api/me/desks/duolingoGeneralCpr/priceInquiry', form, bearer(requester.token)),
  );
  const purchase = await ok(
    await post(
      server,
      '/api/me/desks/duolingoGeneralCpr/requests',
      { ...form, ...desk, quoteId: quote.quoteId, targetPageUsername: 'student1', targetPagePassword: 'secret' },
      { ...bearer(requester.token), 'idempotency-key': money.newKey() },
    ),
  );
  const purchaseId = purchase.id as number;
  await money.deposit(requester, purchase.expectedPrice as number);
  await money.payOk(requester, purchaseId);
  const failedReason = hostile('R1');
  await ok(await post(server, '/api/sys/uafCprFailed', { purchase: purchaseId, reason: failedReason }, bearer(admin)));

  // Staff-written names and titles.
  const staffUserName = [IMG, SCRIPT];
  await ok(
    await post(
      server,
      '/api/users/saveUser',
      { mobileNo: '09147770001', isStaff: true, firstName: IMG, lastName: SCRIPT, password: 'staff-password-1' },
      bearer(admin),
    ),
  );
  const groupTitle = hostile('G1');
  await ok(await post(server, '/api/users/saveGroup', { name: 'hostileGroup', title: groupTitle }, bearer(admin)));
  const action = { title: hostile('T1'), description: hostile('N1') };
  await ok(await post(server, '/api/users/saveAction', { name: 'hostileAction', ...action }, bearer(admin)));

  // Google Ads: an MCC account's title and notes; a customer's business title and website, refused by staff with
  // markup in the reason.
  const mcc = { title: hostile('M1'), notes: hostile('M2') };
  await ok(
    await post(
      server,
      '/api/sys/saveGoogleMccAccount',
      { ...mcc, googleCustomerId: '123-456-7890', currency: money.usd.id },
      bearer(admin),
    ),
  );
  const adsCustomer = await money.customer();
  await ok(await post(server, '/api/me/approveGoogleAdsPolicy', undefined, bearer(adsCustomer.token)));
  const ads = { customerBusinessTitle: hostile('B1'), customerWebsite: hostile('W1'), rejection: hostile('J1') };
  const request = await ok(
    await post(
      server,
      '/api/me/createGoogleAdsAccount',
      {
        accountCurrency: money.usd.id,
        customerBusinessTitle: ads.customerBusinessTitle,
        customerWebsite: ads.customerWebsite,
        requestedCustomerStandardUsers: 'owner@shop.example.ir',
      },
      bearer(adsCustomer.token),
    ),
  );
  const task = await server.app.database.db
    .selectFrom('tasks')
    .select('id')
    .where('googleAdsAccountRequestId', '=', request.id as number)
    .executeTakeFirstOrThrow();

  return {
    taskId: task.id,
    requester,
    adsCustomer,
    purchaseId,
    staffUserName,
    groupTitle,
    action,
    desk,
    failedReason,
    mcc,
    ads,
  };
});

/** Staff open the waiting Google Ads request from the tasks page (its title and website), then refuse it. */
const adsReviewed = step(async () => {
  const { taskId, ads } = await stored();
  const page = await pageAs(admin);
  await page.goto(`${server.url}/management/tasks`);
  await page.getByTestId(`open-task-${taskId}`).click();
  await page.getByTestId('make-account-request').waitFor();
  await showsLiterally(page, [ads.customerBusinessTitle, ads.customerWebsite]);
  await ok(
    await post(server, '/api/sys/rejectGoogleAdsAccountRequest', { taskId, reason: ads.rejection }, bearer(admin)),
  );
});

/** A valid IBAN of Bank Mellat (012) for account number `n`. */
function iban(n: number): string {
  const account = String(n).padStart(19, '0');
  return `IR${String(98 - ibanMod97(`IR00012${account}`)).padStart(2, '0')}012${account}`;
}

async function bankAccountTask(accountId: number): Promise<number> {
  const row = await server.app.database.db
    .selectFrom('tasks')
    .select('id')
    .where('userBankAccountId', '=', accountId)
    .where('state', 'in', ['open', 'claimed'])
    .executeTakeFirstOrThrow();
  return row.id;
}

async function savedAccount(who: Customer, n: number): Promise<{ id: number; taskId: number }> {
  const account = await ok(
    await post(server, '/api/me/saveUserBankAccount', { iban: iban(n), ownerName: 'سارا کریمی' }, bearer(who.token)),
  );
  const taskId = await bankAccountTask(account.id as number);
  await ok(await post(server, '/api/sys/fetchApproveUbaOwnerTaskData', { taskId }, bearer(admin)));
  return { id: account.id as number, taskId };
}

/** A customer who logged in by code and sent their profile with a national card image: waiting for review. */
async function submittedProfile(mobileNo: string, n: number): Promise<{ token: string; userId: number }> {
  const token = await loginByCode(server, mobileNo);
  const upload = await fetch(`${server.url}/api/me/uploadFile`, {
    method: 'POST',
    headers: bearer(token),
    body: uploadForm(await jpegWithExif(), 'card.jpg'),
  });
  const card = ((await upload.json()) as { path: string }).path;
  await ok(
    await post(
      server,
      '/api/me/updateUserData',
      {
        nationalCode: nationalCodeFor(n),
        firstName: 'سارا',
        lastName: 'کریمی',
        dateOfBirth: '1992-02-02',
        nationalCardImageAddress: card,
      },
      bearer(token),
    ),
  );
  const me = await ok(await post(server, '/api/me/fetchUserData', undefined, bearer(token)));
  return { token, userId: me.id as number };
}

/**
 * Reasons staff write about a customer's money and profile: a bank account's ownership rejected, a withdrawal to
 * an approved one refused, and (for another customer) a profile rejected at level 1.
 */
const reasonsStored = step(async () => {
  const holder = await money.customer();
  const rejectedAccount = await savedAccount(holder, 7_001);
  const accountRejection = hostile('K1');
  await ok(
    await post(
      server,
      '/api/sys/rejectUserBankAccountOwnership',
      { taskId: rejectedAccount.taskId, reason: accountRejection },
      bearer(admin),
    ),
  );
  const approved = await savedAccount(holder, 7_002);
  await ok(await post(server, '/api/sys/approveUserBankAccountOwnership', { taskId: approved.taskId }, bearer(admin)));
  await money.deposit(holder, 5_000_000);
  const withdrawal = await ok(
    await post(
      server,
      '/api/me/requestWithdrawal',
      { bankAccount: approved.id, amount: 1_000_000 },
      { ...bearer(holder.token), 'idempotency-key': money.newKey() },
    ),
  );
  const withdrawalRefusal = hostile('V1');
  await ok(
    await post(
      server,
      '/api/sys/withdrawalRefused',
      { withdrawal: withdrawal.id, reason: withdrawalRefusal },
      bearer(admin),
    ),
  );

  // A new customer's first profile, refused by staff at level 1.
  const rejectedProfile = await submittedProfile('09147770003', 901);
  const profileRejection = hostile('P1');
  const task = await server.app.database.db
    .selectFrom('tasks')
    .select('id')
    .where('type', '=', 'approveProfileAsL1Task')
    .where('subjectUserId', '=', rejectedProfile.userId)
    .executeTakeFirstOrThrow();
  await ok(await post(server, '/api/sys/fetchApproveProfileAsL1TaskData', { taskId: task.id }, bearer(admin)));
  await ok(
    await post(server, '/api/sys/rejectProfileAsL1', { taskId: task.id, reason: profileRejection }, bearer(admin)),
  );
  return { holder, accountRejection, withdrawalRefusal, rejectedProfile, profileRejection };
});

describe('stored text is text', () => {
  it('profile names refuse markup with a Persian message', async () => {
    const token = await loginByCode(server, '09147770002');
    const upload = await fetch(`${server.url}/api/me/uploadFile`, {
      method: 'POST',
      headers: bearer(token),
      body: uploadForm(await jpegWithExif(), 'card.jpg'),
    });
    const card = ((await upload.json()) as { path: string }).path;
    const profile = {
      nationalCode: nationalCodeFor(900),
      firstName: 'سارا',
      lastName: 'کریمی',
      dateOfBirth: '1992-02-02',
      nationalCardImageAddress: card,
    };
    for (const name of [IMG, SCRIPT, LINK]) {
      const first = await post(server, '/api/me/updateUserData', { ...profile, firstName: name }, bearer(token));
      expect([first.status, first.body.msg]).toEqual([400, 'نام را با حروف فارسی وارد نمایید.']);
      const last = await post(server, '/api/me/updateUserData', { ...profile, lastName: name }, bearer(token));
      expect([last.status, last.body.msg]).toEqual([400, 'نام خانوادگی را با حروف فارسی وارد نمایید.']);
    }
  });

  it("the customer's requests and a request's detail show it literally", async () => {
    const { requester, purchaseId, failedReason, desk } = await stored();
    const page = await pageAs(requester.token);
    await page.goto(`${server.url}/request/myRequests`);
    await showsLiterally(page, []);
    await page.goto(`${server.url}/request/myRequests?purchase=${purchaseId}`);
    await page.getByTestId('state-reason').waitFor();
    await showsLiterally(page, [failedReason, desk.subject, desk.customerDescription, desk.targetPageAddress]);
  });

  it("the customer's Google Ads page shows it literally", async () => {
    const { adsCustomer, ads } = await stored();
    await adsReviewed();
    const page = await pageAs(adsCustomer.token);
    await page.goto(`${server.url}/myGoogleAdsAccounts`);
    await showsLiterally(page, [ads.rejection]);
  });

  it("staff's requests page and a request's detail show it literally", async () => {
    const { purchaseId, failedReason, desk } = await stored();
    const page = await pageAs(admin);
    await page.goto(`${server.url}/management/requests`);
    await page.getByRole('button', { name: `جزئیات درخواست ${purchaseId}` }).click();
    const detail = page.getByTestId('staff-request-detail');
    await detail.getByTestId('state-history').waitFor();
    await showsLiterally(page, [failedReason, desk.subject, desk.customerDescription]);
    await showsLiterally(page, [desk.targetPageAddress]);
  });

  it("the customer's wallet and profile, and staff's withdrawals, show the reasons literally", async () => {
    const { holder, accountRejection, withdrawalRefusal, rejectedProfile, profileRejection } = await reasonsStored();
    const wallet = await pageAs(holder.token);
    await wallet.goto(`${server.url}/request/myWallet`);
    await showsLiterally(wallet, [accountRejection, withdrawalRefusal]);
    const profile = await pageAs(rejectedProfile.token);
    await profile.goto(`${server.url}/request/myProfile`);
    await profile.getByTestId('rejection-reason').waitFor();
    await showsLiterally(profile, [profileRejection]);
    const staff = await pageAs(admin);
    await staff.goto(`${server.url}/management/withdrawals`);
    await staff.getByRole('radio', { name: 'ردشده' }).click();
    await showsLiterally(staff, [withdrawalRefusal]);
  });

  it('staff pages of users, groups, actions, tasks, customers and Google Ads show it literally', async () => {
    const { staffUserName, groupTitle, action, mcc } = await stored();
    await adsReviewed();
    const page = await pageAs(admin);
    await page.goto(`${server.url}/management/authorization/users`);
    await showsLiterally(page, staffUserName);
    await page.goto(`${server.url}/management/authorization/groups`);
    await showsLiterally(page, [groupTitle]);
    await page.goto(`${server.url}/management/authorization/actions`);
    // Many actions, paged in the browser: find it as staff would, by searching.
    await page.getByRole('textbox', { name: 'جستجو' }).pressSequentially('T1');
    await showsLiterally(page, [action.title, action.description]);
    await page.goto(`${server.url}/management/tasks`);
    await showsLiterally(page, []);
    await page.goto(`${server.url}/management/customers`);
    await showsLiterally(page, []);
    await page.goto(`${server.url}/management/googleMccAccounts`);
    await showsLiterally(page, [mcc.title]);
    await page.goto(`${server.url}/management/googleAdsAccounts`);
    await showsLiterally(page, []);
  });
});

let group: number | undefined;
async function cardGroup(): Promise<number> {
  if (group === undefined) {
    const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
      items: Array<{ id: number; isCash: boolean }>;
    };
    group = groups.items.find((g) => !g.isCash)!.id;
  }
  return group;
}
