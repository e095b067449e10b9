/**
 * Money, part 2 end to end in Chromium (issue 9, "Done when"), one customer's whole story: on a 390x844 phone
 * the customer pays two requests through the sandbox bank (part 1's flow); staff at a desktop see them waiting on
 * the staff home, complete the first from its task with a real price lower than expected, and fail the second;
 * the customer sees the first succeeded with the difference back in the wallet and its receipt, and the second
 * failed with its whole price back. The customer registers an IBAN, staff approve its ownership from the «bank
 * accounts to approve» page, the customer withdraws the whole wallet, staff record the bank transfer, and the
 * wallet ends at zero. Everything is typed key by key and clicked where a person sees it; screenshots go to
 * tests/artifacts/screenshots/journey-*.png.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../../src/server/modules/ledger/invariants';
import { userBalance } from '../../src/server/modules/ledger/service';
import { formatNumber, formatRial } from '../../src/shared/format';
import { toPersianDigits } from '../../src/shared/digits';
import { animationsDone, DESKTOP, PHONE } from '../support/browser';
import { payAtBank, submitToefl, toBank } from '../support/pay-flow';
import { bearer, loginAdmin, post, type RunningServer, verifiedCustomer } from '../support/server';
import { withE2eServer, WAIT_MS } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;

const e2e = withE2eServer({}, async (t) => {
  server = t.server;
});

async function shot(page: Page, name: string): Promise<void> {
  await animationsDone(page);
  await page.screenshot({ path: path.join(shots, `journey-${name}.png`), fullPage: true });
}

/** Bank Melli's IBAN of a made-up account, with its check digits. */
const IBAN = 'IR050170000000123456789012';

describe('money, part 2: a customer from paying to withdrawing', () => {
  it('pays two requests at the bank; one is done cheaper, one fails; the whole wallet is withdrawn to an approved IBAN', async () => {
    const token = await verifiedCustomer(server, '09361110001', '1335923985');
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as { id: number };
    const db = server.app.database.db;
    const purchaseOf = async (id: number) =>
      (await post(server, '/api/me/fetchPurchase', { purchase: id }, bearer(token))).body.data as {
        purchase: { state: string; expectedPrice: number };
      };

    // 1. On the phone: two TOEFL requests, each paid through the sandbox bank.
    const phone = await e2e.signedIn(token, PHONE);
    const paid: number[] = [];
    for (const dollars of ['120', '80']) {
      const id = await submitToefl(phone, server.url, dollars);
      await toBank(phone);
      await payAtBank(phone);
      await phone.waitForURL(`${server.url}/request/myRequests?purchase=${id}&payment=success`);
      await phone.getByTestId('request-detail').getByTestId('request-state').getByText('پرداخت شده').waitFor();
      paid.push(id);
    }
    const [done, failed] = paid as [number, number];
    await shot(phone, 'paid-phone');
    const priceDone = (await purchaseOf(done)).purchase.expectedPrice;
    const priceFailed = (await purchaseOf(failed)).purchase.expectedPrice;
    expect(await userBalance(db, me.id)).toEqual({ balance: 0, reserved: priceDone + priceFailed });

    // 2. Staff at a desktop: the staff home shows both paid requests waiting and the fulfilment tasks in colour.
    const staff = await e2e.signedIn(await loginAdmin(server), DESKTOP);
    await staff.goto(`${server.url}/management`);
    const waiting = staff.getByTestId('waiting-work');
    await waiting.getByText(`درخواست‌های پرداخت‌شده در انتظار انجام (${formatNumber(2)})`).waitFor();
    expect(await staff.getByTestId('waiting-paid-requests').textContent()).toContain('سارا کریمی');
    const fulfilTasks = staff.getByTestId('waiting-uafCprCpTask');
    expect(await fulfilTasks.textContent()).toContain(formatNumber(2));
    await shot(staff, 'staff-home');
    await fulfilTasks.click();
    // The count opens the queue narrowed to what it counts.
    await staff.waitForURL(`${server.url}/management/tasks?type=uafCprCpTask`);

    const taskOf = async (purchaseId: number) =>
      (await db.selectFrom('tasks').select('id').where('purchaseId', '=', purchaseId).executeTakeFirstOrThrow()).id;
    const difference = 3_000_000;
    await staff.getByTestId(`open-task-${await taskOf(done)}`).click();
    const dialog = staff.getByTestId('fulfilment-dialog');
    await dialog.getByTestId('fulfilment-fields').waitFor();
    await dialog.locator('#fulfilmentDone_realPrice').pressSequentially(String(priceDone - difference));
    await dialog.locator('#fulfilmentDone_currencyPaymentReference').pressSequentially('ETS-2026-7788');
    await expect.poll(() => dialog.getByTestId('fulfilment-split').textContent()).toContain(formatNumber(difference));
    await dialog.getByTestId('submit-done').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await purchaseOf(done)).purchase.state).toBe('purchaseSucceeded');

    // 3. The customer: the request succeeded, the difference is back in the wallet, and its receipt opens.
    await phone.goto(`${server.url}/request/myRequests?purchase=${done}`);
    const detail = phone.getByTestId('request-detail');
    await detail.getByTestId('request-state').getByText('انجام شد').waitFor();
    expect(await detail.getByTestId('state-history').textContent()).toContain(
      'مابه‌التفاوت قیمت به کیف پول شما بازگشت',
    );
    // What was paid abroad, its reference, the real price and the difference returned.
    const currency = detail.getByTestId('currency-payment');
    await currency.waitFor();
    expect(await currency.getByTestId('currency-payment-reference').textContent()).toBe('ETS-2026-7788');
    // Two codes on one request: it says which one to give the university, and what the other is for.
    expect(await currency.getByTestId('currency-payment-reference-hint').textContent()).toContain(
      'این شماره را به دانشگاه، سفارت یا مرکز آزمون بدهید',
    );
    await detail.getByTestId('receipt-verification').waitFor();
    expect(await currency.getByTestId('currency-payment-real-price').textContent()).toBe(
      formatRial(priceDone - difference),
    );
    expect(await currency.getByTestId('currency-payment-returned').textContent()).toBe(formatRial(difference));
    await shot(phone, 'request-succeeded-phone');
    await phone.goto(`${server.url}/request/myWallet`);
    await expect.poll(() => phone.getByTestId('wallet-balance').textContent()).toBe(formatRial(difference));
    await shot(phone, 'wallet-difference-phone');
    await phone.goto(`${server.url}/request/myRequests?purchase=${done}`);
    await detail.getByTestId('receipt-link').click();
    await phone.waitForURL(/\/request\/receipts\/\d+$/);
    const receipt = phone.getByTestId('receipt');
    await receipt.waitFor();
    expect(await receipt.getByTestId('receipt-amount').textContent()).toContain(formatNumber(priceDone));
    expect(await receipt.getByTestId('receipt-status').textContent()).toBe('دریافت شد');
    expect(await receipt.getByTestId('receipt-purchase').textContent()).toContain(toPersianDigits(done));
    await shot(phone, 'receipt-phone');

    // 4. Staff fail the second request from its task; its whole price returns to the wallet.
    await staff.getByRole('button', { name: 'بارگذاری دوباره' }).click();
    await staff.getByTestId(`open-task-${await taskOf(failed)}`).click();
    await dialog.getByTestId('fulfilment-fields').waitFor();
    await dialog.getByTestId('tab-failed').click();
    const reason = 'درگاه دانشگاه کارت‌های این کشور را نپذیرفت.';
    await dialog.locator('#fulfilmentFailed_reason').pressSequentially(reason);
    await dialog.getByTestId('submit-failed').click();
    await dialog.waitFor({ state: 'hidden' });

    await phone.goto(`${server.url}/request/myRequests?purchase=${failed}`);
    await detail.getByTestId('request-state').getByText('ناموفق').waitFor();
    expect(await detail.getByTestId('state-reason').textContent()).toContain(reason);
    expect(await detail.getByTestId('state-history').textContent()).toContain('انجام نشد؛ مبلغ به کیف پول شما بازگشت');
    await shot(phone, 'request-failed-phone');
    const wallet = difference + priceFailed;
    expect(await userBalance(db, me.id)).toEqual({ balance: wallet, reserved: 0 });

    // 5. The customer registers an IBAN (Persian digits, grouped, as a phone keyboard gives them).
    await phone.goto(`${server.url}/request/myWallet`);
    await expect.poll(() => phone.getByTestId('wallet-balance').textContent()).toBe(formatRial(wallet));
    const accounts = phone.getByTestId('bank-accounts');
    await phone
      .getByTestId('iban-input')
      .pressSequentially(`IR${toPersianDigits(IBAN.slice(2).replace(/(\d{4})/g, '$1 '))}`);
    await expect.poll(() => phone.getByTestId('iban-help').textContent()).toContain('بانک ملی');
    await phone.getByTestId('save-iban').click();
    await expect.poll(() => accounts.textContent()).toContain('در انتظار بررسی');
    await shot(phone, 'iban-waiting-phone');

    // 6. Staff approve its ownership from «bank accounts to approve», reached from the staff home.
    await staff.goto(`${server.url}/management`);
    await staff.getByTestId('management-tiles').getByText('حساب‌های بانکی برای تایید').click();
    await staff.waitForURL(`${server.url}/management/bankAccounts`);
    const account = await db
      .selectFrom('userBankAccounts')
      .select('id')
      .where('userId', '=', me.id)
      .executeTakeFirstOrThrow();
    const review = staff.getByTestId(`review-bank-account-${account.id}`);
    await review.waitFor();
    await shot(staff, 'bank-accounts-to-approve');
    await review.click();
    const reviewDialog = staff.getByTestId('bank-account-review');
    await expect
      .poll(() => reviewDialog.getByTestId('review-iban').textContent())
      .toBe('IR05 0170 0000 0012 3456 7890 12');
    await reviewDialog.getByTestId('approve-uba').click();
    await reviewDialog.waitFor({ state: 'detached' });

    // 7. The customer sees it approved (live) and withdraws the whole wallet, typing the amount.
    await expect.poll(() => accounts.textContent(), { timeout: WAIT_MS }).toContain('تایید شده');
    await phone.getByTestId('withdraw-amount').pressSequentially(String(wallet));
    await phone.getByTestId('withdraw-submit').click();
    const confirm = phone.getByTestId('withdraw-confirm');
    await expect.poll(() => confirm.textContent()).toContain(formatNumber(wallet));
    await confirm.getByTestId('withdraw-confirm-button').click();
    await confirm.waitFor({ state: 'detached' });
    const withdrawals = phone.getByTestId('withdrawals');
    await expect.poll(() => withdrawals.textContent()).toContain('در انتظار واریز');
    expect(await userBalance(db, me.id)).toEqual({ balance: 0, reserved: 0 });

    // 8. Staff record the bank transfer; the customer's wallet stays at zero with the withdrawal done.
    await staff.goto(`${server.url}/management/withdrawals`);
    const withdrawal = await db
      .selectFrom('withdrawals')
      .select('id')
      .where('userId', '=', me.id)
      .executeTakeFirstOrThrow();
    await staff.getByTestId(`withdrawal-done-${withdrawal.id}`).click();
    await staff.getByTestId('withdrawal-reference').pressSequentially('PAYA-140509-0042');
    await staff.getByTestId('withdrawal-decision-submit').click();
    await staff.getByTestId('withdrawal-dialog').waitFor({ state: 'detached' });

    await expect.poll(() => withdrawals.textContent(), { timeout: WAIT_MS }).toContain('واریز شد');
    await expect.poll(() => withdrawals.textContent()).toContain('PAYA-140509-0042');
    await phone.reload();
    await expect.poll(() => phone.getByTestId('wallet-balance').textContent()).toBe(formatRial(0));
    expect(await userBalance(db, me.id)).toEqual({ balance: 0, reserved: 0 });
    expect(await checkInvariants(db)).toEqual([]);
    await shot(phone, 'wallet-zero-phone');
  }, 900_000);
});
