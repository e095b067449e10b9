import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { currentJalaliYear } from '../../src/shared/calendar';
import {
  isInRange,
  isInteger,
  isPersianText,
  isValidEmailList,
  isValidJalaliDate,
  isValidMobile,
  isValidNationalCode,
} from '../../src/shared/validation';
import { addSharedKeywords, sharedFormatNames } from '../../src/shared/validation/ajv-keywords';

/** Builds a national code whose first nine digits give the wanted remainder, with the right check digit. */
function nationalCodeWithRemainder(wanted: number): string {
  for (let n = 100000000; n < 999999999; n += 7919) {
    const nine = String(n).padStart(9, '0');
    const sum = [...nine].reduce((acc, d, i) => acc + Number(d) * (10 - i), 0);
    if (sum % 11 === wanted) return nine + String(wanted < 2 ? wanted : 11 - wanted);
  }
  throw new Error('not found');
}

describe('isValidMobile', () => {
  it('takes 09 and nine digits, in any digit script', () => {
    expect(isValidMobile('09123456789')).toBe(true);
    expect(isValidMobile('۰۹۱۲۳۴۵۶۷۸۹')).toBe(true);
    expect(isValidMobile('٠٩١٢٣٤٥٦٧٨٩')).toBe(true);
    expect(isValidMobile(' 09123456789 ')).toBe(true);
    expect(isValidMobile('9123456789')).toBe(false);
    expect(isValidMobile('0912345678')).toBe(false);
    expect(isValidMobile('091234567890')).toBe(false);
    expect(isValidMobile('08123456789')).toBe(false);
    expect(isValidMobile('+989123456789')).toBe(false);
  });
});

describe('isValidNationalCode', () => {
  it('accepts real check digits and refuses a wrong one', () => {
    expect(isValidNationalCode('0499370899')).toBe(true);
    expect(isValidNationalCode('0013542419')).toBe(true);
    expect(isValidNationalCode('0499370898')).toBe(false);
  });

  it('handles remainders below 2, where the check digit equals the remainder', () => {
    const r0 = nationalCodeWithRemainder(0);
    const r1 = nationalCodeWithRemainder(1);
    expect(r0.endsWith('0')).toBe(true);
    expect(r1.endsWith('1')).toBe(true);
    expect(isValidNationalCode(r0)).toBe(true);
    expect(isValidNationalCode(r1)).toBe(true);
    // 11 - remainder would be 11 or 10: not a digit, so those are wrong.
    expect(isValidNationalCode(`${r1.slice(0, 9)}0`)).toBe(false);
  });

  it('refuses all-same digits, wrong lengths and letters; accepts Persian digits', () => {
    for (let d = 0; d <= 9; d++) expect(isValidNationalCode(String(d).repeat(10))).toBe(false);
    expect(isValidNationalCode('049937089')).toBe(false);
    expect(isValidNationalCode('04993708990')).toBe(false);
    expect(isValidNationalCode('04993708a9')).toBe(false);
    expect(isValidNationalCode('۰۴۹۹۳۷۰۸۹۹')).toBe(true);
  });
});

describe('isPersianText', () => {
  it('takes Persian letters, spaces and the zero-width non-joiner only', () => {
    expect(isPersianText('مریم')).toBe(true);
    expect(isPersianText('علی رضا')).toBe(true);
    expect(isPersianText('می‌خواهم')).toBe(true);
    expect(isPersianText('گچ پژ ک ی')).toBe(true);
    expect(isPersianText('Maryam')).toBe(false);
    expect(isPersianText('مریم2')).toBe(false);
    expect(isPersianText('مریم۲')).toBe(false);
    expect(isPersianText('   ')).toBe(false);
    expect(isPersianText('')).toBe(false);
  });
});

describe('isValidJalaliDate', () => {
  const now = new Date('2026-11-22T12:00:00Z'); // 1405/09/01
  it('checks the leap years of the Jalali calendar', () => {
    expect(isValidJalaliDate('1399/12/30', now)).toBe(true);
    expect(isValidJalaliDate('1400/12/30', now)).toBe(false);
    expect(isValidJalaliDate('1403/12/30', now)).toBe(true);
    expect(isValidJalaliDate('1404/12/30', now)).toBe(false);
    expect(isValidJalaliDate('1404/12/29', now)).toBe(true);
  });

  it('bounds the year from 1300 to the current year', () => {
    expect(currentJalaliYear(now)).toBe(1405);
    expect(isValidJalaliDate('1300/01/01', now)).toBe(true);
    expect(isValidJalaliDate('1299/12/29', now)).toBe(false);
    expect(isValidJalaliDate('1405/01/01', now)).toBe(true);
    expect(isValidJalaliDate('1406/01/01', now)).toBe(false);
  });

  it('checks months and days, and the format', () => {
    expect(isValidJalaliDate('1370/06/31', now)).toBe(true);
    expect(isValidJalaliDate('1370/07/31', now)).toBe(false);
    expect(isValidJalaliDate('1370/13/01', now)).toBe(false);
    expect(isValidJalaliDate('1370/00/10', now)).toBe(false);
    expect(isValidJalaliDate('1370/01/00', now)).toBe(false);
    expect(isValidJalaliDate('1370-01-01', now)).toBe(false);
    expect(isValidJalaliDate('۱۳۷۰/۰۶/۳۱', now)).toBe(true);
    expect(isValidJalaliDate('1370/6/3', now)).toBe(true);
  });
});

describe('isValidEmailList', () => {
  it('takes comma-separated addresses, with the Persian comma too', () => {
    expect(isValidEmailList('a@b.co')).toBe(true);
    expect(isValidEmailList('a@b.co, x.y@mail.example.ir')).toBe(true);
    expect(isValidEmailList('a@b.co، c@d.io')).toBe(true);
    expect(isValidEmailList('a@b.co,')).toBe(false);
    expect(isValidEmailList('a@b')).toBe(false);
    expect(isValidEmailList('not an email')).toBe(false);
    expect(isValidEmailList('')).toBe(false);
  });
});

describe('isInteger and isInRange', () => {
  it('accepts integers in any digit script', () => {
    expect(isInteger('42')).toBe(true);
    expect(isInteger('-7')).toBe(true);
    expect(isInteger('۱۲۳')).toBe(true);
    expect(isInteger('1.5')).toBe(false);
    expect(isInteger('')).toBe(false);
    expect(isInteger(3)).toBe(true);
    expect(isInteger(3.1)).toBe(false);
  });

  it('is inclusive by default and exclusive on request', () => {
    expect(isInRange(5, 5, 10)).toBe(true);
    expect(isInRange(10, 5, 10)).toBe(true);
    expect(isInRange(5, 5, 10, { inclusive: false })).toBe(false);
    expect(isInRange('۷', 5, 10, { inclusive: false })).toBe(true);
    expect(isInRange('x', 0, 1)).toBe(false);
  });
});

describe('ajv registration', () => {
  const ajv = addSharedKeywords(new Ajv2020());
  addSharedKeywords(ajv); // idempotent

  it('registers every shared format', () => {
    for (const name of sharedFormatNames) expect(ajv.formats[name], name).toBeDefined();
  });

  it('applies the same rules through a schema', () => {
    const validate = ajv.compile({
      type: 'object',
      properties: {
        mobileNo: { type: 'string', format: 'mobile' },
        nationalCode: { type: 'string', format: 'nationalCode' },
        emails: { type: 'string', format: 'emailList' },
        amount: { numberRange: { min: 0, max: 100, inclusive: false } },
      },
    });
    expect(validate({ mobileNo: '۰۹۱۲۳۴۵۶۷۸۹', nationalCode: '0499370899', emails: 'a@b.co', amount: 50 })).toBe(true);
    expect(validate({ mobileNo: '0912' })).toBe(false);
    expect(validate({ nationalCode: '1111111111' })).toBe(false);
    expect(validate({ emails: 'a@b.co,,' })).toBe(false);
    expect(validate({ amount: 0 })).toBe(false);
    expect(validate({ amount: '100' })).toBe(false);
  });
});
