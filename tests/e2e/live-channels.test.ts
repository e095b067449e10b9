/**
 * Live updates in Chromium now that userProfile.changed no longer goes out on the public channel: when a
 * customer's profile changes on another device, their open profile page follows it (their own channel) and
 * staff's open customer list shows the new name (the staff channel), both without a reload.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, PHONE, keepSignedIn } from '../support/browser';
import { jpegWithExif, uploadForm } from '../support/images';
import { bearer, loginAdmin, loginByCode, post, type RunningServer, startServer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedIn(token: string, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await keepSignedIn(context, token);
  return context.newPage();
}

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

describe('live profile changes', () => {
  it("reach the customer's open profile page and staff's customer list without a reload", async () => {
    const mobileNo = '09190000001';
    const customer = await loginByCode(server, mobileNo);
    const { uid } = (await post(server, '/api/me/fetchUserData', undefined, bearer(customer))).body.data as {
      uid: string;
    };

    const profilePage = await signedIn(customer, PHONE);
    const customerJoined = joined(profilePage, `private-user.${uid}`);
    await profilePage.goto(`${server.url}/request/myProfile`);
    await profilePage.getByTestId('profile-status').getByText('تایید نشده').waitFor();

    const staffPage = await signedIn(await loginAdmin(server), DESKTOP);
    const staffJoined = joined(staffPage, 'private-staff');
    await staffPage.goto(`${server.url}/management/customers`);
    await Promise.all([customerJoined, staffJoined]);
    expect(await staffPage.getByText('مریم احمدی').count()).toBe(0);

    // The same customer saves the profile from another device.
    const upload = await fetch(`${server.url}/api/me/uploadFile`, {
      method: 'POST',
      headers: bearer(customer),
      body: uploadForm(await jpegWithExif(), 'card.jpg'),
    });
    const card = ((await upload.json()) as { path: string }).path;
    const saved = await post(
      server,
      '/api/me/updateUserData',
      {
        nationalCode: '0499370899',
        firstName: 'مریم',
        lastName: 'احمدی',
        dateOfBirth: '1995-03-21',
        nationalCardImageAddress: card,
      },
      bearer(customer),
    );
    expect(saved.status).toBe(200);

    await profilePage.getByTestId('profile-status').getByText('در انتظار بررسی').waitFor();
    await staffPage.getByText('مریم احمدی').first().waitFor();
    await profilePage.screenshot({ path: `${shots}/live-profile-phone.png`, fullPage: true });
    await staffPage.screenshot({ path: `${shots}/live-customers-desktop.png` });
  });
});
