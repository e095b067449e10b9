/**
 * Deadlines (issue 31, point 4) in Chromium: staff at 1366x768 see paid requests' tasks ordered by deadline with
 * «مهلت در خطر» and the time left on the one due soon; the customer at 390x844 sees the countdown on the request.
 * Issue 44: the deadline reads in Jalali with Persian digits everywhere (the customer's request, the staff request
 * dialog, the fulfilment dialog), the day is the customer's until its end, and staff see who and how urgent.
 */
import type { Browser } from 'playwright-core';
import { latinDigits } from '../support/page-checks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, keepSignedIn, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
import { type Customer, moneyHelpers } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';
import { gregorianToJalali } from '../../src/shared/calendar';
import { toEnglishDigits, toPersianDigits } from '../../src/shared/digits';

const shots = '/tmp/shots31d';
let server: RunningServer;
let browser: Browser;
let money: ReturnType<typeof moneyHelpers>;
let who: Customer;
let admin: string;
const paid: Record<'soon' | 'later' | 'none', number> = { soon: 0, later: 0, none: 0 };

/** Tehran's calendar date `days` from today (ISO, as the form sends it). */
const tehranDate = (days: number) => new Date(Date.now() + (210 + days * 1440) * 60_000).toISOString().slice(0, 10);

async function paidRequest(deadlineDays: number | null): Promise<number> {
  const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
    items: Array<{ id: number; isCash: boolean }>;
  };
  const form = {
    currency: money.usd.id,
    amount: 10,
    requestedPaymentMethodGroup: groups.items.find((g) => !g.isCash)!.id,
  };
  const quote = await post(server, '/api/me/desks/toeflGeneralCpr/priceInquiry', form, bearer(who.token));
  const res = await post(
    server,
    '/api/me/desks/toeflGeneralCpr/requests',
    {
      ...form,
      quoteId: (quote.body.data as { quoteId: string }).quoteId,
      targetPageAddress: 'https://www.ets.org/toefl/pay',
      targetPageUsername: 'student1',
      targetPagePassword: 'secret',
      ...(deadlineDays === null ? {} : { deadlineDate: tehranDate(deadlineDays) }),
    },
    { ...bearer(who.token), 'idempotency-key': money.newKey() },
  );
  expect(res.status, res.body.msg).toBe(200);
  const purchase = res.body.data as { id: number; expectedPrice: number };
  await money.deposit(who, purchase.expectedPrice);
  await money.payOk(who, purchase.id);
  return purchase.id;
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  money = moneyHelpers(server);
  await money.ready();
  who = await money.customer();
  admin = await loginAdmin(server);
  paid.none = await paidRequest(null);
  paid.later = await paidRequest(10);
  paid.soon = await paidRequest(1);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('deadlines', () => {
  it('staff see the queue by deadline with the one at risk marked; the customer sees the countdown', async () => {
    const tasks = await server.app.database.db.selectFrom('tasks').select(['id', 'purchaseId']).execute();
    const taskOf = (purchaseId: number) => tasks.find((t) => t.purchaseId === purchaseId)!.id;

    const staff = await browser.newContext({ viewport: DESKTOP });
    await keepSignedIn(staff, admin);
    const page = await staff.newPage();
    await page.goto(`${server.url}/management/tasks?type=uafCprCpTask`);
    const rows = page.getByTestId('tasks-row');
    await rows.nth(2).waitFor();
    const ids = await rows.evaluateAll((els) => els.map((el) => el.querySelector('td')?.textContent ?? ''));
    const persian = (n: number) => n.toLocaleString('fa-IR', { useGrouping: false });
    expect(ids).toEqual([paid.soon, paid.later, paid.none].map((p) => persian(taskOf(p))));
    await rows.first().getByTestId('deadline-at-risk').getByText('مهلت در خطر').waitFor();
    // Tomorrow's deadline is the end of tomorrow (issue 44): between one and two days left.
    expect(await rows.first().getByTestId('deadline-left').textContent()).toMatch(/^۱ روز( و [۰-۹]+ ساعت)? مانده$/);
    expect(await rows.nth(1).getByTestId('deadline-at-risk').count()).toBe(0);
    expect(await rows.nth(1).getByTestId('deadline-left').textContent()).toMatch(/^[۹۱۰]+ روز/);
    if (takeScreenshots) await page.screenshot({ path: `${shots}/staff-tasks.png`, fullPage: true });
    // Staff were told of the one at risk: its notification opens the request on staff's requests page.
    await page.getByTestId('notification-bell').click();
    const atRisk = page.getByTestId('notification').filter({ hasText: 'هنوز انجام نشده' });
    await atRisk.getByTestId('notification-request').click();
    await page.waitForURL(`${server.url}/management/requests?open=${paid.soon}`);
    await page.getByTestId('staff-request-detail').waitFor();
    await staff.close();

    const customer = await browser.newContext({ viewport: PHONE });
    await keepSignedIn(customer, who.token);
    const phone = await customer.newPage();
    await phone.goto(`${server.url}/request/myRequests?purchase=${paid.later}`);
    const countdown = phone.getByTestId('request-detail').getByTestId('deadline-countdown');
    await countdown.waitFor();
    expect(await countdown.textContent()).toMatch(/^[۹۱۰]+ روز( و [۰-۹]+ ساعت)? تا مهلت/);
    await countdown.scrollIntoViewIfNeeded();
    if (takeScreenshots) await phone.screenshot({ path: `${shots}/customer-countdown.png` });
    await customer.close();
  });

  it('reads the deadline in Jalali, gives the customer the whole day, and tells staff who and how urgent', async () => {
    const soonDate = tehranDate(1);
    const jalali = toPersianDigits(gregorianToJalali(soonDate)); // ۱۴۰۵/۰۹/۰۸
    const latin = /[0-9]/;

    // The customer, on a phone: the field reads ۱۴۰۵/۰۹/۰۸, and tomorrow's deadline is more than a day away.
    const customer = await browser.newContext({ viewport: PHONE });
    await keepSignedIn(customer, who.token);
    const phone = await customer.newPage();
    await phone.goto(`${server.url}/request/myRequests?purchase=${paid.soon}`);
    const detail = phone.getByTestId('request-detail');
    const field = detail.locator('[data-field-date="deadlineDate"]');
    await field.waitFor();
    expect(await field.textContent()).toBe(jalali);
    expect(await detail.locator('[data-field-view="deadlineDate"]').textContent()).not.toMatch(latin);
    // Tomorrow ends 24 to 48 hours from now: «۱ روز …», never hours only (the day counted from its first minute).
    expect(await detail.getByTestId('deadline-countdown').textContent()).toMatch(/^۱ روز( و [۰-۹]+ ساعت)? تا مهلت/);
    await field.scrollIntoViewIfNeeded();
    // Every number on the request with its deadline reads in Persian digits.
    expect((await latinDigits(phone)).found).toEqual([]);
    if (takeScreenshots) await phone.screenshot({ path: `${shots}/customer-request-jalali.png` });
    await customer.close();

    const user = await server.app.database.db
      .selectFrom('users')
      .select(['firstName', 'lastName', 'mobileNo'])
      .where('id', '=', who.userId)
      .executeTakeFirstOrThrow();
    const staff = await browser.newContext({ viewport: DESKTOP });
    await keepSignedIn(staff, admin);
    const page = await staff.newPage();

    // The staff home: the paid-requests table has a deadline column; a count at «۰» is not coloured.
    await page.goto(`${server.url}/management`);
    const table = page.getByTestId('waiting-paid-requests');
    await table.getByRole('columnheader', { name: 'مهلت' }).waitFor();
    const soonRow = table.getByRole('row').filter({ has: page.getByTestId(`waiting-request-${paid.soon}`) });
    await soonRow.getByTestId('deadline-at-risk').waitFor();
    expect(await soonRow.getByTestId('deadline').locator('.ltr').textContent()).toBe(jalali);
    const chips = page.getByTestId('waiting-task-types').locator('[data-tone]');
    await chips.first().waitFor();
    const tones = await chips.evaluateAll((els) =>
      els.map((el) => [el.textContent ?? '', el.getAttribute('data-tone')]),
    );
    const zero = tones.filter(([text]) => text!.endsWith(': ۰'));
    expect(zero.length).toBeGreaterThan(0);
    expect(zero.every(([, tone]) => tone === 'neutral')).toBe(true);
    expect(tones.filter(([text]) => !text!.endsWith(': ۰')).every(([, tone]) => tone !== 'neutral')).toBe(true);
    if (takeScreenshots) await page.screenshot({ path: `${shots}/staff-home-deadline.png`, fullPage: true });

    // The staff request dialog: who (name, mobile in Persian digits) and how urgent, the field in Jalali.
    await page.goto(`${server.url}/management/requests?open=${paid.soon}`);
    const dialog = page.getByTestId('staff-request-detail');
    const whoLine = dialog.getByTestId('staff-request-who');
    await whoLine.waitFor();
    expect(await whoLine.getByTestId('request-customer-name').textContent()).toContain(
      `${user.firstName} ${user.lastName}`,
    );
    const mobile = (await whoLine.getByTestId('request-customer-mobile').textContent())!;
    expect(mobile).not.toMatch(latin);
    expect(toEnglishDigits(mobile).replace(/\s/g, '')).toBe(user.mobileNo);
    expect(await whoLine.getByTestId('request-deadline').locator('.ltr').textContent()).toBe(jalali);
    await whoLine.getByTestId('deadline-at-risk').waitFor();
    expect(await dialog.locator('[data-field-date="deadlineDate"]').textContent()).toBe(jalali);
    expect((await latinDigits(page)).found).toEqual([]);
    if (takeScreenshots) await page.screenshot({ path: `${shots}/staff-request-dialog.png` });

    // The fulfilment dialog opened from it: the same date, the same who and how urgent.
    await dialog.getByTestId('open-fulfilment').click();
    const fields = page.getByTestId('fulfilment-fields');
    await fields.waitFor();
    expect(await fields.locator('[data-field-date="deadlineDate"]').textContent()).toBe(jalali);
    expect(await fields.textContent()).not.toContain(soonDate);
    const fulfilmentDeadline = page.getByTestId('request-deadline').last();
    expect(await fulfilmentDeadline.locator('.ltr').textContent()).toBe(jalali);
    expect((await latinDigits(page)).found).toEqual([]);
    if (takeScreenshots) await page.screenshot({ path: `${shots}/fulfilment-dialog.png` });
    await staff.close();
  });
});
