/**
 * The books close (decision 039) in Chromium: a staff member at 1366x768 uploads our bank statement with the gateway's
 * payout of yesterday's takings on the reconciliation page, the day runs by itself and its trial balance shows the
 * gateway's clearing account at zero, every total at zero and our bank account equal to the statement's; the same
 * staff member proposes a wallet correction, which a second one approves; the customer at 390x844 sees the posting
 * in their wallet with its reason.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addTehranDays, tehranDayOf, tehranDayWindow } from '../../src/shared/calendar/tehran-day';
import { gregorianToJalali, TEHRAN_OFFSET_MS } from '../../src/shared/calendar';
import { animationsDone, DESKTOP, PHONE, takeScreenshots } from '../support/browser';
import { WAIT_MS, watchErrors, withE2eServer } from '../support/e2e';
import { latinDigits } from '../support/page-checks';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const ACTIONS = ['reconcile', 'proposeWalletCorrections', 'decideWalletCorrections'];
const REASON = 'واریز ۲۵۰ هزار ریالی مشتری در صورت‌حساب بانک بود و ثبت نشده بود';

const e2e = withE2eServer();

describe('the books close', () => {
  it('staff see a payout close the clearing account and two staff correct a wallet the customer then sees', async () => {
    const { server, money } = e2e;
    const db = server.app.database.db;
    const today = tehranDayOf(new Date());
    const yesterday = addTehranDays(today, -1);

    // Yesterday's takings at the gateway: one request paid at the sandbox bank.
    const customer = await e2e.customer();
    const purchase = await money.request(customer, 30);
    const paying = await money.payOk(customer, purchase.id);
    await money.payAtSandboxBank(customer, paying.gatewayUrl!);
    const at = new Date(tehranDayWindow(yesterday).from.getTime() + 11 * 3_600_000);
    const c = await db
      .updateTable('collections')
      .set({ createdAt: at })
      .where('purchaseId', '=', purchase.id)
      .returning('referenceId')
      .executeTakeFirstOrThrow();
    await db.updateTable('sandboxBankPayments').set({ paidAt: at }).where('referenceId', '=', c.referenceId!).execute();
    const report = await fetch(new URL(`/sandbox-bank/pg/v4/report/settlements.json?date=${yesterday}`, server.url));
    const payout = (
      (await report.json()) as { data: { payout: { reference: string; amount: number; paid_at: string } } }
    ).data.payout;

    // Staff upload our bank statement with the payout's line: today's day runs and the trial balance closes.
    const staffToken = await e2e.staff(ACTIONS);
    const page = await e2e.signedIn(staffToken, DESKTOP);
    const errors = watchErrors(page, { network: true });
    await page.goto(`${server.url}/management/reconciliation?day=${today}`);
    const upload = page.getByTestId('statement-upload');
    await upload.waitFor({ timeout: WAIT_MS });
    const wall = new Date(new Date(payout.paid_at).getTime() + TEHRAN_OFFSET_MS).toISOString();
    const csv = [
      'تاریخ,ساعت,شرح,واریز,برداشت,شماره پیگیری',
      `${gregorianToJalali(wall.slice(0, 10))},${wall.slice(11, 19)},تسویه درگاه پرداخت,${payout.amount},,${payout.reference}`,
    ].join('\n');
    await upload.getByLabel('فایل CSV یا xlsx (حداکثر ۵ مگابایت)').setInputFiles({
      name: 'bank.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await upload.getByTestId('statement-send').click();
    const day = page.locator(`[data-testid="reconciliation-day"][data-day="${today}"]`);
    const balance = day.getByTestId('trial-balance');
    await balance
      .getByTestId('trial-balance-state')
      .filter({ hasText: 'جمع مانده‌ها صفر است' })
      .waitFor({ timeout: WAIT_MS });
    await balance.getByTestId('trial-bank-difference').filter({ hasText: '۰ ریال' }).waitFor({ timeout: WAIT_MS });
    expect(await balance.getByTestId('trial-closing-gatewayClearing').textContent()).toBe('۰ ریال');
    expect(await balance.getByTestId('trial-bank-statement').textContent()).toBe(
      await balance.getByTestId('trial-bank-ledger').textContent(),
    );
    expect(
      await db.selectFrom('ledgerTransactions').select('id').where('type', '=', 'transaction_M').execute(),
    ).toHaveLength(1);
    await animationsDone(page);
    expect((await latinDigits(page)).found).toEqual([]);
    if (takeScreenshots) await balance.screenshot({ path: path.join(shots, 'books-trial-balance.png') });

    // The same staff member proposes a correction; their own proposal offers no approval.
    await page.goto(`${server.url}/management/walletCorrections`);
    await page.getByTestId('correction-propose').click();
    const propose = page.getByTestId('correction-propose-dialog');
    await propose.getByTestId('correction-user').pressSequentially(String(customer.userId));
    await propose.getByTestId('correction-amount').pressSequentially('250000');
    await propose.getByTestId('correction-reason').pressSequentially(REASON);
    await propose.getByTestId('correction-propose-submit').click();
    await propose.waitFor({ state: 'hidden', timeout: WAIT_MS });
    const proposed = page.getByTestId('walletCorrections-proposed-row').filter({ hasText: REASON });
    await proposed.waitFor({ timeout: WAIT_MS });
    expect(await proposed.getByRole('button', { name: 'تایید' }).count()).toBe(0);
    expect(errors).toEqual([]);

    // A second staff member approves it with a note.
    const second = await e2e.signedIn(await e2e.staff(ACTIONS), DESKTOP);
    await second.goto(`${server.url}/management/walletCorrections`);
    const row = second.getByTestId('walletCorrections-proposed-row').filter({ hasText: REASON });
    await row.getByRole('button', { name: 'تایید' }).click();
    const decide = second.getByTestId('correction-decide-dialog');
    await decide.getByTestId('correction-note').pressSequentially('با صورت‌حساب بانک تطبیق داده شد');
    await decide.getByTestId('correction-decide-submit').click();
    await decide.waitFor({ state: 'hidden', timeout: WAIT_MS });
    await second.getByRole('radio', { name: 'تاییدشده' }).click();
    await second
      .getByTestId('walletCorrections-approved-row')
      .filter({ hasText: REASON })
      .waitFor({ timeout: WAIT_MS });
    await animationsDone(second);
    expect((await latinDigits(second)).found).toEqual([]);
    if (takeScreenshots) await second.screenshot({ path: path.join(shots, 'books-wallet-corrections.png') });

    // The customer sees the posting with its reason on their phone.
    const phone = await e2e.signedIn(customer.token, PHONE);
    await phone.goto(`${server.url}/request/myWallet`);
    await phone.getByText(REASON).first().waitFor({ timeout: WAIT_MS });
    await animationsDone(phone);
    expect((await latinDigits(phone)).found).toEqual([]);
    if (takeScreenshots)
      await phone.screenshot({ path: path.join(shots, 'books-customer-wallet.png'), fullPage: true });
  }, 120_000);
});
