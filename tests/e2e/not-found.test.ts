/**
 * Unknown addresses (issue 12): the web says «صفحه پیدا نشد» with a way home, at the address that was asked for,
 * for a guest, a customer and a staff member alike (no redirect to log-in or home); an unknown /api path stays
 * a JSON 404 envelope with a Persian message, whatever the method.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE, keepSignedIn } from '../support/browser';
import { loginAdmin, loginByCode, type RunningServer, startServer } from '../support/server';

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

async function pageWith(token: string | null): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE });
  if (token) {
    await keepSignedIn(context, token);
  }
  return context.newPage();
}

const UNKNOWN = ['/no/such/page', '/management/no-such-page', '/my-account/nothing', '/desks/x/y/z'];

async function expectNotFound(page: Page, address: string): Promise<void> {
  await page.goto(server.url + address);
  const card = page.locator('[data-testid=error-page][data-kind=notFound]');
  await card.getByRole('heading', { name: 'صفحه پیدا نشد' }).waitFor();
  expect(new URL(page.url()).pathname).toBe(address);
  // The shell stays around it (top bar), and the way home is a link to /.
  await page.getByTestId('menu-button').waitFor();
  const home = card.getByRole('link', { name: /بازگشت به خانه/ });
  expect(await home.getAttribute('href')).toBe('/');
}

describe('unknown addresses', () => {
  it('shows a guest the Persian not-found page, and its link goes home', async () => {
    const page = await pageWith(null);
    for (const address of UNKNOWN) await expectNotFound(page, address);
    await page
      .locator('[data-testid=error-page]')
      .getByRole('link', { name: /بازگشت به خانه/ })
      .click();
    await page.waitForURL(`${server.url}/`);
    await page.getByTestId('rates-table').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.context().close();
  });

  it('shows a signed-in customer and a staff member the same page, still signed in', async () => {
    for (const token of [await loginByCode(server, '09171110001'), await loginAdmin(server)]) {
      const page = await pageWith(token);
      for (const address of UNKNOWN) await expectNotFound(page, address);
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(token);
      await page.context().close();
    }
  });

  it('keeps unknown /api paths a 404 JSON envelope with a Persian message', async () => {
    for (const [method, address] of [
      ['GET', '/api/no/such/operation'],
      ['POST', '/api/me/noSuchOperation'],
      ['POST', '/api/sys/noSuchOperation'],
      ['GET', '/api'],
      ['DELETE', '/api/public/fetchCatalogue/extra'],
    ] as const) {
      const res = await fetch(server.url + address, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(res.status, `${method} ${address}`).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as { result: boolean; msg: string };
      expect(body.result).toBe(false);
      expect(body.msg).toMatch(/[\u0600-\u06FF]/);
    }
  });
});
