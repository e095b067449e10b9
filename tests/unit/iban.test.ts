import { describe, expect, it } from 'vitest';
import { toPersianDigits } from '../../src/shared/digits';
import { formatIban, IBAN_MESSAGES, ibanMod97, IRANIAN_BANKS, parseIban } from '../../src/shared/iban';

/** Published examples: a Pasargad (057) and a Sepah (015) account. */
const PASARGAD = 'IR870570028180010653892101';
const SEPAH = 'IR240150000001177301920207';

/** A valid IBAN for `bankCode` and a 19-digit account part, its check digits computed here. */
function ibanFor(bankCode: string, account: string): string {
  const check = 98 - ibanMod97(`IR00${bankCode}${account}`);
  return `IR${String(check).padStart(2, '0')}${bankCode}${account}`;
}

describe('parseIban', () => {
  it('accepts valid IBANs with the bank of their code', () => {
    expect(parseIban(PASARGAD)).toEqual({ ok: true, iban: PASARGAD, bankCode: '057', bankName: 'بانک پاسارگاد' });
    expect(parseIban(SEPAH)).toMatchObject({ ok: true, bankCode: '015', bankName: 'بانک سپه' });
  });

  it('accepts spaces, dashes, a lower-case ir, Persian and Arabic-Indic digits', () => {
    for (const typed of [
      'IR87 0570 0281 8001 0653 8921 01',
      ' ir870570028180010653892101 ',
      'IR87-0570-0281-8001-0653-8921-01',
      `IR${toPersianDigits(PASARGAD.slice(2))}`,
      `IR${PASARGAD.slice(2).replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)))}`,
      `IR۸۷ ۰۵۷۰\u200c۰۲۸۱ ۸۰۰۱ ۰۶۵۳ ۸۹۲۱ ۰۱`,
      PASARGAD.slice(2),
    ]) {
      expect(parseIban(typed), typed).toMatchObject({ ok: true, iban: PASARGAD });
    }
  });

  it('refuses a bad checksum', () => {
    expect(parseIban('IR870570028180010653892102')).toEqual({ ok: false, message: IBAN_MESSAGES.checksum });
    expect(parseIban('IR780570028180010653892101')).toEqual({ ok: false, message: IBAN_MESSAGES.checksum });
  });

  it('refuses a wrong length', () => {
    expect(parseIban('IR87057002818001065389210')).toEqual({ ok: false, message: IBAN_MESSAGES.length });
    expect(parseIban('IR8705700281800106538921011')).toEqual({ ok: false, message: IBAN_MESSAGES.length });
  });

  it('refuses letters, another country and an empty field', () => {
    expect(parseIban('')).toEqual({ ok: false, message: IBAN_MESSAGES.required });
    expect(parseIban('   ')).toEqual({ ok: false, message: IBAN_MESSAGES.required });
    expect(parseIban('DE89370400440532013000')).toEqual({ ok: false, message: IBAN_MESSAGES.format });
    expect(parseIban('IR87057002818001065389210A')).toEqual({ ok: false, message: IBAN_MESSAGES.format });
  });

  it('refuses a checksum-valid IBAN of an unknown bank code', () => {
    expect(parseIban(ibanFor('999', '0000000001234567890'))).toEqual({ ok: false, message: IBAN_MESSAGES.unknownBank });
  });

  it('knows every bank of its table', () => {
    for (const [code, name] of Object.entries(IRANIAN_BANKS)) {
      expect(parseIban(ibanFor(code, '0001234567890123456'))).toMatchObject({
        ok: true,
        bankCode: code,
        bankName: name,
      });
    }
    expect(IRANIAN_BANKS['017']).toBe('بانک ملی ایران');
    expect(IRANIAN_BANKS['012']).toBe('بانک ملت');
  });
});

describe('formatIban', () => {
  it('groups by four', () => {
    expect(formatIban(PASARGAD)).toBe('IR87 0570 0281 8001 0653 8921 01');
  });
});
