import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CARD_BANKS,
  CARD_MESSAGES,
  cardBankOf,
  compactCardNumber,
  groupCardNumber,
  luhnValid,
  maskCardNumber,
  parseCardNumber,
  sameMaskedCard,
} from '../../src/shared/cards/card-number';
import { toPersianDigits } from '../../src/shared/digits';
import { cardHashOf } from '../../src/server/modules/cards/card-hash';

/** The sandbox bank's sample card (Bank Melli), Luhn-valid. */
const MELLI = '6037991234567893';

/** A Luhn-valid 16-digit card with this BIN and 9 middle digits, its check digit computed here. */
function cardFor(bin: string, middle = '123456789'): string {
  const body = bin + middle;
  for (let check = 0; check < 10; check++) if (luhnValid(body + check)) return body + check;
  throw new Error('unreachable');
}

describe('luhnValid', () => {
  it('accepts numbers whose check digit is right and refuses every single-digit change of it', () => {
    expect(luhnValid(MELLI)).toBe(true);
    expect(luhnValid('79927398713')).toBe(true);
    for (let d = 0; d < 10; d++) {
      if (String(d) !== MELLI.at(-1)) expect(luhnValid(MELLI.slice(0, 15) + d)).toBe(false);
    }
    // A swap of two neighbouring digits is caught too.
    expect(luhnValid('6037991234567983')).toBe(false);
    expect(luhnValid('')).toBe(false);
    expect(luhnValid('60379912345678x3')).toBe(false);
  });
});

describe('compactCardNumber and parseCardNumber', () => {
  it('accepts Persian and Arabic-Indic digits, spaces, dashes and direction marks', () => {
    for (const typed of [
      MELLI,
      '6037 9912 3456 7893',
      '6037-9912-3456-7893',
      toPersianDigits(MELLI),
      MELLI.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d))),
      '۶۰۳۷ ۹۹۱۲-۳۴۵۶\u200c۷۸۹۳',
      '\u2066 6037 9912 3456 7893 \u2069',
    ]) {
      expect(compactCardNumber(typed), typed).toBe(MELLI);
      expect(parseCardNumber(typed), typed).toEqual({
        ok: true,
        cardNumber: MELLI,
        bin: '603799',
        bankName: 'بانک ملی ایران',
      });
    }
  });

  it('refuses with the Persian reason: empty, not digits, not 16 digits, bad check digit, unknown bank', () => {
    expect(parseCardNumber('  ')).toEqual({ ok: false, message: CARD_MESSAGES.required });
    expect(parseCardNumber('6037a91234567893')).toEqual({ ok: false, message: CARD_MESSAGES.digits });
    expect(parseCardNumber('603799123456789')).toEqual({ ok: false, message: CARD_MESSAGES.length });
    expect(parseCardNumber('60379912345678930')).toEqual({ ok: false, message: CARD_MESSAGES.length });
    expect(parseCardNumber('6037991234567890')).toEqual({ ok: false, message: CARD_MESSAGES.checksum });
    expect(parseCardNumber(cardFor('411111'))).toEqual({ ok: false, message: CARD_MESSAGES.unknownBank });
    for (const message of Object.values(CARD_MESSAGES)) expect(message).toMatch(/[\u0600-\u06FF]/);
  });
});

describe('the bank by BIN', () => {
  it('names the banks of the published BINs', () => {
    const expected: Record<string, string> = {
      '603799': 'ملی',
      '589210': 'سپه',
      '627353': 'تجارت',
      '585983': 'تجارت',
      '610433': 'ملت',
      '603769': 'صادرات',
      '627412': 'اقتصاد نوین',
      '622106': 'پارسیان',
      '502229': 'پاسارگاد',
      '627488': 'کارآفرین',
      '621986': 'سامان',
      '639346': 'سینا',
      '627648': 'توسعه صادرات',
      '207177': 'توسعه صادرات',
      '636214': 'آینده',
      '502806': 'شهر',
      '504706': 'شهر',
      '502938': 'دی',
      '603770': 'کشاورزی',
      '639217': 'کشاورزی',
      '628023': 'مسکن',
      '627760': 'پست بانک',
      '589463': 'رفاه',
      '627381': 'انصار',
      '505785': 'ایران زمین',
      '636949': 'حکمت',
      '505416': 'گردشگری',
      '606373': 'مهر ایران',
      '639607': 'سرمایه',
      '502908': 'توسعه تعاون',
      '628157': 'توسعه',
      '505801': 'کوثر',
      '606256': 'ملل',
      '639370': 'مهر اقتصاد',
      '507677': 'نور',
    };
    for (const [bin, bank] of Object.entries(expected)) {
      expect(CARD_BANKS[bin], bin).toContain(bank);
      const card = cardFor(bin);
      expect(parseCardNumber(card)).toMatchObject({ ok: true, bin, bankName: CARD_BANKS[bin] });
    }
    for (const bin of Object.keys(CARD_BANKS)) expect(bin).toMatch(/^\d{6}$/);
  });

  it('shows the bank as soon as six digits are typed, in any digits; none before', () => {
    expect(cardBankOf('۶۲۱۹-۸۶')).toBe('بانک سامان');
    expect(cardBankOf('62198')).toBeNull();
    expect(cardBankOf('411111')).toBeNull();
  });
});

describe('masks and hashes', () => {
  it('masks as banks and ZarinPal do, groups for reading, and compares masks by their ends', () => {
    expect(maskCardNumber(MELLI)).toBe('603799******7893');
    expect(groupCardNumber(MELLI)).toBe('6037 9912 3456 7893');
    expect(groupCardNumber('603799******7893')).toBe('6037 99** **** 7893');
    expect(sameMaskedCard('603799******7893', MELLI)).toBe(true);
    expect(sameMaskedCard('6037-99**-****-7893', '603799******7893')).toBe(true);
    expect(sameMaskedCard('603799******7894', '603799******7893')).toBe(false);
    expect(sameMaskedCard('', '')).toBe(false);
  });

  it("card_hash is ZarinPal's: SHA-256 of the 16 digits, upper-case hex", () => {
    const hash = cardHashOf(MELLI);
    expect(hash).toBe(createHash('sha256').update(MELLI, 'utf8').digest('hex').toUpperCase());
    expect(hash).toMatch(/^[0-9A-F]{64}$/);
  });
});
