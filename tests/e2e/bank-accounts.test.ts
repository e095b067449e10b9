/**
 * Bank accounts and withdrawals end to end (issue 9, "Done when"): on a phone, a customer with money in the wallet
 * registers an IBAN typed with Persian digits and spaces (the bank is named as it becomes valid), staff approve its
 * ownership from the task queue, the customer withdraws the whole wallet with a confirmation, staff record the
 * bank transfer on the withdrawals page, and the customer's wallet ends at zero with the withdrawal shown done.
 * Staff holding only approveBankAccountOwnership reach «حساب‌های بانکی برای تایید» from the staff navigation,
 * find an account by typing, narrow by a Jalali day, export, and reject one with a reason.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDateText } from '../../src/shared/calendar/date-text';
import { todayIso } from '../../src/shared/calendar/month-grid';
import { toPersianDigits } from '../../src/shared/digits';
import { checkInvariants } from '../../src/server/modules/ledger/invariants';
import { postTransaction, userBalance } from '../../src/server/modules/ledger/service';
import { animationsDone, DESKTOP, PHONE } from '../support/browser';
import { moneyHelpers, nationalCodeFor } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer, verifiedCustomer } from '../support/server';
import { withE2eServer, WAIT_MS } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;

const e2e = withE2eServer({}, async (t) => {
  server = t.server;
});

/** Bank Sepah's published example IBAN. */
const IBAN = 'IR240150000001177301920207';

describe('bank accounts and withdrawals', () => {
  it('registers an IBAN, staff approve it, the whole wallet is withdrawn and transferred', async () => {
    const token = await verifiedCustomer(server, '09135550001', '1335923985');
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as { id: number };
    const db = server.app.database.db;
    await db
      .transaction()
      .execute((trx) =>
        postTransaction(trx, { type: 'transaction_B', userId: me.id, amounts: { collectionAmount: 2_500_000 } }),
      );

    const page = await e2e.signedIn(token, PHONE);
    await page.goto(`${server.url}/request/myWallet`);
    const section = page.getByTestId('bank-accounts');
    await section.waitFor();
    const input = page.getByTestId('iban-input');
    // A wrong digit: the Persian reason appears once the number is complete.
    await input.pressSequentially('IR24 0150 0000 0117 7301 9202 08');
    await expect.poll(() => page.getByTestId('iban-help').textContent()).toContain('معتبر نیست');
    await input.fill('');
    await input.pressSequentially(`ir${toPersianDigits(IBAN.slice(2).replace(/(\d{4})/g, '$1 '))}`);
    await expect.poll(() => page.getByTestId('iban-help').textContent()).toContain('بانک سپه');
    await page.getByTestId('save-iban').click();
    await expect.poll(() => section.textContent()).toContain('در انتظار بررسی');
    await expect.poll(() => page.getByTestId('withdraw-needs-account').isVisible()).toBe(true);
    await animationsDone(page);
    await page.getByTestId('bank-accounts').screenshot({ path: path.join(shots, 'wallet-bank-accounts-pending.png') });

    // Staff approve the ownership from the task queue.
    const admin = await loginAdmin(server);
    const staff = await e2e.signedIn(admin, DESKTOP);
    await staff.goto(`${server.url}/management/tasks`);
    const account = await db
      .selectFrom('userBankAccounts')
      .select('id')
      .where('userId', '=', me.id)
      .executeTakeFirstOrThrow();
    const task = await db
      .selectFrom('tasks')
      .select('id')
      .where('userBankAccountId', '=', account.id)
      .executeTakeFirstOrThrow();
    await staff.getByTestId(`open-task-${task.id}`).click();
    const dialog = staff.getByTestId('bank-account-review');
    await expect.poll(() => dialog.getByTestId('review-iban').textContent()).toBe('IR24 0150 0000 0117 7301 9202 07');
    await dialog.getByTestId('approve-uba').click();
    await dialog.waitFor({ state: 'detached' });

    // The customer's page turns the account green (live) and withdraws everything.
    await expect.poll(() => section.textContent(), { timeout: WAIT_MS }).toContain('تایید شده');
    await expect.poll(() => page.locator('[data-testid="bank-accounts"] [data-row-color="green"]').count()).toBe(1);
    // Typed in Persian digits, the amount is grouped as it is typed (issue 32); the whole balance the same way.
    const amount = page.getByTestId('withdraw-amount');
    await amount.pressSequentially('۱۲۵۰۰۰۰');
    expect(await amount.inputValue()).toBe('۱٬۲۵۰٬۰۰۰');
    await page.getByTestId('withdraw-all').click();
    await expect.poll(() => amount.inputValue()).toBe('۲٬۵۰۰٬۰۰۰');
    // The chosen account whole in «حساب مقصد», the amount grouped.
    await page.getByTestId('withdraw-account').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'wallet-withdrawal-form.png') });
    await page.getByTestId('withdraw-submit').click();
    const confirm = page.getByTestId('withdraw-confirm');
    await expect.poll(() => confirm.textContent()).toContain('۲٬۵۰۰٬۰۰۰');
    await confirm.getByTestId('withdraw-confirm-button').click();
    await confirm.waitFor({ state: 'detached' });
    const withdrawals = page.getByTestId('withdrawals');
    await expect.poll(() => withdrawals.textContent()).toContain('در انتظار واریز');
    expect(await userBalance(db, me.id)).toEqual({ balance: 0, reserved: 0 });
    await animationsDone(page);
    await page.screenshot({ path: path.join(shots, 'wallet-withdrawal-requested.png'), fullPage: true });

    // Staff record the bank transfer.
    await staff.goto(`${server.url}/management/withdrawals`);
    const row = await db.selectFrom('withdrawals').select('id').where('userId', '=', me.id).executeTakeFirstOrThrow();
    await staff.getByTestId(`withdrawal-done-${row.id}`).click();
    await staff.getByTestId('withdrawal-reference').pressSequentially('TRF-98765');
    await staff.getByTestId('withdrawal-decision-submit').click();
    await staff.getByTestId('withdrawal-dialog').waitFor({ state: 'detached' });

    await expect.poll(() => withdrawals.textContent(), { timeout: WAIT_MS }).toContain('واریز شد');
    await expect.poll(() => withdrawals.textContent()).toContain('TRF-98765');
    expect(await userBalance(db, me.id)).toEqual({ balance: 0, reserved: 0 });
    expect(await checkInvariants(db)).toEqual([]);
    await animationsDone(page);
    await page.getByTestId('withdrawals').screenshot({ path: path.join(shots, 'wallet-withdrawal-done.png') });
  });
});

describe('bank accounts to approve (staff page)', () => {
  it('staff with the action open it from the navigation, search, filter by a Jalali day, export and reject', async () => {
    const customers = [
      { mobileNo: '09135550011', nationalCode: nationalCodeFor(501), iban: 'IR050170000000123456789012' },
      { mobileNo: '09135550012', nationalCode: nationalCodeFor(502), iban: IBAN },
    ];
    const accounts: number[] = [];
    for (const c of customers) {
      const token = await verifiedCustomer(server, c.mobileNo, c.nationalCode);
      const saved = await post(server, '/api/me/saveUserBankAccount', { iban: c.iban }, bearer(token));
      expect(saved.status, saved.body.msg).toBe(200);
      accounts.push((saved.body.data as { id: number }).id);
    }
    const reviewer = await moneyHelpers(server).staffWithActions(['approveBankAccountOwnership']);
    const page = await e2e.signedIn(reviewer.token, DESKTOP);
    await page.goto(`${server.url}/`);
    await page.getByTestId('menu-button').click();
    await page.getByTestId('drawer-staff').getByRole('link', { name: 'حساب‌های بانکی برای تایید' }).click();
    await page.waitForURL(`${server.url}/management/bankAccounts`);
    await page.getByRole('heading', { name: 'حساب‌های بانکی برای تایید' }).waitFor();
    const rows = page.getByTestId('bankAccounts-row');
    await expect.poll(() => rows.count()).toBe(2);
    // Waiting the longest first, registered today in the Jalali calendar, the holder as the profile names them.
    const today = toPersianDigits(formatDateText(todayIso(), 'fa'));
    expect(await rows.first().textContent()).toContain(today);
    expect(await rows.first().textContent()).toContain('بانک ملی ایران');
    expect(await rows.first().textContent()).toContain('سارا کریمی');

    // Typed key by key: the second customer's mobile number finds only their account.
    await page.getByRole('textbox', { name: 'جستجو' }).pressSequentially(customers[1]!.mobileNo);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('بانک سپه');
    await page.getByRole('textbox', { name: 'جستجو' }).fill('');
    await expect.poll(() => rows.count()).toBe(2);

    // From tomorrow nothing was registered; from today both were.
    const tomorrow = formatDateText(todayIso(new Date(Date.now() + 86_400_000)), 'fa');
    await page.locator('#bank-accounts-from').pressSequentially(tomorrow);
    await page.getByRole('heading', { name: 'حساب‌های بانکی برای تایید' }).click();
    await expect.poll(() => rows.count()).toBe(0);
    await page.locator('#bank-accounts-from').fill('');
    await page.locator('#bank-accounts-from').pressSequentially(today);
    await page.getByRole('heading', { name: 'حساب‌های بانکی برای تایید' }).click();
    await expect.poll(() => rows.count()).toBe(2);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'خروجی' }).click();
    await page.getByRole('menuitem', { name: 'Excel (xls)' }).click();
    expect((await download).suggestedFilename()).toBe('data.xls');
    await animationsDone(page);
    await page.screenshot({ path: path.join(shots, 'bank-accounts-to-approve.png'), fullPage: true });

    // Reject the first: it leaves the waiting list and shows red, with the reason, among the rejected.
    await page.getByTestId(`review-bank-account-${accounts[0]}`).click();
    const dialog = page.getByTestId('bank-account-review');
    await dialog.getByTestId('review-iban').waitFor();
    const reason = 'صاحب حساب شخص دیگری است.';
    await dialog.getByTestId('uba-reject-reason').pressSequentially(reason);
    await dialog.getByTestId('reject-uba').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByRole('radio', { name: 'رد شده' }).click();
    // The waiting list also has one row: wait for the rejected one itself.
    await rows.filter({ hasText: reason }).waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-row-color')).toBe('red');
    expect(await rows.first().textContent()).toContain(reason);

    // On a phone the rows stack; the page is the same.
    await page.setViewportSize(PHONE);
    await page.getByRole('radio', { name: 'در انتظار بررسی' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await animationsDone(page);
    await page.screenshot({ path: path.join(shots, 'bank-accounts-to-approve-phone.png'), fullPage: true });
  });
});
