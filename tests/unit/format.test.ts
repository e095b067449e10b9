import { describe, expect, it } from 'vitest';
import { digitsAsTyped, toEnglishDigits, toPersianDigits, writtenInPersian } from '../../src/shared/digits';
import {
  formatFileSize,
  groupNumberAsTyped,
  groupWhileTyping,
  formatNumber,
  formatPhone,
  formatRial,
  formatToman,
  groupNumber,
  groupPhone,
  persianNumerals,
  toPersianDigits as reexported,
} from '../../src/shared/format';
import { displayDate, relativeTime } from '../../src/shared/format/dates';

describe('groupNumber (inputs and exports)', () => {
  it('uses en-US thousands separators', () => {
    expect(groupNumber(0)).toBe('0');
    expect(groupNumber(999)).toBe('999');
    expect(groupNumber(1000)).toBe('1,000');
    expect(groupNumber(1234567)).toBe('1,234,567');
    expect(groupNumber('1234567')).toBe('1,234,567');
    expect(groupNumber(12345678901234567890n)).toBe('12,345,678,901,234,567,890');
  });

  it('takes strings in any digit script, with or without separators', () => {
    expect(groupNumber('۱۲۳۴۵۶۷')).toBe('1,234,567');
    expect(groupNumber('١٢٣٤٥٦٧')).toBe('1,234,567');
    expect(groupNumber('1,234,567')).toBe('1,234,567');
    expect(groupNumber('۱٬۲۳۴٬۵۶۷')).toBe('1,234,567');
    expect(groupNumber(' ۱۲۳۴٫۵ ')).toBe('1,234.5');
  });

  it('keeps the minus sign and at most two decimals', () => {
    expect(groupNumber(-1500.5)).toBe('-1,500.5');
    expect(groupNumber('-1500')).toBe('-1,500');
    expect(groupNumber(1234.567)).toBe('1,234.57');
    expect(groupNumber('1234.5')).toBe('1,234.5');
    expect(groupNumber(-0)).toBe('0');
    expect(groupNumber('-0.001')).toBe('0');
  });

  it('formats long numeric strings exactly', () => {
    expect(groupNumber('98765432109876543210')).toBe('98,765,432,109,876,543,210');
    expect(groupNumber('-12345678901234567890.125')).toBe('-12,345,678,901,234,567,890.13');
  });

  it('writes what Intl.NumberFormat en-US with two decimals at most writes, without constructing it', () => {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
    const cases = [1.005, 2.675, 0.125, -0.125, 999.995, 415193142832679.2, 1e21, -1.5e25, 5e-7, 0.005, 123456789.999];
    for (const n of cases) expect(groupNumber(n), String(n)).toBe(intl.format(n));
    for (const text of ['.5', '5.', '+5', '007', '999.995', '-0.125', '0.0049'])
      expect(groupNumber(text), text).toBe(intl.format(text as `${number}`));
  });

  it('returns an empty string for what is not a number', () => {
    expect(groupNumber('abc')).toBe('');
    expect(groupNumber('')).toBe('');
    expect(groupNumber('1-2')).toBe('');
    expect(groupNumber(Number.NaN)).toBe('');
    expect(groupNumber(Number.POSITIVE_INFINITY)).toBe('');
  });
});

describe('formatNumber (what a person reads)', () => {
  it('writes Persian digits with the Persian thousands separator and decimal point', () => {
    expect(formatNumber(0)).toBe('۰');
    expect(formatNumber(1000)).toBe('۱٬۰۰۰');
    expect(formatNumber(1234567)).toBe('۱٬۲۳۴٬۵۶۷');
    expect(formatNumber('1,234,567')).toBe('۱٬۲۳۴٬۵۶۷');
    expect(formatNumber('۱۲۳۴۵۶۷')).toBe('۱٬۲۳۴٬۵۶۷');
    expect(formatNumber(-1500.5)).toBe('-۱٬۵۰۰٫۵');
    expect(formatNumber(12345678901234567890n)).toBe('۱۲٬۳۴۵٬۶۷۸٬۹۰۱٬۲۳۴٬۵۶۷٬۸۹۰');
    expect(formatNumber('abc')).toBe('');
    expect(persianNumerals('1,234.5')).toBe('۱٬۲۳۴٫۵');
  });

  it('reads back to the same number through the input rules', () => {
    for (const n of [0, 7, 1035000, -42.5, 999999999])
      expect(Number(toEnglishDigits(groupNumber(formatNumber(n))).replace(/,/g, ''))).toBe(n);
  });
});

describe('formatRial', () => {
  it('adds the unit', () => {
    expect(formatRial(1035000)).toBe('۱٬۰۳۵٬۰۰۰ ریال');
    expect(formatRial('۵۰۰۰')).toBe('۵٬۰۰۰ ریال');
    expect(formatRial(0n)).toBe('۰ ریال');
    expect(formatRial('abc')).toBe('');
  });
});

describe('formatPhone', () => {
  it('groups phone numbers as the rest, three, and the last four, in Persian digits', () => {
    expect(formatPhone('09123456789')).toBe('۰۹۱۲ ۳۴۵ ۶۷۸۹');
    expect(formatPhone('۰۹۱۲۳۴۵۶۷۸۹')).toBe('۰۹۱۲ ۳۴۵ ۶۷۸۹');
    expect(formatPhone('0912 345 6789')).toBe('۰۹۱۲ ۳۴۵ ۶۷۸۹');
    expect(formatPhone('02188776655')).toBe('۰۲۱۸ ۸۷۷ ۶۶۵۵');
    expect(formatPhone('+989123456789')).toBe('+۹۸۹۱۲ ۳۴۵ ۶۷۸۹');
  });

  it('keeps Latin digits in groupPhone', () => {
    expect(groupPhone('۰۹۱۲۳۴۵۶۷۸۹')).toBe('0912 345 6789');
    expect(groupPhone('+989123456789')).toBe('+98912 345 6789');
  });

  it('degrades gracefully for short input', () => {
    expect(formatPhone('12345678')).toBe('۱ ۲۳۴ ۵۶۷۸');
    expect(formatPhone('1234567')).toBe('۱۲۳ ۴۵۶۷');
    expect(formatPhone('12345')).toBe('۱ ۲۳۴۵');
    expect(formatPhone('1234')).toBe('۱۲۳۴');
    expect(formatPhone('123')).toBe('۱۲۳');
    expect(formatPhone('')).toBe('');
  });
});

describe('displayDate', () => {
  it('writes the calendar layouts in Persian digits, and long dates with the month name', () => {
    expect(displayDate('2026-11-22', 'slashDate', 'fa')).toBe('۱۴۰۵/۰۹/۰۱');
    expect(displayDate('2026-11-22', 'date', 'en')).toBe('۲۰۲۶-۱۱-۲۲');
    expect(displayDate('2026-11-22', 'longDate', 'fa')).toBe('۱ آذر ۱۴۰۵');
    expect(displayDate('2026-11-22', 'longDate', 'en')).toBe('۲۲ نوامبر ۲۰۲۶');
    expect(displayDate(new Date(2026, 10, 22, 16, 37), 'longDateTime', 'fa')).toBe('۱ آذر ۱۴۰۵، ۱۶:۳۷');
    expect(displayDate('not a date', 'longDate', 'fa')).toBe('');
  });
});

describe('relativeTime', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  it('says how long ago a recent event was', () => {
    expect(relativeTime(now - 20_000, now)).toBe('لحظاتی پیش');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('۵ دقیقه پیش');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('۳ ساعت پیش');
    expect(relativeTime(now - 30 * 3_600_000, now)).toBe('دیروز');
    expect(relativeTime(now - 4 * 86_400_000, now)).toBe('۴ روز پیش');
  });
  it('leaves older and future events to their date', () => {
    expect(relativeTime(now - 8 * 86_400_000, now)).toBeNull();
    expect(relativeTime(now + 5 * 60_000, now)).toBeNull();
    expect(relativeTime('garbage', now)).toBeNull();
  });
});

describe('digits', () => {
  it('converts Persian and Arabic-Indic digits to ASCII and leaves the rest', () => {
    expect(toEnglishDigits('۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789');
    expect(toEnglishDigits('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789');
    expect(toEnglishDigits('کد ۱۲۳-abc-٤٥٦')).toBe('کد 123-abc-456');
  });

  it('converts ASCII digits to Persian ones', () => {
    expect(toPersianDigits('1405/09/01')).toBe('۱۴۰۵/۰۹/۰۱');
    expect(toPersianDigits(42)).toBe('۴۲');
    expect(toPersianDigits(-1.5)).toBe('-۱.۵');
    expect(toPersianDigits(12345678901234567890n)).toBe('۱۲۳۴۵۶۷۸۹۰۱۲۳۴۵۶۷۸۹۰');
    expect(reexported).toBe(toPersianDigits);
  });
});

describe('formatToman', () => {
  it('divides by ten exactly, keeping a tenth of a toman', () => {
    expect(formatToman(1035000)).toBe('۱۰۳٬۵۰۰ تومان');
    expect(formatToman(1035005)).toBe('۱۰۳٬۵۰۰٫۵ تومان');
    expect(formatToman(5)).toBe('۰٫۵ تومان');
    expect(formatToman(0)).toBe('۰ تومان');
    expect(formatToman(-250)).toBe('-۲۵ تومان');
  });
  it('is exact beyond the safe integers and reads any digits', () => {
    expect(formatToman(12345678901234567890n)).toBe('۱٬۲۳۴٬۵۶۷٬۸۹۰٬۱۲۳٬۴۵۶٬۷۸۹ تومان');
    expect(formatToman('۱٬۰۳۵٬۰۰۰')).toBe('۱۰۳٬۵۰۰ تومان');
  });
  it('refuses what is not a whole number of rial', () => {
    expect(formatToman('12.5')).toBe('');
    expect(formatToman(Number.NaN)).toBe('');
    expect(formatToman('abc')).toBe('');
  });
});

describe('digits as typed (decision 020)', () => {
  it('keeps the digits a person typed in, Persian when nothing was typed', () => {
    expect(writtenInPersian('۱۳۷۲/۰۴/۱۵')).toBe(true);
    expect(writtenInPersian('1372/04/15')).toBe(false);
    expect(writtenInPersian('٢٢٠')).toBe(true);
    expect(writtenInPersian('')).toBe(true);
    expect(digitsAsTyped('1372/04/15', '۱۳۷۲/۴/۱۵')).toBe('۱۳۷۲/۰۴/۱۵');
    expect(digitsAsTyped('1372/04/15', '1372/4/15')).toBe('1372/04/15');
  });
  it('groups an amount in the digits it was typed in', () => {
    expect(groupNumberAsTyped(230000000, '۲۳۰۰۰۰۰۰۰')).toBe('۲۳۰٬۰۰۰٬۰۰۰');
    expect(groupNumberAsTyped(230000000, '230000000')).toBe('230,000,000');
    expect(groupNumberAsTyped(220)).toBe('۲۲۰');
    expect(groupNumberAsTyped(12.5, '۱۲٫۵')).toBe('۱۲٫۵');
  });
  it('groups while typing, leaving what is not whole digits for the rule to name', () => {
    expect(groupWhileTyping('۱۲۵۰۰۰۰')).toBe('۱٬۲۵۰٬۰۰۰');
    expect(groupWhileTyping('1250000')).toBe('1,250,000');
    expect(groupWhileTyping('۱٬۲۵۰۰')).toBe('۱۲٬۵۰۰');
    expect(groupWhileTyping('12a')).toBe('12a');
    expect(groupWhileTyping('')).toBe('');
  });
});

describe('formatFileSize', () => {
  it('names bytes, kilobytes and megabytes in Persian digits', () => {
    expect(formatFileSize(850)).toBe('۸۵۰ بایت');
    expect(formatFileSize(12 * 1024)).toBe('۱۲ کیلوبایت');
    expect(formatFileSize(1.44 * 1024 * 1024)).toBe('۱٫۴ مگابایت');
    expect(formatFileSize(5_000_000)).toBe('۴٫۸ مگابایت');
    expect(formatFileSize(-1)).toBe('');
  });
});
