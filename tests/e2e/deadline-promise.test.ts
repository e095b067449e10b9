/**
 * The promise at the quote (decision 041) in Chromium at 390×844: on the SEVIS desk the promise appears beside the
 * price as the interview date is typed (too close: why not; far: until when to pay), the customer pays from the
 * wallet and the request is promised; once the clock passes the promise (the server's check run with the test's
 * clock) the wallet shows the compensation with its reason, and the request says so; the desk's page then shows its
 * record («۰ از ۱ …») and staff (1366×768) see it with the compensation paid on their home. Every number in Persian
 * digits.
 */
import { describe, expect, it } from 'vitest';
import { formatDateText } from '../../src/shared/calendar/date-text';
import { formatNumber } from '../../src/shared/format';
import { choose, watchErrors, withE2eServer } from '../support/e2e';
import { DESKTOP, takeScreenshots } from '../support/browser';

const t = withE2eServer();
const shots = '/tmp/shots-promise';
const HOUR = 3_600_000;
/** Tehran's calendar date `days` from today (ISO). */
const tehranDate = (days: number) => new Date(Date.now() + (210 + days * 1440) * 60_000).toISOString().slice(0, 10);

describe('the promise at the quote', () => {
  it('shows the promise as the date is typed, and the compensation in the wallet once the promise passes', async () => {
    const who = await t.customer();
    await t.money.deposit(who, 2_000_000_000);
    const page = await t.signedIn(who.token);
    const errors = watchErrors(page, { network: true });
    await page.goto(`${t.server.url}/desks/sevisGeneralCpr`);
    await page.getByTestId('desk-page').waitFor();
    await choose(page, 'currency', 'دلار آمریکا');
    await page.locator('#root_amount').pressSequentially('350');
    await choose(page, 'requestedPaymentMethodGroup', 'کارت اعتباری بین‌المللی');
    await page.getByTestId('price-summary').waitFor();

    // An interview the day after tomorrow: too close, and the desk says why.
    const date = page.locator('#root_deadlineDate');
    await date.pressSequentially(formatDateText(tehranDate(2), 'fa'));
    const promise = page.getByTestId('deadline-promise');
    await promise.getByText('پیش از این موعد قول انجام نمی‌دهیم', { exact: false }).waitFor();
    expect(await promise.textContent()).toContain('سه روز کاری پیش از مصاحبه');
    if (takeScreenshots) await page.screenshot({ path: `${shots}/too-close.png`, fullPage: true });

    // Forty days away: until when to pay, live as the date changes.
    await date.fill('');
    await date.pressSequentially(formatDateText(tehranDate(40), 'fa'));
    await promise.getByText('پرداخت کنید، پیش از', { exact: false }).waitFor();
    expect(await promise.textContent()).toMatch(/^اگر تا .+ پرداخت کنید، پیش از .+ انجام می‌شود\.$/);
    expect(await promise.textContent()).not.toMatch(/[0-9]/);
    if (takeScreenshots) await page.screenshot({ path: `${shots}/promise.png`, fullPage: true });

    await page.locator('#root_targetPageAddress').pressSequentially('https://fmjfee.example.org');
    await page.locator('#root_targetPageUsername').pressSequentially('student');
    await page.locator('#root_targetPagePassword').pressSequentially('secret');
    await page.getByTestId('confirm-price').click();
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid=submit-request]')?.disabled,
    );
    await page.getByTestId('submit-request').click();
    await page.getByTestId('pay-step').waitFor();
    await page.getByTestId('request-promise').getByText('پرداخت کنید، پیش از', { exact: false }).waitFor();
    await page.getByTestId('pay-purchase').click();
    await page.getByTestId('request-promise').getByText('قول داده‌ایم پیش از', { exact: false }).waitFor();
    const id = Number(new URL(page.url()).searchParams.get('purchase'));

    // The clock passes the promise while the request is still paid: the server compensates at once.
    const row = await t.server.app.database.db
      .selectFrom('purchases')
      .select(['promisedBy', 'fee'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(await t.server.app.compensateMissedPromises(new Date(new Date(row.promisedBy!).getTime() + HOUR))).toBe(1);

    await page.goto(`${t.server.url}/request/myWallet`);
    const line = page.getByText('جبران قول انجام‌نشده', { exact: false }).first();
    await line.waitFor();
    expect(await line.textContent()).toContain(`(${id.toLocaleString('fa-IR', { useGrouping: false })})`);
    expect(await line.textContent()).not.toMatch(/[0-9]/);
    if (takeScreenshots) await page.screenshot({ path: `${shots}/wallet.png`, fullPage: true });

    await page.goto(`${t.server.url}/request/myRequests?purchase=${id}`);
    await page.getByTestId('request-promise').getByText('جبران به کیف پول برگشت', { exact: false }).waitFor();
    await page.getByText('که قول داده بودیم انجام نشد', { exact: false }).first().waitFor();
    if (takeScreenshots) await page.screenshot({ path: `${shots}/request.png`, fullPage: true });

    // The desk's record in public, from the server's counts: the one settled promise was missed.
    await page.goto(`${t.server.url}/desks/sevisGeneralCpr`);
    const record = page.getByTestId('desk-promise-record');
    await record.getByText('۰ از ۱ درخواست آخر پیش از موعد انجام شد').waitFor();
    if (takeScreenshots) await page.screenshot({ path: `${shots}/desk-record.png`, fullPage: true });
    expect(errors).toEqual([]);

    // Staff who see requests find each desk's record and the compensation paid on their home.
    const desk = await t.signedIn(await t.staff(['viewRequests']), DESKTOP);
    const staffErrors = watchErrors(desk, { network: true });
    await desk.goto(`${t.server.url}/management`);
    const table = desk.getByTestId('promise-records-table');
    await table.getByTestId('promise-record-sevisGeneralCpr').getByText('۰ از ۱').waitFor();
    await table.getByText(formatNumber(row.fee), { exact: false }).first().waitFor();
    if (takeScreenshots) await desk.screenshot({ path: `${shots}/staff-records.png`, fullPage: true });
    expect(staffErrors).toEqual([]);
  });
});
