/**
 * The audit trail speaks Persian (issue 44 point 6), at a staff desk (1366×768): actions and kinds of record by their
 * Persian names (from src/shared/audit/names.ts), the filter listing those names, and each change as «field: before
 * ← after» with Persian names, Persian digits and Jalali dates, each value isolated in its direction and wrapped only
 * between words. Screenshot: audit-trail-desktop.png.
 */
import { latinDigits } from '../support/page-checks';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { animationsDone, DESKTOP } from '../support/browser';
import { withE2eServer } from '../support/e2e';
import { bearer, post, type RunningServer, verifiedCustomer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
const e2e = withE2eServer({}, (t) => {
  server = t.server;
});

describe('the audit trail', () => {
  it('names actions, records and changed fields in Persian, with Jalali dates and Persian digits', async () => {
    // A customer fills in their profile (updateUserData), staff approve it (approveProfileAsL1), a card is saved.
    const token = await verifiedCustomer(server, '09351140001', '0012345679');
    await post(server, '/api/me/saveUserCard', { cardNumber: '6037991234567893' }, bearer(token));

    const page = await e2e.signedIn(await e2e.adminToken(), DESKTOP);
    await page.goto(`${server.url}/management/audit-log`);
    const table = page.locator('.audit-log-table');
    await table.getByText('تایید هویت', { exact: true }).first().waitFor();
    await table.getByText('ثبت کارت بانکی', { exact: true }).first().waitFor();
    const shown = (await table.textContent())!;
    for (const code of ['approveProfileAsL1', 'updateUserData', 'saveUserCard', 'userCard', 'approvedLevel', '{"'])
      expect(shown).not.toContain(code);

    // The approval: «سطح تایید: ۰ ← ۱».
    const level = table.locator('[data-testid="audit-change"][data-field="approvedLevel"]').first();
    expect((await level.textContent())!.replace(/\s+/g, ' ').trim()).toBe('سطح تایید: ۰ ← ۱');
    // The profile: the birth date in Jalali with Persian digits.
    const birth = table.locator('[data-testid="audit-change"][data-field="dateOfBirth"]').first();
    expect(await birth.getByTestId('audit-change-after').textContent()).toMatch(/^۱۳[۰-۹]{2}\/[۰-۹]{2}\/[۰-۹]{2}$/);
    // Each line reads right to left; each value is isolated and wraps between words, a word longer than the cell
    // (a file address) breaks rather than widening the table: on a phone the stacked card must not scroll sideways.
    expect(await level.evaluate((e) => getComputedStyle(e).direction)).toBe('rtl');
    for (const value of await table.getByTestId('audit-change-after').all()) {
      expect(await value.evaluate((e) => e.tagName)).toBe('BDI');
      expect(await value.evaluate((e) => [getComputedStyle(e).wordBreak, getComputedStyle(e).overflowWrap])).toEqual([
        'normal',
        'anywhere',
      ]);
    }
    await animationsDone(page);
    // Ids, dates and amounts in Persian digits; only what is Latin by nature (an IBAN, a file address) stays so.
    expect((await latinDigits(page)).found).toEqual([]);
    await page.screenshot({ path: `${shots}/audit-trail-desktop.png`, fullPage: true });

    // The filter lists Persian names; choosing one shows only those entries.
    await page.locator('#audit-action').click();
    const options = page.getByRole('option');
    await options.filter({ hasText: 'ثبت کارت بانکی' }).waitFor();
    const names = await options.allTextContents();
    expect(names.filter((n) => /[A-Za-z]/.test(n))).toEqual([]);
    await options.filter({ hasText: 'ثبت کارت بانکی' }).click();
    await expect.poll(() => table.getByText('تایید هویت', { exact: true }).count()).toBe(0);
    const card = table.locator('[data-testid="audit-change"][data-field="state"]').first();
    expect((await card.textContent())!.replace(/\s+/g, ' ').trim()).toBe('وضعیت: در انتظار');
    await page.locator('#audit-entity').click();
    await page.getByRole('option', { name: 'کارت بانکی', exact: true }).waitFor();
  });
});
