import { describe, expect, it } from 'vitest';
import { currentJalaliYear, gregorianToJalali } from '../../src/shared/calendar';
import {
  isInRange,
  isInteger,
  isPersianText,
  isValidEmailList,
  isValidJalaliDate,
  isValidMobile,
  isValidNationalCode,
} from '../../src/shared/validation';

const checkSum = (nine: string) => [...nine].reduce((acc, d, i) => acc + Number(d) * (10 - i), 0);

/** The first nine digits (scanning upward from a start) whose weighted sum leaves the wanted remainder. */
function nineWithRemainder(wanted: number, from = 100_000_000): string {
  for (let n = from; n < 1_000_000_000; n += 1) {
    const nine = String(n).padStart(9, '0');
    if (checkSum(nine) % 11 === wanted) return nine;
  }
  throw new Error('not found');
}

describe('isValidMobile', () => {
  it('takes 09 and nine digits, in any digit script', () => {
    expect(isValidMobile('09123456789')).toBe(true);
    expect(isValidMobile('۰۹۱۲۳۴۵۶۷۸۹')).toBe(true);
    expect(isValidMobile('٠٩١٢٣٤٥٦٧٨٩')).toBe(true);
    expect(isValidMobile('۰۹12345678۹')).toBe(true);
    expect(isValidMobile(' 09123456789\n')).toBe(true);
  });

  it('takes the spellings the server canonicalises (spaces, dashes, +98, 0098, 9 and nine digits)', () => {
    expect(isValidMobile('0912 345 6789')).toBe(true);
    expect(isValidMobile('+98 912-345-6789')).toBe(true);
    expect(isValidMobile('00989123456789')).toBe(true);
    expect(isValidMobile('9123456789')).toBe(true);
  });

  it('refuses other shapes', () => {
    expect(isValidMobile('0912345678')).toBe(false);
    expect(isValidMobile('091234567890')).toBe(false);
    expect(isValidMobile('08123456789')).toBe(false);
    expect(isValidMobile('+9809123456789')).toBe(false);
    expect(isValidMobile('0912345678x')).toBe(false);
    expect(isValidMobile('')).toBe(false);
  });
});

describe('isValidNationalCode', () => {
  it('accepts real check digits and refuses a wrong one', () => {
    expect(isValidNationalCode('0499370899')).toBe(true);
    expect(isValidNationalCode('0013542419')).toBe(true);
    expect(isValidNationalCode('0499370898')).toBe(false);
    expect(isValidNationalCode('0013542418')).toBe(false);
  });

  it('uses the remainder itself as the check digit when the remainder is 0 or 1', () => {
    const r0 = nineWithRemainder(0);
    const r1 = nineWithRemainder(1);
    expect(checkSum(r0) % 11).toBe(0);
    expect(checkSum(r1) % 11).toBe(1);
    expect(isValidNationalCode(`${r0}0`)).toBe(true);
    expect(isValidNationalCode(`${r1}1`)).toBe(true);
    // Every other check digit is wrong for them, including 11 - r mod 10 (1 for r=0, 0 for r=1).
    for (let d = 0; d <= 9; d++) {
      if (d !== 0) expect(isValidNationalCode(`${r0}${d}`), `${r0}${d}`).toBe(false);
      if (d !== 1) expect(isValidNationalCode(`${r1}${d}`), `${r1}${d}`).toBe(false);
    }
  });

  it('uses 11 - remainder from 2 up', () => {
    for (let r = 2; r <= 10; r++) {
      const nine = nineWithRemainder(r);
      expect(isValidNationalCode(`${nine}${11 - r}`), `${nine} r=${r}`).toBe(true);
      expect(isValidNationalCode(`${nine}${(12 - r) % 10}`), `${nine} r=${r}`).toBe(false);
    }
  });

  it('refuses all-same digits even where the check digit would fit', () => {
    // 0000000000 and others pass the arithmetic (e.g. sum of 1111111111's first nine is 54, 54 % 11 = 10, 11 - 10 = 1).
    expect(checkSum('111111111') % 11).toBe(10);
    for (let d = 0; d <= 9; d++) expect(isValidNationalCode(String(d).repeat(10))).toBe(false);
  });

  it('refuses wrong lengths and letters; accepts Persian and Arabic-Indic digits', () => {
    expect(isValidNationalCode('049937089')).toBe(false);
    expect(isValidNationalCode('04993708990')).toBe(false);
    expect(isValidNationalCode('04993708a9')).toBe(false);
    expect(isValidNationalCode('049-937089-9')).toBe(false);
    expect(isValidNationalCode('')).toBe(false);
    expect(isValidNationalCode('۰۴۹۹۳۷۰۸۹۹')).toBe(true);
    expect(isValidNationalCode('٠٤٩٩٣٧٠٨٩٩')).toBe(true);
    expect(isValidNationalCode(' 0499370899 ')).toBe(true);
  });
});

describe('isPersianText', () => {
  it('takes Persian and Arabic letters, spaces, the zero-width non-joiner and diacritics', () => {
    expect(isPersianText('مریم')).toBe(true);
    expect(isPersianText('علی رضا')).toBe(true);
    expect(isPersianText('می‌خواهم')).toBe(true);
    expect(isPersianText('گچ پژ ک ی')).toBe(true);
    expect(isPersianText('آرش')).toBe(true);
    expect(isPersianText('خانهٔ')).toBe(true);
    expect(isPersianText('مُحَمَّد')).toBe(true);
    expect(isPersianText('علي كريم')).toBe(true); // Arabic yeh and kaf
    expect(isPersianText('  سارا  ')).toBe(true);
  });

  it('refuses digits of any script, Latin letters, punctuation and empty text', () => {
    expect(isPersianText('Maryam')).toBe(false);
    expect(isPersianText('مریم a')).toBe(false);
    expect(isPersianText('مریم2')).toBe(false);
    expect(isPersianText('مریم۲')).toBe(false);
    expect(isPersianText('مریم٢')).toBe(false);
    expect(isPersianText('مریم،')).toBe(false);
    expect(isPersianText('مریم؟')).toBe(false);
    expect(isPersianText('   ')).toBe(false);
    expect(isPersianText('\u200C')).toBe(false);
    expect(isPersianText('')).toBe(false);
  });
});

describe('isValidJalaliDate', () => {
  const now = new Date(2026, 10, 22, 12); // 1405/09/01

  it('checks the leap years of the Jalali calendar', () => {
    expect(isValidJalaliDate('1399/12/30', now)).toBe(true);
    expect(isValidJalaliDate('1400/12/30', now)).toBe(false);
    expect(isValidJalaliDate('1403/12/30', now)).toBe(true);
    expect(isValidJalaliDate('1404/12/30', now)).toBe(false);
    expect(isValidJalaliDate('1404/12/29', now)).toBe(true);
    expect(isValidJalaliDate('1375/12/30', now)).toBe(true);
    expect(isValidJalaliDate('1376/12/30', now)).toBe(false);
  });

  it('bounds the year from 1300 to the current year', () => {
    expect(currentJalaliYear(now)).toBe(1405);
    expect(isValidJalaliDate('1300/01/01', now)).toBe(true);
    expect(isValidJalaliDate('1299/12/29', now)).toBe(false);
    expect(isValidJalaliDate('1405/01/01', now)).toBe(true);
    expect(isValidJalaliDate('1405/12/29', now)).toBe(true); // later this year is still this year
    expect(isValidJalaliDate('1406/01/01', now)).toBe(false);
  });

  it('takes the real current year by default', () => {
    const year = currentJalaliYear();
    expect(year).toBeGreaterThanOrEqual(1404);
    expect(isValidJalaliDate(`${year}/01/01`)).toBe(true);
    expect(isValidJalaliDate(gregorianToJalali(new Date()))).toBe(true);
    expect(isValidJalaliDate(`${year + 1}/01/01`)).toBe(false);
  });

  it('checks months and days', () => {
    expect(isValidJalaliDate('1370/06/31', now)).toBe(true);
    expect(isValidJalaliDate('1370/07/31', now)).toBe(false);
    expect(isValidJalaliDate('1370/07/30', now)).toBe(true);
    expect(isValidJalaliDate('1370/11/31', now)).toBe(false);
    expect(isValidJalaliDate('1370/13/01', now)).toBe(false);
    expect(isValidJalaliDate('1370/00/10', now)).toBe(false);
    expect(isValidJalaliDate('1370/01/00', now)).toBe(false);
    expect(isValidJalaliDate('1370/01/32', now)).toBe(false);
  });

  it('takes yyyy/m/d with any digits and nothing else', () => {
    expect(isValidJalaliDate('۱۳۷۰/۰۶/۳۱', now)).toBe(true);
    expect(isValidJalaliDate('١٣٧٠/٠٦/٣١', now)).toBe(true);
    expect(isValidJalaliDate('1370/6/3', now)).toBe(true);
    expect(isValidJalaliDate(' 1370/06/31 ', now)).toBe(true);
    expect(isValidJalaliDate('1370-01-01', now)).toBe(false);
    expect(isValidJalaliDate('70/01/01', now)).toBe(false);
    expect(isValidJalaliDate('1370/001/01', now)).toBe(false);
    expect(isValidJalaliDate('1370/01/01 10:00', now)).toBe(false);
    expect(isValidJalaliDate('', now)).toBe(false);
  });
});

describe('isValidEmailList', () => {
  it('takes comma-separated addresses, with the Persian comma too', () => {
    expect(isValidEmailList('a@b.co')).toBe(true);
    expect(isValidEmailList('a@b.co, x.y+tag@mail.example.ir')).toBe(true);
    expect(isValidEmailList('a@b.co، c@d.io')).toBe(true);
    expect(isValidEmailList(' a@b.co ,c@d.io،e@f.org ')).toBe(true);
  });

  it('refuses empty items, an empty list and bad addresses', () => {
    expect(isValidEmailList('')).toBe(false);
    expect(isValidEmailList('  ')).toBe(false);
    expect(isValidEmailList('a@b.co,')).toBe(false);
    expect(isValidEmailList(',a@b.co')).toBe(false);
    expect(isValidEmailList('a@b.co,,c@d.io')).toBe(false);
    expect(isValidEmailList('a@b.co، ،c@d.io')).toBe(false);
    expect(isValidEmailList('a@b')).toBe(false);
    expect(isValidEmailList('a.@b.co')).toBe(false);
    expect(isValidEmailList('a..b@c.co')).toBe(false);
    expect(isValidEmailList('a@-b.co')).toBe(false);
    expect(isValidEmailList('a b@c.co')).toBe(false);
    expect(isValidEmailList('a@b.co c@d.io')).toBe(false);
    expect(isValidEmailList('a@b.co; c@d.io')).toBe(false);
    expect(isValidEmailList('not an email')).toBe(false);
  });
});

describe('isInteger', () => {
  it('accepts integers in any digit script', () => {
    expect(isInteger('42')).toBe(true);
    expect(isInteger('-7')).toBe(true);
    expect(isInteger('0')).toBe(true);
    expect(isInteger('۱۲۳')).toBe(true);
    expect(isInteger('-١٢٣')).toBe(true);
    expect(isInteger(' 5 ')).toBe(true);
    expect(isInteger(3)).toBe(true);
    expect(isInteger(-3)).toBe(true);
  });

  it('refuses everything else', () => {
    expect(isInteger('1.5')).toBe(false);
    expect(isInteger('1.0')).toBe(false);
    expect(isInteger('+5')).toBe(false);
    expect(isInteger('1,000')).toBe(false);
    expect(isInteger('1e3')).toBe(false);
    expect(isInteger('-')).toBe(false);
    expect(isInteger('')).toBe(false);
    expect(isInteger(3.1)).toBe(false);
    expect(isInteger(Number.NaN)).toBe(false);
    expect(isInteger(Number.POSITIVE_INFINITY)).toBe(false);
  });
});

describe('isInRange', () => {
  it('is inclusive by default', () => {
    expect(isInRange(5, 5, 10)).toBe(true);
    expect(isInRange(10, 5, 10)).toBe(true);
    expect(isInRange(7, 5, 10, { inclusive: true })).toBe(true);
    expect(isInRange(4.99, 5, 10)).toBe(false);
    expect(isInRange(10.01, 5, 10)).toBe(false);
  });

  it('is exclusive on request', () => {
    expect(isInRange(5, 5, 10, { inclusive: false })).toBe(false);
    expect(isInRange(10, 5, 10, { inclusive: false })).toBe(false);
    expect(isInRange(5.01, 5, 10, { inclusive: false })).toBe(true);
    expect(isInRange(0, 0, 0)).toBe(true);
    expect(isInRange(0, 0, 0, { inclusive: false })).toBe(false);
  });

  it('takes numeric strings in any digit script and refuses the rest', () => {
    expect(isInRange('۷', 5, 10, { inclusive: false })).toBe(true);
    expect(isInRange('٧', 5, 10)).toBe(true);
    expect(isInRange('-3', -5, 0)).toBe(true);
    expect(isInRange('۷٫۵', 5, 10)).toBe(true);
    expect(isInRange(' 7.5 ', 5, 10)).toBe(true);
    expect(isInRange('x', 0, 1)).toBe(false);
    expect(isInRange('', 0, 1)).toBe(false); // Number('') would be 0
    expect(isInRange('  ', 0, 1)).toBe(false);
    expect(isInRange('0x1', 0, 10)).toBe(false);
    expect(isInRange(Number.NaN, 0, 1)).toBe(false);
  });
});
