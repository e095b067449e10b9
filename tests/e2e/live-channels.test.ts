/**
 * Live updates in Chromium now that userProfile.changed no longer goes out on the public channel: when a
 * customer's profile changes on another device, their open profile page follows it (their own channel) and
 * staff's open customer list shows the new name (the staff channel), both without a reload. The list also catches
 * up when its first answer was read before the change but arrived after the news, and when the news came while the
 * connection was down.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, keepSignedIn, PHONE, settled } from '../support/browser';
import { jpegWithExif, uploadForm } from '../support/images';
import { bearer, loginAdmin, loginByCode, post, type RunningServer } from '../support/server';
import { withE2eServer, WAIT_MS } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;

const e2e = withE2eServer({}, async (t) => {
  server = t.server;
  browser = t.browser;
});

/** Resolves once the page's live connection has been told it joined `channel` (read off the WebSocket frames). */
function joined(page: Page, channel: string): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        if (String(payload).includes(`"subscription_succeeded","${channel}"`)) resolve();
      }),
    );
  });
}

/** The customer saves their profile, with a card image, as from another device. */
async function saveProfile(
  customer: string,
  person: { nationalCode: string; firstName: string; lastName: string },
): Promise<void> {
  const upload = await fetch(`${server.url}/api/me/uploadFile`, {
    method: 'POST',
    headers: bearer(customer),
    body: uploadForm(await jpegWithExif(), 'card.jpg'),
  });
  const card = ((await upload.json()) as { path: string }).path;
  const saved = await post(
    server,
    '/api/me/updateUserData',
    { ...person, dateOfBirth: '1995-03-21', nationalCardImageAddress: card },
    bearer(customer),
  );
  expect(saved.status).toBe(200);
}

describe('live profile changes', () => {
  it("reach the customer's open profile page and staff's customer list without a reload", async () => {
    const mobileNo = '09190000001';
    const customer = await loginByCode(server, mobileNo);
    const { uid } = (await post(server, '/api/me/fetchUserData', undefined, bearer(customer))).body.data as {
      uid: string;
    };

    const profilePage = await e2e.signedIn(customer, PHONE);
    const customerJoined = joined(profilePage, `private-user.${uid}`);
    await profilePage.goto(`${server.url}/request/myProfile`);
    await profilePage.getByTestId('profile-status').getByText('تایید نشده').waitFor();

    const staffPage = await e2e.signedIn(await loginAdmin(server), DESKTOP);
    const staffJoined = joined(staffPage, 'private-staff');
    await staffPage.goto(`${server.url}/management/customers`);
    await Promise.all([customerJoined, staffJoined]);
    expect(await staffPage.getByText('مریم احمدی').count()).toBe(0);

    // The same customer saves the profile from another device.
    await saveProfile(customer, { nationalCode: '0499370899', firstName: 'مریم', lastName: 'احمدی' });

    await profilePage.getByTestId('profile-status').getByText('در انتظار بررسی').waitFor();
    await staffPage.getByText('مریم احمدی').first().waitFor();
    await profilePage.screenshot({ path: `${shots}/live-profile-phone.png`, fullPage: true });
    await staffPage.screenshot({ path: `${shots}/live-customers-desktop.png` });
  });

  it('fetch a list again whose first answer, read before the change, was still on its way when the news came', async () => {
    const customer = await loginByCode(server, '09190000002');
    const staffPage = await e2e.signedIn(await loginAdmin(server), DESKTOP);
    const staffJoined = joined(staffPage, 'private-staff');
    const news = new Promise<void>((resolve) => {
      staffPage.on('websocket', (ws) =>
        ws.on('framereceived', ({ payload }) => {
          if (String(payload).includes('userProfile.changed')) resolve();
        }),
      );
    });
    // The list's first answer is read from the server now, before the save, and handed to the page only after
    // the live news of the save has arrived: the order a slow network or a busy server can produce.
    let firstAnswer = true;
    let answerHeld!: () => void;
    const held = new Promise<void>((resolve) => (answerHeld = resolve));
    await staffPage.route('**/api/sys/searchCustomers', async (route) => {
      if (!firstAnswer) return route.continue();
      firstAnswer = false;
      const response = await route.fetch();
      answerHeld();
      await news;
      await route.fulfill({ response });
    });
    await staffPage.goto(`${server.url}/management/customers`);
    await Promise.all([staffJoined, held]);

    await saveProfile(customer, { nationalCode: '0499370902', firstName: 'سارا', lastName: 'کریمی' });
    await news;
    await staffPage.getByText('سارا کریمی').first().waitFor({ timeout: WAIT_MS });
  });

  it('fetch a list again once the connection is back, for news sent while it was down', async () => {
    const customer = await loginByCode(server, '09190000003');
    const context = await browser.newContext({ viewport: DESKTOP });
    await keepSignedIn(context, await loginAdmin(server));
    const staffPage = await context.newPage();
    let joins = 0;
    let closed = false;
    staffPage.on('websocket', (ws) => {
      ws.on('framereceived', ({ payload }) => {
        if (String(payload).includes('"subscription_succeeded","private-staff"')) joins += 1;
      });
      ws.on('close', () => (closed = true));
    });
    await staffPage.goto(`${server.url}/management/customers`);
    await expect.poll(() => joins, { timeout: WAIT_MS }).toBe(1);
    await settled(staffPage);

    // The network goes, the profile is saved meanwhile, the network comes back.
    await context.setOffline(true);
    await expect.poll(() => closed, { timeout: WAIT_MS }).toBe(true);
    // Saved and published; the staff page, whose connection closed (above), cannot have been told.
    await saveProfile(customer, { nationalCode: '0499370910', firstName: 'نگار', lastName: 'رضایی' });
    expect(await staffPage.getByText('نگار رضایی').count()).toBe(0);
    await context.setOffline(false);
    await expect.poll(() => joins, { timeout: WAIT_MS }).toBe(2);
    await staffPage.getByText('نگار رضایی').first().waitFor({ timeout: WAIT_MS });
    await context.close();
  }, 120_000);
});
