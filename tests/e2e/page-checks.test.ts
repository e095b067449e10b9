/**
 * The page walk's axe check (tests/support/page-checks.ts) runs axe in the page itself, once injected, without the
 * rules that can only give minor or moderate violations. This proves it finds the serious and critical violations
 * the full @axe-core/playwright run finds, on a page made to have them, in the page and in a frame.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser';
import { NEVER_SERIOUS, seriousViolations } from '../support/page-checks';

/** Faint text, a nameless button, an image without alt, a duplicate ARIA id, no landmarks, headings out of order. */
const FAULTY = `<!doctype html><html lang="fa" dir="rtl"><head><title>صفحه</title></head><body>
  <h1>عنوان</h1><h4>پرش در سرفصل‌ها</h4>
  <p style="color:#bbb;background:#fff">متن کم‌رنگ</p>
  <button></button>
  <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
  <label id="same">نام</label><label id="same">نام</label><input aria-labelledby="same">
  <div role="button">بی‌نام و بی‌فوکوس</div>
</body></html>`;

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
});
afterAll(async () => browser?.close());

async function fullRun(): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id)
    .sort();
}

describe('the walk’s axe check', () => {
  it('leaves out only rules whose violations are never serious or critical', () => {
    expect(NEVER_SERIOUS).toContain('region');
    for (const rule of ['color-contrast', 'button-name', 'image-alt', 'label', 'scrollable-region-focusable']) {
      expect(NEVER_SERIOUS).not.toContain(rule);
    }
  });

  it('finds what the full axe run finds, serious and critical, and nothing milder', async () => {
    await page.setContent(FAULTY);
    const full = await fullRun();
    expect(full).toEqual(expect.arrayContaining(['button-name', 'color-contrast', 'image-alt']));
    const found = await seriousViolations(page);
    expect(found.map((f) => f.rule).sort()).toEqual(full);
    // Run again in the same document (axe already there), as the walk does route after route.
    expect((await seriousViolations(page)).map((f) => f.rule).sort()).toEqual(full);
  });

  it('finds them inside a frame too', async () => {
    await page.setContent(
      `<!doctype html><html lang="fa"><head><title>قاب</title></head><body><main>
        <iframe title="قاب" srcdoc="<html lang='fa'><title>درون</title><body><button></button></body></html>"></iframe>
      </main></body></html>`,
    );
    await page.frames()[1]!.waitForLoadState();
    expect((await seriousViolations(page)).map((f) => f.rule)).toContain('button-name');
    expect((await seriousViolations(page)).map((f) => f.rule).sort()).toEqual(await fullRun());
  });
});
