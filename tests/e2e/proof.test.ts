/**
 * Proof for the embassy in Chromium: staff at a desktop fulfil a SEVIS request — a malformed I-901 number is refused
 * in Persian as it is typed, a well-formed one in Persian digits is taken — and attach the merchant's confirmation
 * as a PDF; the customer on a 390×844 phone opens the bilingual proof letter from the request and it prints on one
 * A4 page; a guest reader on the verify page checks the reference they hold: "Matches" for the right one, "Does not
 * match" for another, and the answer never holds the reference.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toPersianDigits } from '../../src/shared/digits';
import { animationsDone, DESKTOP, takeScreenshots } from '../support/browser';
import { withE2eServer } from '../support/e2e';

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

const e2e = withE2eServer({}, async () => undefined);

describe('proof for the embassy', () => {
  it('staff record the SEVIS number and its PDF; the customer prints the letter; a reader checks the reference', async () => {
    const who = await e2e.customer();
    const purchase = await e2e.money.paidRequest(who, 350, {
      desk: 'sevisGeneralCpr',
      fields: { payerLatinName: 'Sara Karimi' },
    });

    const staff = await e2e.signedIn(await e2e.staff(['viewTasks', 'manageCurrencyPayments']), DESKTOP);
    await staff.goto(`${e2e.server.url}/management/tasks`);
    await staff.getByRole('button', { name: 'انجام', exact: true }).first().click();
    const dialog = staff.getByTestId('fulfilment-dialog');
    await dialog.getByTestId('fulfilment-fields').waitFor();
    await dialog.locator('#fulfilmentDone_realPrice').pressSequentially(String(purchase.expectedPrice));
    const reference = dialog.locator('#fulfilmentDone_currencyPaymentReference');
    // The field carries the desk's name for its reference, and refuses what is not N and ten digits.
    await expect(dialog.getByText('شماره رسید SEVIS I-901').first().isVisible()).resolves.toBe(true);
    await reference.pressSequentially('N12345');
    await reference.blur();
    await dialog.getByText('شماره رسید SEVIS باید حرف N و پس از آن ده رقم باشد.').waitFor();
    await reference.fill('');
    await reference.pressSequentially(`N${toPersianDigits('0012345678')}`);
    await dialog.getByTestId('fulfilmentDone_receiptFile-file').setInputFiles({
      name: 'fmjfee-receipt.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await dialog.getByTestId('fulfilmentDone_receiptFile-pdf').waitFor();
    expect(await dialog.getByText('شماره رسید SEVIS باید').count()).toBe(0);
    if (takeScreenshots) {
      await animationsDone(staff);
      await dialog.screenshot({ path: path.join(shots, 'proof-fulfilment-dialog.png') });
    }
    const recorded = staff.waitForResponse((r) => r.url().endsWith('/api/sys/uafCprDone'));
    await dialog.getByTestId('submit-done').click();
    expect((await recorded).status()).toBe(200);
    await dialog.waitFor({ state: 'hidden' });

    // The customer, on a phone, opens the letter from the finished request.
    const phone = await e2e.signedIn(who.token);
    await phone.goto(`${e2e.server.url}/request/myRequests?purchase=${purchase.id}`);
    await phone.getByTestId('proof-letter-link').click();
    const letter = phone.getByTestId('proof-letter');
    await letter.waitFor();
    await letter.getByTestId('receipt-qr').waitFor();
    expect(await letter.getByTestId('proof-reference-value').textContent()).toBe('N0012345678');
    const service = (await letter.getByTestId('proof-service').textContent()) ?? '';
    expect(service).toContain('پرداخت هزینه سویس');
    expect(service).toContain('SEVIS I-901 fee payment');
    expect(await letter.getByTestId('proof-words').textContent()).toContain('three hundred fifty USD');
    expect(await letter.getByTestId('proof-field-payerLatinName').textContent()).toContain('Sara Karimi');
    expect(await letter.getByTestId('proof-hash').textContent()).toMatch(/[0-9a-f]{64}/);
    const code = (await letter.getByTestId('receipt-verification-code').textContent()) ?? '';
    if (takeScreenshots) {
      await animationsDone(phone);
      await phone.screenshot({ path: path.join(shots, 'proof-letter-phone.png'), fullPage: true });
    }
    await phone.emulateMedia({ media: 'print' });
    if (takeScreenshots) await phone.screenshot({ path: path.join(shots, 'proof-letter-print.png'), fullPage: true });
    const pdf = await phone.pdf({ format: 'A4', printBackground: true });
    expect((pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length).toBe(1);

    // A reader abroad, a guest, checks the reference they hold on the verify page.
    const reader = await e2e.signedIn(null);
    const answers: string[] = [];
    reader.on('response', (r) => {
      if (r.url().endsWith('/api/public/checkReceiptReference')) void r.text().then((t) => answers.push(t));
    });
    await reader.goto(`${e2e.server.url}/verify/${code}`);
    const box = reader.getByLabel(/Enter the reference you hold/);
    await box.pressSequentially('n0012345678');
    await reader.getByRole('button', { name: /Compare/ }).click();
    const answer = reader.getByTestId('reference-answer-en');
    await answer.getByText('Matches').waitFor();
    await box.fill('');
    await box.pressSequentially('N0012345679');
    await reader.getByRole('button', { name: /Compare/ }).click();
    await answer.getByText('Does not match').waitFor();
    if (takeScreenshots) {
      await animationsDone(reader);
      await reader.screenshot({ path: path.join(shots, 'proof-verify-reference.png'), fullPage: true });
    }
    expect(answers).toHaveLength(2);
    for (const text of answers) expect(text).not.toContain('12345678');
  });
});
