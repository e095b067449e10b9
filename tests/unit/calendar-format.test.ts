import { describe, expect, it } from 'vitest';
import {
  formatDate,
  gregorianToJalali,
  isJalaliLeapYear,
  jalaliMonthLength,
  jalaliToGregorian,
  weekdayNames,
  weekStartsOn,
} from '../../src/shared/calendar';
import { toEnglishDigits, toPersianDigits } from '../../src/shared/digits';
import { formatNumber, formatPhone, formatRial } from '../../src/shared/format';

describe('Jalali conversion', () => {
  it('converts both ways around Nowruz and a leap Esfand', () => {
    expect(jalaliToGregorian('1403/12/30')).toBe('2025-03-20');
    expect(jalaliToGregorian('1404/01/01')).toBe('2025-03-21');
    expect(jalaliToGregorian('۱۴۰۴/۰۱/۰۱')).toBe('2025-03-21');
    expect(gregorianToJalali('2025-03-20')).toBe('1403/12/30');
    expect(gregorianToJalali('2025-03-21')).toBe('1404/01/01');
    expect(gregorianToJalali('2026-11-22')).toBe('1405/09/01');
  });

  it('refuses a day that does not exist and a malformed date', () => {
    expect(() => jalaliToGregorian('1404/12/30')).toThrow('Invalid date');
    expect(() => jalaliToGregorian('1404-01-01')).toThrow('Invalid date');
  });

  it("says 'Invalid Jalali year' outside the calendar's table", () => {
    expect(() => jalaliToGregorian('3178/01/01')).toThrow('Invalid Jalali year');
    expect(() => isJalaliLeapYear(-62)).toThrow('Invalid Jalali year');
    expect(() => gregorianToJalali('3800-01-01')).toThrow('Invalid Jalali year');
  });

  it('knows leap years and month lengths', () => {
    expect([1399, 1403, 1408].map(isJalaliLeapYear)).toEqual([true, true, true]);
    expect([1400, 1401, 1402, 1404, 1405].map(isJalaliLeapYear)).toEqual([false, false, false, false, false]);
    expect(jalaliMonthLength(1404, 1)).toBe(31);
    expect(jalaliMonthLength(1404, 7)).toBe(30);
    expect(jalaliMonthLength(1404, 12)).toBe(29);
    expect(jalaliMonthLength(1403, 12)).toBe(30);
    expect(jalaliMonthLength(1403, 13)).toBe(0);
  });
});

describe('formatDate', () => {
  const instant = '2025-03-20T08:30:00Z';
  it('formats in the Jalali calendar with Persian weekday names', () => {
    expect(formatDate(instant, 'slashDate', 'fa')).toBe('1403/12/30');
    expect(formatDate(instant, 'date', 'fa')).toBe('1403-12-30');
    expect(formatDate(instant, 'weekdayDate', 'fa')).toMatch(/^پنج‌?شنبه 1403\/12\/30$/);
  });

  it('formats in the Gregorian calendar in English', () => {
    expect(formatDate(instant, 'date', 'en')).toBe('2025-03-20');
    expect(formatDate(instant, 'weekdayDate', 'en')).toBe('Thursday 2025/03/20');
    expect(formatDate(instant, 'dateTime', 'en')).toMatch(/^2025\/03\/20 \d\d:\d\d$/);
  });

  it('returns an empty string for an invalid date', () => {
    expect(formatDate('not a date', 'date', 'fa')).toBe('');
  });

  it('starts the Jalali week on Saturday', () => {
    expect(weekStartsOn('fa')).toBe(6);
    expect(weekStartsOn('en')).toBe(0);
    expect(weekdayNames('fa')[0]).toBe('شنبه');
    expect(weekdayNames('en')[0]).toBe('Sunday');
    expect(weekdayNames('fa')).toHaveLength(7);
  });
});

describe('formatting', () => {
  it('uses en-US thousands separators', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber('۱۲۳۴۵۶۷')).toBe('1,234,567');
    expect(formatNumber(-1500.5)).toBe('-1,500.5');
    expect(formatNumber(12345678901234567890n)).toBe('12,345,678,901,234,567,890');
    expect(formatNumber('abc')).toBe('');
    expect(formatRial(1035000)).toBe('1,035,000 ریال');
  });

  it('groups phone numbers as the rest, three, and the last four', () => {
    expect(formatPhone('09123456789')).toBe('0912 345 6789');
    expect(formatPhone('۰۹۱۲۳۴۵۶۷۸۹')).toBe('0912 345 6789');
    expect(formatPhone('02188776655')).toBe('0218 877 6655');
    expect(formatPhone('1234567')).toBe('123 4567');
    expect(formatPhone('123')).toBe('123');
  });

  it('converts digits both ways', () => {
    expect(toPersianDigits('1405/09/01')).toBe('۱۴۰۵/۰۹/۰۱');
    expect(toPersianDigits(42)).toBe('۴۲');
    expect(toEnglishDigits('۱۲۳٤٥٦')).toBe('123456');
  });
});
