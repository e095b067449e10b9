/**
 * Plan ahead (issue 35), as a customer meets it on a phone (Chromium, 390×844), typed and tapped: they open the
 * dollar's chart on the home page (uPlot loads then, not before), read its numbers as a table, set «tell me when the
 * dollar is at this much or less», and when staff save a rate that crosses it the bell counts the notification on
 * the page as it is, without a reload, and the alert says it fired.
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepSignedIn, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
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

describe('rate chart and alerts', () => {
  it('reads the USD chart and its table, sets an alert, and hears it fire live when staff save a rate', async () => {
    const admin = await loginAdmin(server);
    const usd = (
      (await post(server, '/api/public/searchCurrencies')).body.data as {
        items: Array<{ id: number; title: string; code: string; rate: number }>;
      }
    ).items.find((c) => c.code === 'USD')!;
    const setRate = async (rate: number) => {
      const res = await post(
        server,
        '/api/sys/saveCurrency',
        { id: usd.id, title: usd.title, code: 'USD', rate, useForUafCpr: true, useForGoogleAdsAccountCr: true },
        bearer(admin),
      );
      expect(res.status, res.body.msg).toBe(200);
    };
    await setRate(1_020_000);
    await setRate(1_000_000);

    const token = await loginByCode(server, '09171359001');
    const context = await browser.newContext({ viewport: PHONE });
    await keepSignedIn(context, token);
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('.js')) scripts.push(res.url());
    });
    await page.goto(server.url + '/');
    await page.getByTestId('rate-USD').waitFor();
    expect(scripts.some((s) => /RatePanel/.test(s))).toBe(false);

    await page.getByTestId('rate-chart-USD').click();
    const panel = page.getByTestId('rate-panel');
    await panel.getByRole('heading', { name: `نمودار نرخ ${usd.title}` }).waitFor();
    const chart = page.getByTestId('rate-chart');
    await chart.locator('canvas').waitFor();
    expect(await chart.getAttribute('aria-label')).toContain('اکنون ۱٬۰۰۰٬۰۰۰ ریال');
    // Every rate here was saved minutes ago: the chart must still show them (a dot per save, steps on a rate axis
    // that spans the rates, not zero to two million) and a dashed «امروز» line, not a blank grid.
    const drawn = await chart.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
      const { width, height } = canvas;
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, width, height).data;
      let coloured = 0;
      const darkPerColumn = new Array<number>(width).fill(0);
      for (let i = 0; i < pixels.length; i += 4) {
        const [r, g, b, a] = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!, pixels[i + 3]!];
        if (a < 200) continue;
        if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured++;
        else if (Math.max(r, g, b) < 140) darkPerColumn[(i / 4) % width]!++;
      }
      return { coloured, todayLine: Math.max(...darkPerColumn), height };
    });
    expect(drawn.coloured).toBeGreaterThan(100);
    expect(drawn.todayLine).toBeGreaterThan(drawn.height * 0.3);
    // It fits a phone: no wider than the screen.
    const box = (await chart.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);

    await page.getByTestId('rate-table-toggle').click();
    const rows = page.getByTestId('rate-history-table').locator('tbody tr');
    await rows.first().waitFor();
    // Newest first: the last saved rate, then the one before, then the seeded one.
    expect(await rows.count()).toBe(3);
    await expect.poll(() => rows.nth(0).innerText()).toContain('۱٬۰۰۰٬۰۰۰ ریال');
    expect(await rows.nth(1).innerText()).toContain('۱٬۰۲۰٬۰۰۰ ریال');
    // The year's range answers too.
    await page.getByRole('radio', { name: 'یک سال' }).click();
    await rows.first().waitFor();

    // «Tell me when the dollar is at 950,000 rial or less».
    const field = page.getByTestId('rate-alert-threshold');
    await field.click();
    await field.pressSequentially('۹۵۰۰۰۰');
    await panel.getByText('برابر ۹۵٬۰۰۰ تومان').waitFor();
    await page.getByRole('radio', { name: 'این مبلغ یا کمتر' }).click();
    await page.getByTestId('rate-alert-submit').click();
    const alert = panel.locator('[data-testid^="rate-alert-"]').filter({ hasText: 'وقتی' });
    await alert.first().waitFor();
    await alert.first().getByText('فعال', { exact: true }).waitFor();
    if (takeScreenshots) await page.screenshot({ path: `${shots}/rate-alert-set-phone.png`, fullPage: true });

    // Staff save a rate above it: nothing. Then one under it: the bell counts it live and the alert says it fired.
    const count = page.getByTestId('notification-count');
    await setRate(980_000);
    await setRate(940_000);
    await count.filter({ hasText: '۱' }).waitFor();
    await alert.first().getByText('نرخ اکنون در این محدوده است').waitFor();
    await alert.first().getByText('۱ بار خبر داده شد', { exact: false }).waitFor();
    if (takeScreenshots) await page.screenshot({ path: `${shots}/rate-alert-fired-phone.png`, fullPage: true });

    await page.getByTestId('notification-bell').click();
    await page.waitForURL(`${server.url}/notifications`);
    await page
      .getByTestId('notification')
      .filter({ hasText: `نرخ ${usd.title} به ۹۴۰٬۰۰۰ ریال رسید؛ هشدار شما: ۹۵۰٬۰۰۰ ریال یا کمتر.` })
      .waitFor();
    await context.close();
    // A phone's walk, a chart drawn three times and six rate saves: the journey tests' budget on a busy machine.
  }, 150_000);
});
