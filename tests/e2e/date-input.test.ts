/**
 * The date field, as a new customer on a phone meets it: a birth date typed key by key in the Jalali and the
 * Gregorian calendar, in Latin and Persian digits, stays exactly as typed while the field has focus and turns
 * canonical when it is left, in the digits it was typed in; the saved profile holds the Gregorian day. The month picker beside the field is
 * used by keyboard and by touch; the IELTS form's date fields (the form engine's widget) behave the same.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE, keepSignedIn } from '../support/browser';
import { jpegWithExif } from '../support/images';
import { formatDateText } from '../../src/shared/calendar/date-text';
import { monthLength, partsOfIso, todayIso } from '../../src/shared/calendar/month-grid';
import { toPersianDigits } from '../../src/shared/digits';
import { bearer, loginByCode, post, type RunningServer, startServer, verifiedCustomer } from '../support/server';

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

async function phoneSignedIn(token: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE });
  await keepSignedIn(context, token);
  return { context, page: await context.newPage() };
}

/**
 * Clears the field and types `text` one key at a time; after every key the field holds exactly what was typed
 * so far, and no prefix is marked invalid (each can still become a real date).
 */
async function typeKeyByKey(field: Locator, text: string): Promise<void> {
  await field.click();
  await field.press('Control+A');
  await field.press('Backspace');
  expect(await field.inputValue()).toBe('');
  const prefixes = [...text].map((_, i) => [...text].slice(0, i + 1).join(''));
  const shown: string[] = [];
  const flagged: string[] = [];
  for (const key of text) {
    await field.pressSequentially(key);
    shown.push(await field.inputValue());
    if ((await field.getAttribute('aria-invalid')) === 'true') flagged.push(shown.at(-1)!);
  }
  expect(shown).toEqual(prefixes);
  expect(flagged).toEqual([]);
}

/** Leaves the field the way a person does, by tapping the page heading. */
async function leave(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'پروفایل من' }).click();
}

const storedBirthDate = async (token: string) =>
  ((await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as { dateOfBirth: string })
    .dateOfBirth;

async function save(page: Page, token: string, expected: string): Promise<void> {
  const button = page.getByTestId('save-profile');
  await page.waitForFunction(
    () => !(document.querySelector('[data-testid=save-profile]') as HTMLButtonElement | null)?.disabled,
  );
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/me/updateUserData'));
  await button.click();
  expect((await saved).status()).toBe(200);
  await page.getByTestId('profile-status').getByText('در انتظار بررسی').waitFor();
  expect(await storedBirthDate(token)).toBe(expected);
}

/** A screenshot once the popover's opening animation has run. */
async function shot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.screenshot({ path: `${shots}/${name}.png` });
}

async function chooseCalendar(page: Page, name: 'شمسی' | 'میلادی'): Promise<void> {
  await page.click('[data-testid=menu-button]');
  await page.getByRole('radio', { name }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('radio', { name }).waitFor({ state: 'detached' });
}

describe('the birth date on the profile', () => {
  let token: string;
  let page: Page;
  let context: BrowserContext;
  let dob: Locator;

  beforeAll(async () => {
    token = await loginByCode(server, '09151230001');
    ({ context, page } = await phoneSignedIn(token));
    await page.goto(`${server.url}/request/myProfile`);
    await page.getByTestId('i-understand').click();
    await page.locator('#profile_nationalCode').pressSequentially('0499370899');
    await page.getByTestId('national-code-accepted').waitFor();
    await page.locator('#profile_firstName').pressSequentially('مریم');
    await page.locator('#profile_lastName').pressSequentially('احمدی');
    const card = path.join(os.tmpdir(), `card-dates-${Date.now()}.jpg`);
    writeFileSync(card, await jpegWithExif(640, 400));
    await page.getByTestId('profile_nationalCardImageAddress-file').setInputFiles(card);
    await page.getByTestId('profile_nationalCardImageAddress-preview').waitFor();
    dob = page.locator('#profile_dateOfBirth');
    await typeKeyByKey(dob, '1370/01/01');
    await save(page, token, '1991-03-21');
  });
  // Each test starts from the saved profile, freshly loaded, in the Jalali calendar.
  beforeEach(async () => {
    await page.goto(`${server.url}/request/myProfile`);
    await page.getByTestId('i-understand').click();
    await page.getByTestId('national-code-accepted').waitFor();
    expect(await dob.getAttribute('data-calendar')).toBe('fa');
  });
  afterAll(async () => {
    await context?.close();
  });

  it('keeps a Jalali date as typed, in Latin or Persian digits, and writes it out in full when left', async () => {
    await typeKeyByKey(dob, '1375/06/15');
    await leave(page);
    expect(await dob.inputValue()).toBe('1375/06/15');

    await typeKeyByKey(dob, '1375/6/5');
    await leave(page);
    expect(await dob.inputValue()).toBe('1375/06/05');

    // Typed in Persian digits, written out in full in Persian digits (issue 32).
    await typeKeyByKey(dob, '۱۳۷۵/۰۶/۲۹');
    await leave(page);
    expect(await dob.inputValue()).toBe('۱۳۷۵/۰۶/۲۹');

    await save(page, token, '1996-09-19');
  });

  it('says a date is not valid only once it cannot become one, and keeps the text', async () => {
    const required = page.locator('[role=alert]', { hasText: 'تاریخ تولد را وارد نمایید.' });
    await dob.click();
    await leave(page);
    await typeKeyByKey(dob, '1375/1');
    expect(await required.count()).toBe(0); // left before, but being typed again: not "missing"
    await dob.pressSequentially('3');
    expect(await dob.inputValue()).toBe('1375/13');
    expect(await dob.getAttribute('aria-invalid')).toBe('true');
    await page.locator('[role=alert]', { hasText: 'تاریخ معتبر نیست.' }).waitFor();
    await leave(page);
    expect(await dob.inputValue()).toBe('1375/13');
    expect(await page.getByTestId('save-profile').isDisabled()).toBe(true);

    // Emptied and left: now it is missing.
    await typeKeyByKey(dob, '');
    await leave(page);
    await required.waitFor();
  });

  it('follows the Gregorian calendar chosen in the drawer, in both digit sets', async () => {
    await typeKeyByKey(dob, '۱۳۷۵/۰۶/۲۹');
    await leave(page);
    await chooseCalendar(page, 'میلادی');
    expect(await dob.inputValue()).toBe('۱۹۹۶-۰۹-۱۹'); // the same day, now shown Gregorian, in the digits typed
    expect(await dob.getAttribute('placeholder')).toBe('۱۹۹۱-۰۹-۲۲');

    await typeKeyByKey(dob, '1996-09-05');
    await leave(page);
    expect(await dob.inputValue()).toBe('1996-09-05');

    await typeKeyByKey(dob, '۱۹۹۶-۹-۲۵');
    await leave(page);
    expect(await dob.inputValue()).toBe('۱۹۹۶-۰۹-۲۵');
    await save(page, token, '1996-09-25');

    await chooseCalendar(page, 'شمسی');
    expect(await dob.inputValue()).toBe('۱۳۷۵/۰۷/۰۴');
  });

  it('picks a day with the keyboard: arrows across a month end, Enter, focus back on the field', async () => {
    await typeKeyByKey(dob, '1375/06/29');
    await page.keyboard.press('Tab'); // to the calendar button beside the field
    await page.keyboard.press('Enter');
    const grid = page.getByRole('grid');
    await grid.waitFor();
    expect(await grid.getAttribute('aria-label')).toBe('شهریور ۱۳۷۵');
    expect(await grid.locator('th').allTextContents()).toEqual(['ش', 'ی', 'د', 'س', 'چ', 'پ', 'ج']);
    // Focus starts on the field's day; the left arrow is the next day in a right-to-left week.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'پنج‌شنبه ۲۹ شهریور ۱۳۷۵',
    );
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowDown');
    expect(await grid.getAttribute('aria-label')).toBe('مهر ۱۳۷۵');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('شنبه ۷ مهر ۱۳۷۵');
    await page.keyboard.press('Enter');
    await grid.waitFor({ state: 'detached' });
    expect(await dob.inputValue()).toBe('1375/07/07');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('profile_dateOfBirth');

    // Escape closes without changing anything and also returns focus to the field.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await grid.waitFor();
    await page.keyboard.press('PageUp');
    await page.keyboard.press('Escape');
    await grid.waitFor({ state: 'detached' });
    expect(await dob.inputValue()).toBe('1375/07/07');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('profile_dateOfBirth');
  });

  it('picks a day decades back by touch: year and month from the lists, then the day', async () => {
    await page.getByTestId('profile_dateOfBirth-picker').click();
    const grid = page.getByRole('grid');
    await grid.waitFor();
    await page.getByTestId('date-picker-year').selectOption({ label: '۱۳۷۰' });
    await page.getByTestId('date-picker-month').selectOption({ label: 'اسفند' });
    await page.waitForFunction(
      () => document.querySelector('[role=grid]')?.getAttribute('aria-label') === 'اسفند ۱۳۷۰',
    );
    await shot(page, 'date-picker-jalali-phone');
    await grid.getByRole('button', { name: 'سه‌شنبه ۲۰ اسفند ۱۳۷۰' }).click();
    await grid.waitFor({ state: 'detached' });
    // Nothing typed: the picked day in Persian digits.
    expect(await dob.inputValue()).toBe('۱۳۷۰/۱۲/۲۰');
    await save(page, token, '1992-03-10');

    // The Gregorian picker: weeks from Sunday, Gregorian months in Persian.
    await chooseCalendar(page, 'میلادی');
    await page.getByTestId('profile_dateOfBirth-picker').click();
    await grid.waitFor();
    expect(await grid.getAttribute('aria-label')).toBe('مارس ۱۹۹۲');
    expect(await grid.locator('th').allTextContents()).toEqual(['ی', 'د', 'س', 'چ', 'پ', 'ج', 'ش']);
    expect(await grid.locator('[aria-selected=true] button').getAttribute('aria-label')).toBe('سه‌شنبه ۱۰ مارس ۱۹۹۲');
    await shot(page, 'date-picker-gregorian-phone');
    await grid.getByRole('button', { name: 'پنج‌شنبه ۱۲ مارس ۱۹۹۲' }).click();
    expect(await dob.inputValue()).toBe('۱۹۹۲-۰۳-۱۲');
    await chooseCalendar(page, 'شمسی');
  });

  it('offers today and no day after it for a birth date', async () => {
    const today = partsOfIso(todayIso(), 'fa');
    await page.getByTestId('profile_dateOfBirth-picker').click();
    const grid = page.getByRole('grid');
    await grid.waitFor();
    await page.getByRole('button', { name: 'امروز' }).click();
    await grid.waitFor({ state: 'detached' });
    expect(await dob.inputValue()).toBe(toPersianDigits(formatDateText(todayIso(), 'fa')));

    await page.getByTestId('profile_dateOfBirth-picker').click();
    await grid.waitFor();
    expect(await grid.locator('button:disabled').count()).toBe(monthLength(today.year, today.month, 'fa') - today.day);
    const years = await page.getByTestId('date-picker-year').locator('option').allTextContents();
    expect(years.at(-1)).toBe(toPersianDigits(today.year));
    expect(years).toHaveLength(121); // 120 years back
    await page.keyboard.press('Escape');
    await grid.waitFor({ state: 'detached' });
  });
});

describe('the date widget of the IELTS form', () => {
  it('keeps typed dates and normalises them when left', async () => {
    const token = await verifiedCustomer(server, '09151230002', '0012345679');
    const { context, page } = await phoneSignedIn(token);
    await page.goto(`${server.url}/desks/ieltsRegistrationAndCpr`);
    await page.getByTestId('desk-page').waitFor();
    const preferred = page.locator('#root_preferredTestDate');
    await typeKeyByKey(preferred, '1406/1/19');
    await preferred.press('Tab');
    expect(await preferred.inputValue()).toBe('1406/01/19');
    await page.getByTestId('root_preferredTestDate-picker').click();
    await page.getByRole('grid', { name: 'فروردین ۱۴۰۶' }).waitFor();
    await preferred.scrollIntoViewIfNeeded();
    await shot(page, 'date-picker-ielts-phone');
    await page.keyboard.press('Escape');

    // The passport is the form's second step (issue 47).
    await page.getByRole('radio', { name: 'Academic' }).click();
    await page.locator('#root_testCity').pressSequentially('تهران');
    await page.getByTestId('step-next').click();
    const expiry = page.locator('#root_passportExpiry');
    await typeKeyByKey(expiry, '۱۴۰۸/۱۱/۲۸');
    await page.getByTestId('desk-page').getByRole('heading').first().click();
    expect(await expiry.inputValue()).toBe('۱۴۰۸/۱۱/۲۸');
    expect(await page.locator('[data-field="passportExpiry"]').textContent()).not.toContain('تاریخ معتبر نیست');
    await context.close();
  });
});
