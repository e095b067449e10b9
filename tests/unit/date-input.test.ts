/** The pure half of the date field and its picker: typed text, canonical text and month grids. */
import { describe, expect, it } from 'vitest';
import { gregorianToJalali, weekdayNames } from '../../src/shared/calendar';
import { formatDateText, isDateTextPrefix, parseDateText } from '../../src/shared/calendar/date-text';
import {
  addDays,
  addMonths,
  isoOfParts,
  MONTH_NAMES,
  monthGrid,
  partsOfIso,
  persianWeekdayNames,
  todayIso,
  weekdayInitials,
} from '../../src/shared/calendar/month-grid';

describe('typed date text', () => {
  it('reads a Jalali date in any digits, separators and one- or two-digit month and day', () => {
    expect(parseDateText('1375/06/15', 'fa')).toBe('1996-09-05');
    expect(parseDateText('1375/6/15', 'fa')).toBe('1996-09-05');
    expect(parseDateText('۱۳۷۵/۰۶/۱۵', 'fa')).toBe('1996-09-05');
    expect(parseDateText('١٣٧٥/٦/١٥', 'fa')).toBe('1996-09-05');
    expect(parseDateText(' 1375.06.15 ', 'fa')).toBe('1996-09-05');
    expect(parseDateText('۱۳۷۵٫۰۶٫۲۹', 'fa')).toBe('1996-09-19');
    expect(parseDateText('1375,6,29', 'fa')).toBe('1996-09-19');
    expect(parseDateText('1375/06/1', 'fa')).toBe('1996-08-22');
  });

  it('reads a Gregorian date the same way', () => {
    expect(parseDateText('1996-09-05', 'en')).toBe('1996-09-05');
    expect(parseDateText('1996-9-5', 'en')).toBe('1996-09-05');
    expect(parseDateText('۱۹۹۶-۰۹-۰۵', 'en')).toBe('1996-09-05');
    expect(parseDateText('1996/09/05', 'en')).toBe('1996-09-05');
    expect(parseDateText('2024-02-29', 'en')).toBe('2024-02-29');
  });

  it('refuses days that do not exist and text that is not a whole date', () => {
    for (const text of ['1375/13/01', '1404/12/30', '1375/07/31', '1375/06/00', '1375/06', '75/06/15', 'abc', '']) {
      expect(parseDateText(text, 'fa')).toBeNull();
    }
    for (const text of ['2025-02-29', '2025-02-30', '2025-13-01', '2025-00-10', '2025-1', '']) {
      expect(parseDateText(text, 'en')).toBeNull();
    }
    expect(parseDateText('0999/01/01', 'fa')).toBeNull(); // outside the Jalali table
  });

  it('shows a stored day in its canonical text with Latin digits', () => {
    expect(formatDateText('1996-09-05', 'fa')).toBe('1375/06/15');
    expect(formatDateText('1996-09-05', 'en')).toBe('1996-09-05');
    expect(formatDateText('@1375/13/01', 'fa')).toBe('');
    expect(formatDateText(parseDateText('۱۳۷۵/۶/۲۹', 'fa')!, 'fa')).toBe('1375/06/29');
  });

  it('tells a date still being typed from one that can no longer become valid', () => {
    const typing = [
      '',
      '1',
      '137',
      '1375',
      '1375/',
      '1375/0',
      '1375/1',
      '1375/06',
      '1375/06/',
      '1375/06/1',
      '1375/06/3',
    ];
    for (const text of [...typing, '1375/06/15', '1375/06/4', '۱۳۷۵/۰', '۱۳۷۵/۰۶/۲']) {
      expect([text, isDateTextPrefix(text, 'fa')]).toEqual([text, true]);
    }
    const wrong = ['1375/13', '1375/00', '1375/0/', '1375//', '137/', '1375/06/32', '1375/07/31', '1375/06/00'];
    for (const text of [...wrong, '1375/06/15/', 'abc', '0999/', '1375-06-1x']) {
      expect([text, isDateTextPrefix(text, 'fa')]).toEqual([text, false]);
    }
    expect(isDateTextPrefix('1996-02-', 'en')).toBe(true);
    expect(isDateTextPrefix('1996-02-2', 'en')).toBe(true);
    expect(isDateTextPrefix('1996-02-30', 'en')).toBe(false);
  });
});

describe('month grid', () => {
  const days = (grid: ReturnType<typeof monthGrid>) => grid.flat().filter((d) => d !== null);

  it('lays out Farvardin 1404 from Saturday, its first day a Friday in the last column', () => {
    const grid = monthGrid(1404, 1, 'fa');
    expect(grid).toHaveLength(6);
    expect(grid[0]).toEqual([null, null, null, null, null, null, expect.objectContaining({ day: 1 })]);
    expect(grid[0]![6]).toEqual({ year: 1404, month: 1, day: 1, iso: '2025-03-21', weekday: 5 });
    expect(days(grid)).toHaveLength(31);
    expect(grid[1]![0]).toMatchObject({ day: 2, weekday: 6 }); // Saturday
  });

  it('gives a leap Esfand 30 days and a common one 29', () => {
    expect(days(monthGrid(1403, 12, 'fa')).at(-1)).toMatchObject({ day: 30, iso: '2025-03-20' });
    expect(days(monthGrid(1404, 12, 'fa')).at(-1)).toMatchObject({ day: 29 });
  });

  it('starts Gregorian weeks on Sunday', () => {
    const grid = monthGrid(2025, 2, 'en'); // 1 February 2025 was a Saturday
    expect(grid[0]!.slice(0, 6)).toEqual(Array(6).fill(null));
    expect(grid[0]![6]).toMatchObject({ day: 1, iso: '2025-02-01', weekday: 6 });
    expect(days(grid)).toHaveLength(28);
  });

  it('has whole weeks in weekday order and consecutive days that agree with the conversions, 1300 to 1420', () => {
    const problems: string[] = [];
    for (let year = 1300; year <= 1420; year++) {
      for (let month = 1; month <= 12; month++) {
        const grid = monthGrid(year, month, 'fa');
        grid.forEach((week, row) => {
          if (week.length !== 7) problems.push(`${year}/${month} row ${row}`);
          week.forEach((d, col) => {
            if (d && d.weekday !== (col + 6) % 7) problems.push(`${d.iso} in column ${col}`);
            if (
              d &&
              gregorianToJalali(d.iso) !== `${year}/${String(month).padStart(2, '0')}/${String(d.day).padStart(2, '0')}`
            )
              problems.push(d.iso);
          });
        });
        const list = days(grid);
        list.forEach((d, i) => {
          if (i > 0 && addDays(list[i - 1]!.iso, 1) !== d.iso) problems.push(`gap before ${d.iso}`);
        });
      }
    }
    expect(problems).toEqual([]);
  });

  it('names months and weekdays in Persian in the calendar week order', () => {
    expect(MONTH_NAMES.fa[5]).toBe('شهریور');
    expect(MONTH_NAMES.fa).toHaveLength(12);
    expect(MONTH_NAMES.en[8]).toBe('سپتامبر');
    expect(weekdayInitials('fa')).toEqual(['ش', 'ی', 'د', 'س', 'چ', 'پ', 'ج']);
    expect(weekdayInitials('en')).toEqual(['ی', 'د', 'س', 'چ', 'پ', 'ج', 'ش']);
    expect(persianWeekdayNames('fa')).toEqual(weekdayNames('fa'));
  });
});

describe('moving through days and months', () => {
  it('converts between a Gregorian day and the calendar numbering', () => {
    expect(partsOfIso('1996-09-05', 'fa')).toEqual({ year: 1375, month: 6, day: 15 });
    expect(partsOfIso('1996-09-05', 'en')).toEqual({ year: 1996, month: 9, day: 5 });
    expect(isoOfParts({ year: 1375, month: 6, day: 15 }, 'fa')).toBe('1996-09-05');
    expect(() => partsOfIso('2025-02-30', 'en')).toThrow('Invalid date');
    expect(() => isoOfParts({ year: 1404, month: 12, day: 30 }, 'fa')).toThrow('Invalid date');
  });

  it('adds days across months and years', () => {
    expect(addDays('2025-03-20', 1)).toBe('2025-03-21');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(addDays('2024-02-28', 7)).toBe('2024-03-06');
  });

  it('adds months keeping the day when it exists and the last day otherwise', () => {
    expect(addMonths({ year: 1375, month: 6, day: 31 }, 1, 'fa')).toEqual({ year: 1375, month: 7, day: 30 });
    expect(addMonths({ year: 1375, month: 12, day: 10 }, 1, 'fa')).toEqual({ year: 1376, month: 1, day: 10 });
    expect(addMonths({ year: 1375, month: 1, day: 10 }, -1, 'fa')).toEqual({ year: 1374, month: 12, day: 10 });
    expect(addMonths({ year: 1403, month: 12, day: 30 }, -12, 'fa')).toEqual({ year: 1402, month: 12, day: 29 });
    expect(addMonths({ year: 2024, month: 1, day: 31 }, 1, 'en')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(addMonths({ year: 2024, month: 5, day: 15 }, -125, 'en')).toEqual({ year: 2013, month: 12, day: 15 });
  });

  it("gives today's local date", () => {
    expect(todayIso(new Date(2025, 2, 21, 0, 5))).toBe('2025-03-21');
  });
});
