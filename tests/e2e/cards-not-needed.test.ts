/**
 * A bank card is not asked for when the gateway in use does not need one (issue 44 point 5, decision 034): with the
 * sandbox bank in its default holder mode the bank checks the holder itself, so the profile says no card is needed
 * (not that online payment needs a registered verified card), offers no card form, shows a card saved anyway as
 * «ثبت شده» rather than waiting for a review, and staff are left no card-review task. On a phone (390×844).
 * Screenshot: cards-not-needed-profile-phone.png.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { animationsDone, PHONE } from '../support/browser';
import { withE2eServer } from '../support/e2e';
import { bearer, post, type RunningServer, verifiedCustomer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
const e2e = withE2eServer({}, (t) => {
  server = t.server;
});

describe('cards with a gateway that checks the holder itself', () => {
  it('the profile says no card is needed, and a saved card leaves staff no review', async () => {
    const token = await verifiedCustomer(server, '09351130001', '0012345679');
    const saved = await post(server, '/api/me/saveUserCard', { cardNumber: '6037991234567893' }, bearer(token));
    expect(saved.status, saved.body.msg).toBe(200);
    const cardId = (saved.body.data as { id: number }).id;
    const tasks = await server.app.database.db
      .selectFrom('tasks')
      .select('id')
      .where('userCardId', '=', cardId)
      .execute();
    expect(tasks).toEqual([]);

    const page = await e2e.signedIn(token, PHONE);
    await page.goto(`${server.url}/request/myProfile`);
    const section = page.getByTestId('my-cards');
    await section.getByTestId('cards-not-needed').getByText('برای پرداخت آنلاین لازم نیست کارتی ثبت کنید').waitFor();
    const text = await section.textContent();
    expect(text).not.toContain('ثبت و تایید شده باشد');
    expect(text).not.toContain('در انتظار تایید');
    expect(await section.getByTestId('card-state').textContent()).toBe('ثبت شده');
    expect(await section.getByTestId('card-number-input').count()).toBe(0);
    await section.scrollIntoViewIfNeeded();
    await animationsDone(page);
    await page.screenshot({ path: `${shots}/cards-not-needed-profile-phone.png`, fullPage: true });
  });
});
