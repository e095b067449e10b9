/**
 * The desk funnel seen end to end (issue 47 point 6, decision 046): one customer opens a desk, types in a field and
 * leaves; another fills the form and submits, and pays; the staff funnel page shows the desk's counts (opened,
 * first input, submitted, paid, left) in Persian digits and the title of the field the one who left touched last.
 * The rules of counting are the API test's (tests/api/desk-funnel.test.ts); here only what the pages send and show.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE } from '../support/browser';
import { choose, watchErrors, withE2eServer } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const DESK = 'uafCpr';
const e2e = withE2eServer();

/** Waits for the page's funnel report that carries `key` (a report goes a few seconds after the last change). */
const reportWith = (page: Page, key: string) =>
  page.waitForResponse(
    (r) => r.url().endsWith('/api/public/recordDeskFunnel') && (r.request().postData() ?? '').includes(`"${key}"`),
  );

describe('the desk funnel', () => {
  it('counts a visit that left at a field and one that submitted, and the staff page shows them', async () => {
    const { server, money } = e2e;

    // One customer opens the desk, types an address and leaves.
    const leaver = await e2e.customer();
    const first = await e2e.signedIn(leaver.token);
    const errors = watchErrors(first);
    const opened = reportWith(first, 'visit');
    await first.goto(`${server.url}/desks/${DESK}`);
    await opened;
    const typed = reportWith(first, 'field');
    await first.locator('#root_targetPageAddress').pressSequentially('https://apply.example.edu');
    await typed;
    expect(errors).toEqual([]);
    await first.context().close();

    // Another fills the form and submits; then pays from their wallet.
    const buyer = await e2e.customer();
    const page = await e2e.signedIn(buyer.token);
    await page.goto(`${server.url}/desks/${DESK}`);
    await choose(page, 'currency', 'دلار آمریکا');
    await page.locator('#root_amount').pressSequentially('25');
    await choose(page, 'requestedPaymentMethodGroup', 'کارت اعتباری بین‌المللی');
    await page.locator('#root_targetPageAddress').pressSequentially('https://pay.example.org');
    await page.locator('#root_targetPageUsername').pressSequentially('student7');
    await page.locator('#root_targetPagePassword').pressSequentially('pw-7');
    await page.getByTestId('price-summary').waitFor();
    await page.getByTestId('confirm-price').click();
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid=submit-request]')?.disabled,
    );
    const submitted = reportWith(page, 'submitted');
    await page.getByTestId('submit-request').click();
    await page.getByTestId('pay-step').waitFor();
    await submitted;
    const purchase = Number(new URL(page.url()).searchParams.get('purchase'));
    const detail = await money.purchaseOf(buyer, purchase);
    await money.deposit(buyer, detail.purchase.expectedPrice);
    expect((await money.payOk(buyer, purchase)).purchase.state).toBe('paid');
    await page.context().close();

    // Half an hour on, the first visit counts as left (the server decides at read time; the clock is moved here).
    await server.app.database.db
      .updateTable('deskFunnelVisits')
      .set({ lastSeenAt: new Date(Date.now() - 3_600_000) })
      .where('desk', '=', DESK)
      .execute();

    const staff = await e2e.staff(['manageCatalogue']);
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const view = await e2e.signedIn(staff, viewport);
      const viewErrors = watchErrors(view);
      await view.goto(`${server.url}/management/funnel`);
      const card = view.getByTestId('funnel-desk').filter({ hasText: 'پرداخت هزینه اپلیکیشن دانشگاه' });
      await card.waitFor();
      // Opened, first input, submitted, paid: in Persian digits.
      expect(await card.getByTestId('funnel-count').allInnerTexts()).toEqual(['۲', '۲', '۱', '۱']);
      await expect.poll(() => card.getByTestId('funnel-left').innerText()).toContain('ترک کردند: ۱');
      expect(await card.getByTestId('funnel-left-field').innerText()).toMatch(/آدرس صفحه پرداخت\s+۱/);
      expect(await card.innerText()).toContain('۵۰٪ از مرحلهٔ قبل');
      await view.screenshot({ path: `${shots}/desk-funnel-${size}.png`, fullPage: true });
      expect(viewErrors).toEqual([]);
      await view.context().close();
    }
  });
});
