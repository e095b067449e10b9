/**
 * A test instance says so (issue 29, decision 023), in real Chromium with the sandbox bank as the gateway: the
 * banner «درگاه آزمایشی: پولی جابه‌جا نمی‌شود» (checked on every page, role and size by the one page walk,
 * tests/e2e/page-walk.test.ts) stays through the app's own navigation; the staff's collections list and its CSV export call a sandbox payment
 * test money; and the withdrawal dialog warns that the instance takes no real payments.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { toPersianDigits } from '../../src/shared/format';
import { ibanMod97 } from '../../src/shared/iban';
import { DESKTOP, PHONE, settled, takeScreenshots } from '../support/browser';
import { type Customer } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer } from '../support/server';
import { expectBanner } from '../support/page-checks';
import { withE2eServer } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const TEST_MONEY = 'آنلاین، پول آزمایشی';
type Visitor = 'guest' | 'customer' | 'staff';

let server: RunningServer;
let customer: Customer;
let adminToken: string;
let withdrawalId: number;

/** A valid IBAN of Bank Mellat (012) for account number `n`. */
function iban(n: number): string {
  const account = String(n).padStart(19, '0');
  const check = 98 - ibanMod97(`IR00012${account}`);
  return `IR${String(check).padStart(2, '0')}012${account}`;
}

const e2e = withE2eServer({}, async (t) => {
  server = t.server;
  const money = t.money;
  customer = await money.customer();
  adminToken = await loginAdmin(server);
  const admin = bearer(adminToken);

  // A request paid at the sandbox bank: a collection of test money.
  const purchase = await money.request(customer, 20);
  const paying = await money.payOk(customer, purchase.id);
  await money.payAtSandboxBank(customer, paying.gatewayUrl!);

  // A withdrawal waiting for staff: an approved account of the customer's and money in the wallet.
  const saved = await post(
    server,
    '/api/me/saveUserBankAccount',
    { iban: iban(4242), ownerName: 'سارا کریمی' },
    bearer(customer.token),
  );
  expect(saved.status, saved.body.msg).toBe(200);
  const accountId = (saved.body.data as { id: number }).id;
  const task = await server.app.database.db
    .selectFrom('tasks')
    .select('id')
    .where('userBankAccountId', '=', accountId)
    .executeTakeFirstOrThrow();
  expect((await post(server, '/api/sys/fetchApproveUbaOwnerTaskData', { taskId: task.id }, admin)).status).toBe(200);
  const approved = await post(server, '/api/sys/approveUserBankAccountOwnership', { taskId: task.id }, admin);
  expect(approved.status, approved.body.msg).toBe(200);
  await money.deposit(customer, 3_000_000);
  const withdrawal = await post(
    server,
    '/api/me/requestWithdrawal',
    { bankAccount: accountId, amount: 2_000_000 },
    { ...bearer(customer.token), 'idempotency-key': `test-instance-${process.pid}` },
  );
  expect(withdrawal.status, withdrawal.body.msg).toBe(200);
  withdrawalId = (withdrawal.body.data as { id: number }).id;
});

async function pageAs(visitor: Visitor, viewport: { width: number; height: number }): Promise<Page> {
  const token = visitor === 'customer' ? customer.token : visitor === 'staff' ? adminToken : null;
  return e2e.signedIn(token, viewport, { acceptDownloads: true });
}

describe('with the sandbox bank', () => {
  it("keeps the banner through the app's own navigation", async () => {
    const page = await pageAs('guest', PHONE);
    await page.goto(`${server.url}/`);
    await settled(page);
    await page.locator('a[href="/services/educational"]:visible').first().click();
    await page.waitForURL(/\/services\/educational$/);
    await expectBanner(page, 'after navigating to a category');
    expect(await page.locator('#test-instance-banner').count()).toBe(1);
  });

  it('marks the sandbox payment as test money in the collections list and its CSV export', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await pageAs('staff', viewport);
      await page.goto(`${server.url}/management/collections`);
      const row = page.getByTestId('collections-row').filter({ hasText: TEST_MONEY });
      await row.first().waitFor();
      expect(await row.count()).toBe(1);
      expect(await row.first().getByText(TEST_MONEY).isVisible()).toBe(true);
      if (viewport === DESKTOP) {
        const download = page.waitForEvent('download');
        await page.getByRole('button', { name: 'خروجی' }).click();
        await page.getByRole('menuitem', { name: 'CSV' }).click();
        const file = await (await download).path();
        const csv = readFileSync(file, 'utf8');
        expect(csv.split('\n')[0]).toContain('نوع');
        expect(csv).toContain(TEST_MONEY);
        if (takeScreenshots) {
          await page.screenshot({ path: path.join(shots, 'test-instance-collections-1366x768.png'), fullPage: true });
        }
      }
    }
  });

  it('warns in the withdrawal dialog that the instance takes no real payments', async () => {
    const page = await pageAs('staff', DESKTOP);
    await page.goto(`${server.url}/management/withdrawals`);
    for (const button of [`withdrawal-done-${withdrawalId}`, `withdrawal-refuse-${withdrawalId}`]) {
      await page.getByTestId(button).click();
      const dialog = page.getByTestId('withdrawal-dialog');
      await dialog.waitFor();
      const warning = dialog.getByTestId('withdrawal-test-instance');
      expect(await warning.isVisible()).toBe(true);
      expect(await warning.innerText()).toContain('این نسخهٔ آزمایشی ارزپی است و پرداخت واقعی نمی‌گیرد');
      // The withdrawal's number is read in Persian digits, like every number outside the IBAN.
      expect(await dialog.innerText()).toContain(`برداشت شماره ${toPersianDigits(withdrawalId)} از`);
      if (takeScreenshots && button.startsWith('withdrawal-done')) {
        await page.screenshot({ path: path.join(shots, 'test-instance-withdrawal-dialog.png') });
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
  });
});
