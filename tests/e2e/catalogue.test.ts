/**
 * The staff catalogue page in Chromium (issue 17, second "Done when"): the conference-fee form type (added as JSON,
 * tests/support/conference-desk.ts) is edited on the page — a mistake reported in Persian at its JSON pointer as
 * one types, then fixed —, previewed at phone width as a customer sees it, published, seen live on a desk page
 * already open on a phone in another browser context (no reload), published again, and returned to its previous
 * version and then to its reviewed file, each seen live on that page. Publishing first shows the diff against the
 * live version (left to right) and asks; nothing is live until staff agree. A JSON syntax error is said in Persian
 * with its line and column; an unpublished edit survives leaving the page (a draft). A field's description is drawn
 * under its label on the desk page and in the preview (markdown only where the form asks, no raw HTML, no
 * javascript: link). Plan templates are listed beside them; a step naming a missing desk is reported at its pointer.
 * Persian in the JSON box and the diff is drawn in Vazirmatn (joined), the rest in monospace, each Persian string of
 * the diff isolated in its own direction; a return to a version or to the file shows its diff and asks first; no
 * «schemas» in the page's Persian (issue 44 point 7).
 * Screenshots: catalogue-editor.png, catalogue-publish-dialog.png, catalogue-revert-dialog.png.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
import { withConferenceDesk } from '../support/conference-desk';
import { loginAdmin, type RunningServer, startServer } from '../support/server';
import { watchErrors, WAIT_MS } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const schemas = withConferenceDesk();
let server: RunningServer;
let browser: Browser;
let admin: string;

beforeAll(async () => {
  server = await startServer({ env: { SCHEMAS_DIR: schemas } });
  browser = await launchBrowser();
  admin = await loginAdmin(server);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(schemas, { recursive: true, force: true });
});

/** Puts the editor's caret right after the first `text` in it, ready for typing there. */
async function caretAfter(page: Page, text: string) {
  const editor = page.getByTestId('catalogue-editor');
  await editor.focus();
  const found = await editor.evaluate((element, needle) => {
    const area = element as HTMLTextAreaElement;
    const at = area.value.indexOf(needle);
    if (at < 0) return false;
    area.setSelectionRange(at + needle.length, at + needle.length);
    return true;
  }, text);
  expect(found, text).toBe(true);
}

/** The fonts Chromium really drew a node's text with (DevTools' "Rendered Fonts"), by family name. */
async function renderedFonts(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  await cdp.detach();
  return fonts.map((f) => f.familyName);
}

/** The label of the contact e-mail field on a page (the form's title for it). */
const emailLabel = (page: Page, title: string) => page.locator('label', { hasText: title }).first();

describe('the staff catalogue page', () => {
  it('edits, previews and publishes a form type live to an open desk page, then returns to earlier versions', async () => {
    // A customer's desk page, open on a phone before anything is published.
    const customerContext = await browser.newContext({ viewport: PHONE });
    const desk = await customerContext.newPage();
    const deskErrors = watchErrors(desk);
    await desk.goto(`${server.url}/desks/conferenceFeeCpr`);
    await desk.getByTestId('desk-page').waitFor();
    await emailLabel(desk, 'ایمیل تماس').waitFor();

    const staffContext = await browser.newContext({ viewport: DESKTOP });
    await staffContext.addInitScript((t) => localStorage.setItem('token', t), admin);
    const page = await staffContext.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/management/catalogue`);
    await page.getByTestId('catalogue-page').waitFor();
    await page.getByTestId('catalogue-entry-select').click();
    await page.getByTestId('catalogue-entry-form:conferenceFee').click();
    const editor = page.getByTestId('catalogue-editor');
    await expect.poll(() => editor.inputValue()).toContain('"formType": "conferenceFee"');
    expect(await editor.getAttribute('dir')).toBe('ltr');
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    await page.getByTestId('catalogue-valid').waitFor();
    // The JSON box draws Persian in Vazirmatn, whose letters join, and the rest in a monospace font.
    expect(await editor.evaluate((e) => getComputedStyle(e).fontFamily)).toMatch(
      /^"Arzpay Code Persian", ui-monospace/,
    );
    expect(await page.getByTestId('catalogue-page').textContent()).not.toContain('schemas');

    // A mistake typed into the JSON is reported at its pointer in Persian, as one types; fixed, it is valid again.
    await caretAfter(page, '"pricing": "foreignAmount');
    await editor.pressSequentially('X');
    const problems = page.getByTestId('catalogue-editor-problems');
    await problems.waitFor();
    expect(await problems.textContent()).toContain('/pricing');
    expect(await problems.textContent()).toContain('مقدار باید یکی از این‌ها باشد');
    expect(await page.getByTestId('catalogue-publish').isDisabled()).toBe(true);
    await editor.press('Backspace');
    await page.getByTestId('catalogue-valid').waitFor();

    // A syntax error (a stray letter after a value) is said in Persian with its line and column.
    await caretAfter(page, '"pricing": "foreignAmount"');
    await editor.pressSequentially('x');
    const syntax = page.getByTestId('catalogue-json-error');
    await syntax.waitFor();
    expect(await syntax.textContent()).toMatch(/سطر [۰-۹]+، ستون [۰-۹]+/);
    expect(await syntax.textContent()).not.toMatch(/Unexpected|Expected|position/);
    await editor.press('Backspace');
    await page.getByTestId('catalogue-valid').waitFor();

    // The change: the contact e-mail's title. The preview draws it at phone width as the customer will see it.
    await caretAfter(page, '"title": "ایمیل تماس');
    await editor.pressSequentially(' (کاری)');
    await page.getByTestId('catalogue-valid').waitFor();
    const preview = page.getByTestId('catalogue-preview');
    await emailLabel(page, 'ایمیل تماس (کاری)').waitFor();
    expect((await preview.boundingBox())!.width).toBeLessThanOrEqual(390);
    expect(await preview.locator('#root_attendees_0_fullName').count()).toBe(1);
    if (takeScreenshots) await page.screenshot({ path: path.join(shots, 'catalogue-editor.png'), fullPage: true });

    // The description under its label, in the preview as on the desk page: plain text, and markdown only where the
    // form asks (bold drawn, the raw HTML and the javascript: link not).
    for (const where of [preview, desk.locator('body')]) {
      await where.getByText('نشانی صفحهٔ رسمی همایش را بنویسید.').waitFor();
      const markdown = where.locator('[data-field="companyName"] [data-testid="field-description"]');
      await markdown.locator('strong', { hasText: 'ثبت‌شدهٔ' }).waitFor();
      expect(await markdown.locator('i').count()).toBe(0);
      expect(await markdown.locator('a[href^="javascript"]').count()).toBe(0);
    }

    // Leaving the page keeps the unpublished edit: opened again, the draft is back and says so.
    await page.reload();
    await page.getByTestId('catalogue-entry-select').click();
    await page.getByTestId('catalogue-entry-form:conferenceFee').click();
    await page.getByTestId('catalogue-draft-restored').waitFor();
    await expect.poll(() => editor.inputValue()).toContain('ایمیل تماس (کاری)');
    await page.getByTestId('catalogue-valid').waitFor();

    // Publishing asks first, with the diff against the live version drawn left to right; nothing is live yet.
    await page.getByTestId('catalogue-publish').click();
    const dialog = page.getByTestId('catalogue-publish-dialog');
    const diff = dialog.getByTestId('catalogue-diff');
    await diff.waitFor();
    expect(await diff.locator('[data-kind="added"]').textContent()).toContain('ایمیل تماس (کاری)');
    expect(await diff.locator('[data-kind="removed"]').textContent()).toContain('ایمیل تماس"');
    expect(await diff.evaluate((e) => [getComputedStyle(e).direction, getComputedStyle(e).textAlign])).toEqual([
      'ltr',
      'left',
    ]);
    // Each Persian string is isolated right to left inside its left-to-right line, its letters drawn joined.
    const persian = diff.locator('[data-kind="added"] [data-testid="catalogue-diff-persian"]');
    expect(await persian.textContent()).toBe('ایمیل تماس (کاری)');
    expect(await persian.evaluate((e) => [e.tagName, getComputedStyle(e).direction])).toEqual(['BDI', 'rtl']);
    expect(await renderedFonts(page, '[data-kind="added"] bdi')).toContain('Vazirmatn');
    if (takeScreenshots) await page.screenshot({ path: path.join(shots, 'catalogue-publish-dialog.png') });
    expect(await emailLabel(desk, 'ایمیل تماس (کاری)').count()).toBe(0);
    // Published once agreed: the open desk page shows it without a reload.
    await page.getByTestId('catalogue-publish-confirm').click();
    await page.getByText('نسخهٔ ۱ منتشر شد.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await emailLabel(desk, 'ایمیل تماس (کاری)').waitFor({ timeout: WAIT_MS });
    await page.getByTestId('catalogue-source').filter({ hasText: 'نسخهٔ ۱' }).waitFor();

    // A second version, then one click back to the first.
    await caretAfter(page, '(کاری');
    await editor.pressSequentially(' یا شخصی');
    await page.getByTestId('catalogue-valid').waitFor();
    await page.getByTestId('catalogue-publish').click();
    await page.getByTestId('catalogue-publish-confirm').click();
    await page.getByText('نسخهٔ ۲ منتشر شد.').waitFor();
    await emailLabel(desk, 'ایمیل تماس (کاری یا شخصی)').waitFor({ timeout: WAIT_MS });
    await page.getByTestId('catalogue-revert-1').click();
    await page.getByTestId('catalogue-revert-dialog').getByTestId('catalogue-diff').waitFor();
    await page.getByTestId('catalogue-revert-confirm').click();
    await page.getByText('به نسخهٔ ۱ بازگشت؛ نسخهٔ ۳ منتشر شد.').waitFor();
    await emailLabel(desk, 'ایمیل تماس (کاری)').waitFor({ timeout: WAIT_MS });
    expect(await emailLabel(desk, 'ایمیل تماس (کاری یا شخصی)').count()).toBe(0);
    await expect.poll(() => editor.inputValue()).not.toContain('یا شخصی');
    await page.getByTestId('catalogue-version-3').getByText('بازگشت به نسخهٔ ۱').waitFor();

    // And back to the reviewed file under schemas/: first its diff against what is live, and a question.
    await page.getByTestId('catalogue-revert-file').click();
    const back = page.getByTestId('catalogue-revert-dialog');
    await back.getByRole('heading', { name: /^بازگشت به فایل: «.+» برای همهٔ مشتریان عوض شود؟$/ }).waitFor();
    const backDiff = back.getByTestId('catalogue-diff');
    expect(await backDiff.locator('[data-kind="removed"]').textContent()).toContain('ایمیل تماس (کاری)');
    expect(await backDiff.locator('[data-kind="added"]').textContent()).toContain('ایمیل تماس"');
    expect(await back.textContent()).not.toContain('schemas');
    if (takeScreenshots) await page.screenshot({ path: path.join(shots, 'catalogue-revert-dialog.png') });
    // Nothing is live before staff agree.
    expect(await page.getByTestId('catalogue-source').textContent()).toContain('نسخهٔ ۳');
    await emailLabel(desk, 'ایمیل تماس (کاری)').waitFor();
    await page.getByTestId('catalogue-revert-confirm').click();
    await page.getByText('به فایل بازبینی‌شدهٔ مخزن بازگشت.').waitFor();
    await expect.poll(() => emailLabel(desk, 'ایمیل تماس (کاری)').count(), { timeout: WAIT_MS }).toBe(0);
    await emailLabel(desk, 'ایمیل تماس').waitFor();
    await page.getByTestId('catalogue-source').filter({ hasText: 'از فایل' }).waitFor();

    expect(errors).toEqual([]);
    expect(deskErrors).toEqual([]);
    await staffContext.close();
    await customerContext.close();
    // Three publishes and three returns, each seen live on another page, on a shared two-core machine.
  }, 180_000);

  it('lists plan templates beside desks; a step naming a missing desk is reported at its pointer', async () => {
    const staffContext = await browser.newContext({ viewport: PHONE });
    await staffContext.addInitScript((t) => localStorage.setItem('token', t), admin);
    const page = await staffContext.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/management/catalogue`);
    await page.getByTestId('catalogue-page').waitFor();
    await page.getByTestId('catalogue-entry-select').click();
    await page.getByTestId('catalogue-entry-plan:germanyStudy').click();
    const editor = page.getByTestId('catalogue-editor');
    await expect.poll(() => editor.inputValue()).toContain('"identifier": "germanyStudy"');
    await page.getByTestId('catalogue-valid').waitFor();
    // The preview lists the steps in order.
    await page.getByTestId('catalogue-preview').locator('li').first().waitFor();

    await caretAfter(page, '"desk": "uniAssistGeneralCpr');
    await editor.pressSequentially('X');
    const problems = page.getByTestId('catalogue-editor-problems');
    await problems.waitFor();
    expect(await problems.textContent()).toContain('/steps/0/desk');
    expect(await problems.textContent()).toContain('میزی به نام «uniAssistGeneralCprX» وجود ندارد.');
    expect(await page.getByTestId('catalogue-publish').isDisabled()).toBe(true);
    await editor.press('Backspace');
    await page.getByTestId('catalogue-valid').waitFor();

    expect(errors).toEqual([]);
    await staffContext.close();
  });
});
