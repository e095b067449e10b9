import { describe, expect, it } from 'vitest';
import {
  currentJalaliYear,
  formatDate,
  gregorianToJalali,
  isJalaliLeapYear,
  JALALI_MAX_YEAR,
  JALALI_MIN_YEAR,
  jalaliMonthLength,
  jalaliToGregorian,
  parseJalali,
  weekdayNames,
  weekStartsOn,
} from '../../src/shared/calendar';

const iso = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

describe('Jalali conversion', () => {
  it('converts both ways around Nowruz and a leap Esfand', () => {
    expect(jalaliToGregorian('1403/12/30')).toBe('2025-03-20');
    expect(jalaliToGregorian('1404/01/01')).toBe('2025-03-21');
    expect(jalaliToGregorian('1403/01/01')).toBe('2024-03-20');
    expect(gregorianToJalali('2025-03-20')).toBe('1403/12/30');
    expect(gregorianToJalali('2025-03-21')).toBe('1404/01/01');
    expect(gregorianToJalali('2026-11-22')).toBe('1405/09/01');
    expect(gregorianToJalali(new Date(2025, 2, 21, 23, 59))).toBe('1404/01/01');
  });

  it('accepts Persian and Arabic-Indic digits and one-digit month and day', () => {
    expect(jalaliToGregorian('۱۴۰۴/۰۱/۰۱')).toBe('2025-03-21');
    expect(jalaliToGregorian('١٤٠٣/١٢/٣٠')).toBe('2025-03-20');
    expect(jalaliToGregorian('1404/1/1')).toBe('2025-03-21');
    expect(gregorianToJalali('۲۰۲۵-۰۳-۲۱')).toBe('1404/01/01');
    expect(parseJalali(' 1370/6/31 ')).toEqual({ year: 1370, month: 6, day: 31 });
  });

  // jalaliday 3.1.1's own Gregorian -> Jalali routine is a day ahead in January and February of leap years.
  it('is right in January and February of a Gregorian leap year', () => {
    expect(gregorianToJalali('2023-12-31')).toBe('1402/10/10');
    expect(gregorianToJalali('2024-01-01')).toBe('1402/10/11');
    expect(gregorianToJalali('2024-02-29')).toBe('1402/12/10');
    expect(gregorianToJalali('2024-03-01')).toBe('1402/12/11');
    expect(gregorianToJalali('2024-03-19')).toBe('1402/12/29');
    expect(gregorianToJalali('2024-03-20')).toBe('1403/01/01');
    expect(jalaliToGregorian('1402/10/11')).toBe('2024-01-01');
    expect(formatDate(new Date(2024, 0, 1, 12), 'slashDate', 'fa')).toBe('1402/10/11');
  });

  it('agrees day by day with the Persian calendar of ICU from 1300 to 1500', () => {
    const icu = new Intl.DateTimeFormat('en-u-ca-persian-nu-latn', {
      timeZone: 'UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    const start = Date.UTC(1921, 2, 21); // 1300/01/01
    const end = Date.UTC(2122, 2, 21); // 1501/01/01
    const mismatches: string[] = [];
    for (let t = start; t < end; t += 86_400_000) {
      const day = new Date(t).toISOString().slice(0, 10);
      const [m, d, y] = icu.format(new Date(t)).split(/[/ ]/);
      const expected = `${y}/${m}/${d}`;
      if (gregorianToJalali(day) !== expected || jalaliToGregorian(expected) !== day) mismatches.push(day);
    }
    expect(mismatches).toEqual([]);
  });

  it('round-trips the first and last day of every supported year', () => {
    const failures: number[] = [];
    for (let y = JALALI_MIN_YEAR; y <= JALALI_MAX_YEAR; y++) {
      const pad = String(y).padStart(4, '0');
      const last = `${pad}/12/${jalaliMonthLength(y, 12)}`;
      const first = `${pad}/01/01`;
      if (gregorianToJalali(jalaliToGregorian(first)) !== first) failures.push(y);
      if (gregorianToJalali(jalaliToGregorian(last)) !== last) failures.push(y);
      const next = new Date(`${jalaliToGregorian(last)}T00:00:00Z`);
      next.setUTCDate(next.getUTCDate() + 1);
      if (
        y < JALALI_MAX_YEAR &&
        jalaliToGregorian(`${String(y + 1).padStart(4, '0')}/01/01`) !== next.toISOString().slice(0, 10)
      ) {
        failures.push(y);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses a day that does not exist and a malformed date', () => {
    expect(() => jalaliToGregorian('1404/12/30')).toThrow('Invalid date');
    expect(() => jalaliToGregorian('1404/07/31')).toThrow('Invalid date');
    expect(() => jalaliToGregorian('1404/13/01')).toThrow('Invalid date');
    expect(() => jalaliToGregorian('1404/00/01')).toThrow('Invalid date');
    expect(() => jalaliToGregorian('1404/01/00')).toThrow('Invalid date');
    expect(() => jalaliToGregorian('1404-01-01')).toThrow('Invalid date');
    expect(() => jalaliToGregorian('')).toThrow('Invalid date');
    expect(() => gregorianToJalali('2025-02-29')).toThrow('Invalid date');
    expect(() => gregorianToJalali('2025-13-01')).toThrow('Invalid date');
    expect(() => gregorianToJalali('March 5 2025')).toThrow('Invalid date');
    expect(() => gregorianToJalali(new Date(Number.NaN))).toThrow('Invalid date');
  });

  it("says 'Invalid Jalali year' outside the supported years", () => {
    expect(JALALI_MIN_YEAR).toBe(1000);
    expect(JALALI_MAX_YEAR).toBe(3176);
    expect(jalaliToGregorian('1000/01/01')).toBe('1621-03-21');
    expect(jalaliToGregorian('3176/01/01')).toBe('3797-03-20');
    expect(() => jalaliToGregorian('0999/12/29')).toThrow('Invalid Jalali year');
    expect(() => jalaliToGregorian('3177/01/01')).toThrow('Invalid Jalali year');
    expect(() => jalaliToGregorian('9999/01/01')).toThrow('Invalid Jalali year');
    expect(() => isJalaliLeapYear(999)).toThrow('Invalid Jalali year');
    expect(() => isJalaliLeapYear(3177)).toThrow('Invalid Jalali year');
    expect(() => isJalaliLeapYear(1403.5)).toThrow('Invalid Jalali year');
    expect(() => gregorianToJalali('1621-03-20')).toThrow('Invalid Jalali year');
    expect(gregorianToJalali('1621-03-21')).toBe('1000/01/01');
    expect(() => gregorianToJalali('3800-01-01')).toThrow('Invalid Jalali year');
  });

  it('knows leap years and month lengths', () => {
    expect([1399, 1403, 1408].map(isJalaliLeapYear)).toEqual([true, true, true]);
    expect([1400, 1401, 1402, 1404, 1405, 1406, 1407].map(isJalaliLeapYear)).toEqual(Array(7).fill(false));
    // The 33-year rhythm is not every fourth year: after 1403 the next leap year is 1408, five years on.
    expect(jalaliMonthLength(1404, 1)).toBe(31);
    expect(jalaliMonthLength(1404, 6)).toBe(31);
    expect(jalaliMonthLength(1404, 7)).toBe(30);
    expect(jalaliMonthLength(1404, 11)).toBe(30);
    expect(jalaliMonthLength(1404, 12)).toBe(29);
    expect(jalaliMonthLength(1403, 12)).toBe(30);
    expect(jalaliMonthLength(1403, 13)).toBe(0);
    expect(jalaliMonthLength(1403, 0)).toBe(0);
  });

  it('gives the current Jalali year, which turns at Nowruz', () => {
    expect(currentJalaliYear(new Date(2025, 2, 20, 23, 0))).toBe(1403);
    expect(currentJalaliYear(new Date(2025, 2, 21, 0, 30))).toBe(1404);
    expect(currentJalaliYear()).toBe(Number(gregorianToJalali(iso(new Date())).slice(0, 4)));
  });
});

describe('formatDate', () => {
  const instant = new Date(2025, 2, 20, 8, 30); // local time: Thursday 1403/12/30
  it('formats in the Jalali calendar with Persian weekday names and ASCII digits', () => {
    expect(formatDate(instant, 'slashDate', 'fa')).toBe('1403/12/30');
    expect(formatDate(instant, 'date', 'fa')).toBe('1403-12-30');
    expect(formatDate(instant, 'weekdayDate', 'fa')).toBe('پنج‌شنبه 1403/12/30');
    expect(formatDate(instant, 'dateTime', 'fa')).toBe('1403/12/30 08:30');
    expect(formatDate(new Date(2025, 2, 22), 'weekdayDate', 'fa')).toBe('شنبه 1404/01/02');
    expect(formatDate(new Date(2025, 2, 21), 'weekdayDate', 'fa')).toBe('جمعه 1404/01/01');
  });

  it('formats in the Gregorian calendar in English', () => {
    expect(formatDate(instant, 'date', 'en')).toBe('2025-03-20');
    expect(formatDate(instant, 'slashDate', 'en')).toBe('2025/03/20');
    expect(formatDate(instant, 'weekdayDate', 'en')).toBe('Thursday 2025/03/20');
    expect(formatDate(instant, 'dateTime', 'en')).toBe('2025/03/20 08:30');
  });

  it('takes ISO strings and epoch milliseconds', () => {
    // A bare date is the calendar day as written, in any time zone.
    expect(formatDate('2025-03-21', 'slashDate', 'fa')).toBe('1404/01/01');
    expect(formatDate('2025-03-20', 'weekdayDate', 'fa')).toBe('پنج‌شنبه 1403/12/30');
    expect(formatDate('۲۰۲۵-۰۳-۲۰', 'weekdayDate', 'en')).toBe('Thursday 2025/03/20');
    expect(formatDate('1994-12-31', 'weekdayDate', 'en')).toBe('Saturday 1994/12/31');
    expect(formatDate('2025-03-20', 'dateTime', 'fa')).toBe('1403/12/30 00:00');
    expect(formatDate('2025-03-21T10:00', 'dateTime', 'fa')).toBe('1404/01/01 10:00');
    expect(formatDate('2025-03-21 10:05:59.123456', 'dateTime', 'fa')).toBe('1404/01/01 10:05');
    // An instant with an offset is shown in local time.
    const tehran = new Date(Date.UTC(2025, 2, 21, 6, 35));
    const local = (n: number) => String(n).padStart(2, '0');
    expect(formatDate('2025-03-21T10:05:00+03:30', 'dateTime', 'en')).toBe(
      `${tehran.getFullYear()}/${local(tehran.getMonth() + 1)}/${local(tehran.getDate())} ${local(tehran.getHours())}:${local(tehran.getMinutes())}`,
    );
    expect(formatDate(instant.getTime(), 'date', 'en')).toBe('2025-03-20');
    expect(formatDate(new Date('2025-03-20T08:30:00Z').toISOString(), 'date', 'en')).toBe(
      iso(new Date('2025-03-20T08:30:00Z')),
    );
  });

  it('returns an empty string for an invalid date', () => {
    expect(formatDate('not a date', 'date', 'fa')).toBe('');
    expect(formatDate('2025-02-30', 'date', 'en')).toBe('');
    expect(formatDate('', 'date', 'en')).toBe('');
    expect(formatDate(Number.NaN, 'date', 'en')).toBe('');
    expect(formatDate(new Date('x'), 'slashDate', 'fa')).toBe('');
    expect(formatDate('1500-01-01', 'slashDate', 'fa')).toBe(''); // Jalali 878: outside the supported years
  });
});

describe('weeks', () => {
  it('starts the Jalali week on Saturday and the Gregorian one on Sunday', () => {
    expect(weekStartsOn('fa')).toBe(6);
    expect(weekStartsOn('en')).toBe(0);
    expect(weekdayNames('fa')).toEqual(['شنبه', 'یک‌شنبه', 'دوشنبه', 'سه‌شنبه', 'چهارشنبه', 'پنج‌شنبه', 'جمعه']);
    expect(weekdayNames('en')).toEqual(['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']);
  });

  it('uses the same names as formatDate', () => {
    for (let i = 0; i < 7; i++) {
      const saturday = new Date(2025, 2, 22 + i);
      expect(formatDate(saturday, 'weekdayDate', 'fa').split(' ')[0]).toBe(weekdayNames('fa')[i]);
    }
  });
});
