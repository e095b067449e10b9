/**
 * The conference-fee form type and desk written as JSON only (tests/support/conference-desk.ts, every field kind of
 * issue 17's point 2) in Chromium on a phone: the theme draws every part (radio, select, checkboxes, a list with its
 * Persian buttons, a titled group, the field of one choice only), with no English word and no console error; an
 * emptied list says so in Persian; the request is made, and its nested values are shown to the customer (phone)
 * and to staff (desktop). Its file field (x-file: PDF or images, one file) says what it takes, names a program sent
 * as a PDF with the server's reason and a kind it does not take with its own, and attaches a real PDF (decision 045).
 * Screenshots: tests/artifacts/screenshots/form-engine-conference-phone.png, file-field-phone.png,
 * file-field-refused-phone.png.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withConferenceDesk } from '../support/conference-desk';
import { DESKTOP, launchBrowser, PHONE, takeScreenshots } from '../support/browser';
import { loginAdmin, type RunningServer, startServer, verifiedCustomer } from '../support/server';
import { choose, watchErrors } from '../support/e2e';
import { seriousViolations } from '../support/page-checks';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const schemas = withConferenceDesk();
let server: RunningServer;
let browser: Browser;
let token: string;

beforeAll(async () => {
  server = await startServer({ env: { SCHEMAS_DIR: schemas } });
  browser = await launchBrowser();
  token = await verifiedCustomer(server, '09197654321', '0499370899');
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(schemas, { recursive: true, force: true });
});

describe('a form type and desk added as JSON, in the browser', () => {
  it('draws every part with the theme, in Persian, and makes a request whose nested values both sides see', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    await context.addInitScript((t) => localStorage.setItem('token', t), token);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/desks/conferenceFeeCpr`);
    await page.getByTestId('desk-page').waitFor();
    const form = page.locator('form');

    await choose(page, 'currency', 'دلار آمریکا');
    await page.locator('#root_amount').pressSequentially('120');
    await choose(page, 'requestedPaymentMethodGroup', 'کارت اعتباری بین‌المللی');

    // A labelled choice as radio; the student's field appears only for its choice.
    expect(await page.locator('#root_studentId').count()).toBe(0);
    await form.getByRole('radio', { name: 'دانشجویی' }).click();
    await page.locator('#root_studentId').pressSequentially('98123456');
    // As select (Radix, not a native one) and as several checkboxes.
    expect(await form.locator('select:not([aria-hidden="true"])').count()).toBe(0);
    await choose(page, 'seat', 'میانه سالن');
    await form.getByRole('checkbox', { name: 'کارگاه' }).click();
    await form.getByRole('checkbox', { name: 'شام' }).click();

    // The list of attendees: its first row is there (minItems), a second added by the Persian button.
    const attendees = form.getByRole('group', { name: 'شرکت‌کنندگان' });
    await page.locator('#root_attendees_0_fullName').pressSequentially('سارا احمدی');
    await page.locator('#root_attendees_0_mobile').pressSequentially('09121234567');
    // The desk's hint for every row's mobile (comps 'attendees/mobile').
    await attendees.getByText('شماره همراه ایرانی، مانند ۰۹۱۲۱۲۳۴۵۶۷').first().waitFor();
    await attendees.getByRole('button', { name: 'افزودن ردیف: شرکت‌کنندگان' }).click();
    await page.locator('#root_attendees_1_fullName').pressSequentially('علی رضایی');
    await page.locator('#root_attendees_1_mobile').pressSequentially('09351234567');
    for (const name of ['انتقال به بالا', 'انتقال به پایین', 'رونوشت ردیف', 'حذف ردیف'])
      await attendees.getByRole('button', { name }).first().waitFor();

    // A list of scalars and the nested group with its title; its city's caption comes from the desk's comps.
    await form.getByRole('button', { name: 'افزودن ردیف: کلیدواژه‌ها' }).click();
    await page.locator('#root_keywords_0').pressSequentially('هوش مصنوعی');
    const billing = form.getByRole('group', { name: 'نشانی صورتحساب' });
    await billing.getByText('شهر صورتحساب').waitFor();
    await page.locator('#root_billingAddress_city').pressSequentially('تهران');
    await page.locator('#root_contactEmail').pressSequentially('sara@example.com');
    // A field another one brings (dependentSchemas): the company's national id appears, required, once a company is
    // named for the invoice, and the request goes through with it.
    expect(await page.locator('#root_companyNationalId').count()).toBe(0);
    await page.locator('#root_companyName').pressSequentially('آرمان');
    const companyId = page.locator('#root_companyNationalId');
    await companyId.pressSequentially('10101010101');
    expect(await page.locator('[data-field="companyNationalId"] label').textContent()).toBe(
      'شناسه ملی شرکت * (الزامی)',
    );
    // The star is drawn for the eye; a screen reader hears «الزامی» in the field's name instead.
    await page.getByRole('textbox', { name: 'شناسه ملی شرکت (الزامی)', exact: true }).waitFor();

    await page.getByTestId('price-summary').waitFor();
    await page.locator('#root_studentId').scrollIntoViewIfNeeded();
    if (takeScreenshots) await page.screenshot({ path: `${shots}/form-engine-conference-phone.png`, fullPage: true });

    // Nothing in English on the form (typed values live in inputs, not in its text; currencies keep their ISO codes
    // beside their Persian names, and Radix's hidden native selects are not drawn).
    const text = await form.evaluate((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      for (const hidden of copy.querySelectorAll('select[aria-hidden="true"]')) hidden.remove();
      return copy.innerText || copy.textContent || '';
    });
    // The file field names the kinds it takes as they are called (PDF, JPEG, PNG).
    expect((text.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => !/^[A-Z]{3}$/.test(w) && w !== 'JPEG')).toEqual([]);

    // Emptying the list says so in Persian beside submit, and the list takes a row again.
    await attendees.getByRole('button', { name: 'حذف ردیف' }).nth(1).click();
    await attendees.getByRole('button', { name: 'حذف ردیف' }).first().click();
    await page.getByTestId('submit-missing').getByText('«شرکت‌کنندگان» دست‌کم ۱ مورد لازم دارد.').waitFor();
    await attendees.getByText('هنوز موردی افزوده نشده است', { exact: false }).waitFor();
    await attendees.getByRole('button', { name: 'افزودن ردیف: شرکت‌کنندگان' }).click();
    await page.locator('#root_attendees_0_fullName').pressSequentially('سارا احمدی');
    await page.locator('#root_attendees_0_mobile').pressSequentially('09121234567');

    await page.getByTestId('confirm-price').click();
    await page.getByTestId('submit-request').click();
    await page.getByTestId('pay-step').waitFor();
    const purchaseId = /purchase=(\d+)/.exec(page.url())![1]!;

    // The customer's request page shows the nested values: the list as rows, the group under its title.
    await page.goto(`${server.url}/request/myRequests?purchase=${purchaseId}`);
    const fields = page.getByTestId('request-fields');
    await fields.waitFor();
    await fields.locator('[data-field-view="attendees"]').getByText('سارا احمدی').waitFor();
    await fields.locator('[data-field-view="billingAddress"]').getByText('شهر صورتحساب').waitFor();
    await fields.locator('[data-field-view="registrationType"]').getByText('دانشجویی').waitFor();
    await fields.locator('[data-field-view="sessions"]').getByText('کارگاه').waitFor();
    // Typed identifiers are shown as typed, like the student number above.
    await fields.locator('[data-field-view="companyNationalId"]').getByText('10101010101').waitFor();
    expect(errors).toEqual([]);
    await context.close();

    // Staff see them in the requests list.
    const admin = await loginAdmin(server);
    const staff = await browser.newContext({ viewport: DESKTOP });
    await staff.addInitScript((t) => localStorage.setItem('token', t), admin);
    const staffPage = await staff.newPage();
    await staffPage.goto(`${server.url}/management/requests`);
    const cell = staffPage.locator('[data-field-view="attendees"]').first();
    await cell.getByText('سارا احمدی').waitFor();
    await staffPage.locator('[data-field-view="billingAddress"]').first().getByText('تهران').waitFor();
    await staff.close();
  });

  it('attaches a PDF on a phone, and names a program posing as one with the reason', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    await context.addInitScript((t) => localStorage.setItem('token', t), token);
    const page = await context.newPage();
    const errors = watchErrors(page, { network: true });
    await page.goto(`${server.url}/desks/conferenceFeeCpr`);
    // The field says what it takes, from its x-file.
    await page
      .getByTestId('root_invitationLetter-accepts')
      .getByText('PDF،\u200f JPEG یا PNG، حداکثر ۵ مگابایت، یک فایل')
      .waitFor();
    const input = page.getByTestId('root_invitationLetter-file');

    // A Windows program named .pdf passes the picker's check by name; the server reads its bytes and refuses it.
    const program = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00', 'latin1'), Buffer.alloc(300, 0x41)]);
    await input.setInputFiles({ name: 'invitation.pdf', mimeType: 'application/pdf', buffer: program });
    await page
      .getByTestId('root_invitationLetter-refused')
      .getByText('«invitation.pdf» پذیرفته نشد: این فایل یک برنامهٔ اجرایی است، نه PDF،\u200f JPEG یا PNG.')
      .waitFor();
    if (takeScreenshots) {
      await page.getByTestId('root_invitationLetter-refused').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/file-field-refused-phone.png` });
    }
    // A kind the field does not take is refused before it is sent.
    await input.setInputFiles({ name: 'notes.docx', mimeType: 'application/msword', buffer: Buffer.from('PK') });
    await page.getByText('«notes.docx» پذیرفته نشد: فقط فایل PDF،\u200f JPEG یا PNG پذیرفته می‌شود.').waitFor();

    // A real PDF is attached and named; the field then takes no more.
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
      'latin1',
    );
    await input.setInputFiles({ name: 'invitation-letter.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByTestId('root_invitationLetter-attached').getByText('invitation-letter.pdf').waitFor();
    expect(await page.getByTestId('root_invitationLetter-refused').count()).toBe(0);
    await expect.poll(() => page.locator('#root_invitationLetter').isDisabled()).toBe(true);
    await page.getByTestId('root_invitationLetter-attached').scrollIntoViewIfNeeded();
    if (takeScreenshots) await page.screenshot({ path: `${shots}/file-field-phone.png` });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
