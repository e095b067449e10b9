/**
 * The daily reconciliation page «تطبیق روزانه» (issue 33) in Chromium at 1366x768, and at 390x844: a staff member who
 * holds only `reconcile` opens the page from the drawer, picks a day with an injected mismatch (the sandbox bank
 * settled a payment no collection records) from the list of days, runs it again, opens the row's evidence, resolves
 * it with a note, sees it resolved with the note and who, and exports the day as xlsx, which parses with the row; and
 * uploads our bank account's statement (a file missing a column is refused naming it, nothing stored), whose stray
 * line shows on its day as a bank line without a deposit, with the line as its evidence.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { readSheet } from 'read-excel-file/node';
import { latinDigits } from '../support/page-checks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPersianDigits } from '../../src/shared/digits';
import { newAuthority } from '../../src/server/modules/sandbox-bank/bank';
import { tehranDayWindow } from '../../src/shared/calendar/tehran-day';
import { animationsDone, DESKTOP, keepSignedIn, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
import { moneyHelpers } from '../support/money';
import { bearer, post, type RunningServer, staffWithActions, startServer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
/** A fixed past Tehran day (Jalali 1405/08/28), so the test does not depend on when it runs. */
const DAY = '2026-11-19';
const REFERENCE = '9300000001';
const NOTE = 'واریز آزمایشی بانک؛ با درگاه بررسی شد.';

let server: RunningServer;
let browser: Browser;
let staff: { token: string; userId: number };
let downloads: string;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const money = moneyHelpers(server);
  await money.ready();
  staff = await staffWithActions(server, ['reconcile']);
  // The fault: a payment the bank settled on DAY that no collection records.
  const paidAt = new Date(tehranDayWindow(DAY).from.getTime() + 10 * 3_600_000);
  await server.app.database.db
    .insertInto('sandboxBankPayments')
    .values({
      authority: newAuthority(),
      merchantId: '00000000-0000-0000-0000-000000000000',
      amount: 4_500_000,
      description: 'fault',
      callbackUrl: 'https://example.com/back',
      state: 'paid',
      cardNo: '603799******7890',
      referenceId: REFERENCE,
      expiresAt: new Date(paidAt.getTime() + 60_000),
      paidAt,
    })
    .execute();
  // The night's run of that day.
  const ran = await post(server, '/api/sys/runReconciliation', { day: DAY }, bearer(staff.token));
  expect(ran.status, ran.body.msg).toBe(200);
  downloads = mkdtempSync(path.join(os.tmpdir(), 'arzpay-reconciliation-'));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (downloads) rmSync(downloads, { recursive: true, force: true });
});

describe('daily reconciliation page', () => {
  it('reads a day with a mismatch, opens its evidence, resolves it with a note and exports the day', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    await keepSignedIn(context, staff.token);
    const page = await context.newPage();
    await page.goto(`${server.url}/management`);
    await page.getByRole('link', { name: 'تطبیق روزانه' }).first().click();
    await page.waitForURL(`${server.url}/management/reconciliation`);
    await page.getByRole('heading', { name: 'تطبیق روزانه' }).waitFor();

    // The list of days: the injected day, one unresolved row; open it.
    const dayRow = page.getByTestId('reconciliationDays-row').filter({ hasText: '۱۴۰۵/۰۸/۲۸' });
    await dayRow.waitFor();
    await dayRow.getByTestId('reconciliation-open-day').click();
    await page.waitForURL(`${server.url}/management/reconciliation?day=${DAY}`);
    const day = page.locator(`[data-testid="reconciliation-day"][data-day="${DAY}"]`);
    await day.getByTestId('reconciliation-totals').waitFor();
    expect(await day.getByTestId('total-gateway').textContent()).toContain('۴٬۵۰۰٬۰۰۰ ریال');
    expect(await day.getByTestId('total-unmatched').textContent()).toContain('۱');
    expect(await day.getByTestId('total-unresolved').textContent()).toContain('۱');

    // Run it again by hand: the same row, still open.
    await day.getByTestId('reconciliation-run').click();
    await page.getByText('تطبیق روز اجرا شد.').first().waitFor();
    const row = day.getByTestId('reconciliation-row');
    expect(await row.count()).toBe(1);
    expect(await row.getAttribute('data-kind')).toBe('gatewayWithoutCollection');
    expect(await row.textContent()).toContain('تسویهٔ درگاه بدون دریافت');
    expect(await row.getByTestId('reconciliation-row-state').textContent()).toBe('رسیدگی‌نشده');

    // Its evidence: the bank's side, no collection, no ledger posting.
    await row.getByTestId('reconciliation-evidence').click();
    const evidence = page.getByTestId('reconciliation-evidence-dialog');
    await evidence.waitFor();
    // The bank's reference and the card number read in Persian digits (issue 44 point 9), on the row and in its evidence.
    expect(await row.textContent()).toContain(`مرجع ${toPersianDigits(REFERENCE)}`);
    expect(await evidence.getByTestId('evidence-gateway').textContent()).toContain(toPersianDigits(REFERENCE));
    expect(await evidence.getByTestId('evidence-gateway').textContent()).toContain('۶۰۳۷۹۹******۷۸۹۰');
    expect(await evidence.getByTestId('evidence-gateway').textContent()).toContain('گزارش تسویهٔ خود درگاه آزمایشی');
    expect(await evidence.getByTestId('evidence-gateway').textContent()).not.toContain('sandboxBank');
    expect(await evidence.textContent()).toContain('دریافتی ثبت نشده است.');
    expect(await evidence.getByTestId('evidence-collection').count()).toBe(0);
    await animationsDone(page);
    expect((await latinDigits(page)).found).toEqual([]);
    if (takeScreenshots) await page.screenshot({ path: path.join(shots, 'reconciliation-evidence.png') });
    await page.keyboard.press('Escape');
    await evidence.waitFor({ state: 'hidden' });

    // Resolve it with a note: the button waits for the note.
    await row.getByTestId('reconciliation-resolve').click();
    const dialog = page.getByTestId('reconciliation-resolve-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('reconciliation-resolve-submit').isDisabled()).toBe(true);
    await dialog.getByTestId('reconciliation-note').pressSequentially(NOTE);
    await dialog.getByTestId('reconciliation-resolve-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByTestId('reconciliation-row-state').filter({ hasText: 'رسیدگی‌شده' }).waitFor();
    expect(await row.getByTestId('reconciliation-row-note').textContent()).toBe(NOTE);
    expect(await row.getAttribute('data-resolved')).toBe('true');
    expect(await row.getByTestId('reconciliation-resolve').count()).toBe(0);
    await day.getByTestId('total-unresolved').filter({ hasText: '۰' }).waitFor();
    await animationsDone(page);
    // The day's rows, totals and notes in Persian digits.
    expect((await latinDigits(page)).found).toEqual([]);
    if (takeScreenshots)
      await page.screenshot({ path: path.join(shots, 'reconciliation-desktop.png'), fullPage: true });

    // Export the day: an xlsx with the row, its kind and the note.
    const download = page.waitForEvent('download');
    await day.getByTestId('reconciliation-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`reconciliation-${DAY}.xlsx`);
    const saved = path.join(downloads, file.suggestedFilename());
    await file.saveAs(saved);
    const sheet = await readSheet(saved);
    const header = sheet[0]!.map(String);
    const line = sheet.slice(1).find((r) => r.map(String).includes(REFERENCE));
    expect(line, JSON.stringify(sheet)).toBeDefined();
    const cell = (title: string) => String(line![header.indexOf(title)]);
    expect(cell('نوع')).toBe('تسویهٔ درگاه بدون دریافت');
    expect(cell('وضعیت')).toBe('رسیدگی‌شده');
    expect(cell('یادداشت رسیدگی')).toBe(NOTE);
    expect(Number(cell('مبلغ تسویهٔ درگاه (ریال)'))).toBe(4_500_000);
    await context.close();
  }, 180_000);

  it('shows a day on a phone without scrolling sideways, and a quiet day as empty', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    await keepSignedIn(context, staff.token);
    const page = await context.newPage();
    await page.goto(`${server.url}/management/reconciliation?day=${DAY}`);
    await page.getByTestId('reconciliation-row').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    if (takeScreenshots) await page.screenshot({ path: path.join(shots, 'reconciliation-phone.png'), fullPage: true });

    // A day never run says so and offers to run it; run, it has nothing unmatched.
    await page.goto(`${server.url}/management/reconciliation?day=2026-11-18`);
    await page.getByTestId('reconciliation-not-run').waitFor();
    await page.getByTestId('reconciliation-run').click();
    await page.getByTestId('reconciliation-empty').filter({ hasText: 'برای این روز ردیف ناهمخوانی نیست' }).waitFor();
    await context.close();
  }, 120_000);

  it('uploads a bank statement: a file missing a column is refused by name; a stray line shows on its day', async () => {
    const STRAY_DAY = '2026-11-17'; // Jalali 1405/08/26
    const context = await browser.newContext({ viewport: DESKTOP });
    await keepSignedIn(context, staff.token);
    const page = await context.newPage();
    await page.goto(`${server.url}/management/reconciliation?day=${STRAY_DAY}`);
    await page.getByTestId('reconciliation-not-run').waitFor();
    const upload = page.getByTestId('statement-upload');
    const file = upload.getByLabel('فایل CSV یا xlsx (حداکثر ۵ مگابایت)');
    const csv = (lines: string[][]) => Buffer.from(lines.map((l) => l.join(',')).join('\n'));

    // Without the tracking-code column: refused, naming it.
    await file.setInputFiles({
      name: 'no-reference.csv',
      mimeType: 'text/csv',
      buffer: csv([
        ['تاریخ', 'ساعت', 'شرح', 'واریز', 'برداشت'],
        ['1405/08/26', '10:00', 'واریز ناشناس', '7000000', ''],
      ]),
    });
    await upload.getByTestId('statement-send').click();
    expect(await upload.getByTestId('statement-error').textContent()).toContain('شماره پیگیری');

    // The whole statement, chosen as a person does: the product's own button opens the file chooser (no browser
    // «Choose File»), and the chosen file is named with its size in Persian. Its day runs again by itself and
    // shows the stray line.
    const chooser = page.waitForEvent('filechooser');
    await upload.getByTestId('statement-file-choose').click();
    const statement = csv([
      ['تاریخ', 'ساعت', 'شرح', 'واریز', 'برداشت', 'شماره پیگیری'],
      ['1405/08/26', '10:00', 'واریز ناشناس', '7000000', '', 'E2E-STRAY-1'],
    ]);
    await (await chooser).setFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: statement });
    const chosen = upload.getByTestId('statement-file-chosen');
    await chosen.getByText('statement.csv').waitFor();
    expect(await chosen.textContent()).toContain(`${toPersianDigits(String(statement.length))} بایت`);
    expect((await upload.getByTestId('statement-file-choose').textContent())?.trim()).toBe('انتخاب فایل دیگر');
    if (takeScreenshots) await upload.screenshot({ path: path.join(shots, 'reconciliation-statement-chosen.png') });
    await upload.getByTestId('statement-send').click();
    await upload.getByTestId('statement-error').waitFor({ state: 'detached' });
    // Sent: the picker is empty again, ready for the next file.
    await upload.getByTestId('statement-file-chosen').waitFor({ state: 'detached' });
    const day = page.locator(`[data-testid="reconciliation-day"][data-day="${STRAY_DAY}"]`);
    const row = day.getByTestId('reconciliation-row');
    await row.waitFor();
    expect(await row.getAttribute('data-kind')).toBe('bankLineWithoutRecord');
    expect(await row.textContent()).toContain('ردیف بانک بدون ثبت');
    expect(await row.textContent()).toContain('۷٬۰۰۰٬۰۰۰ ریال');
    expect(await day.getByTestId('total-bank').textContent()).toContain('۷٬۰۰۰٬۰۰۰ ریال');
    await row.getByTestId('reconciliation-evidence').click();
    const evidence = page.getByTestId('reconciliation-evidence-dialog');
    expect(await evidence.getByTestId('evidence-bank').textContent()).toContain('واریز به حساب');
    // The statement is named in Persian, not «bankAccount»; its reference and line number in Persian digits.
    expect(await evidence.getByTestId('evidence-bank').textContent()).toContain('صورت‌حساب حساب بانکی');
    expect(await evidence.getByTestId('evidence-bank').textContent()).not.toContain('bankAccount');
    expect(await evidence.getByTestId('evidence-bank').textContent()).toContain(toPersianDigits('E2E-STRAY-1'));
    expect(await row.textContent()).toContain(`مرجع ${toPersianDigits('E2E-STRAY-1')}`);
    await animationsDone(page);
    expect((await latinDigits(page)).found).toEqual([]);
    if (takeScreenshots) await page.screenshot({ path: path.join(shots, 'reconciliation-bank-evidence.png') });
    expect(await evidence.textContent()).toContain('دریافتی ثبت نشده است.');
    await context.close();
  }, 120_000);
});
