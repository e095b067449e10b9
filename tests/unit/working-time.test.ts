/**
 * Working time in Tehran (decision 041): the 1405 calendar under schemas/calendars closes Nowruz and the lunar
 * holidays, Thursday is a half day and Friday closed; the same function answers forward and backward, and the
 * promise at the quote is priced from it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promiseFor } from '../../src/shared/deadline-promise';
import { tehranInstant } from '../../src/shared/calendar/tehran-day';
import { type WorkingCalendar, WorkingTime } from '../../src/shared/working-time';

const calendar = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../schemas/calendars/year1405.json'), 'utf8'),
) as WorkingCalendar;
const time = new WorkingTime([calendar]);
const at = (day: string, hour: number, minute = 0) => tehranInstant(day, hour, minute);
const HOUR = 3_600_000;

describe('working time', () => {
  it('skips the Nowruz week both ways: Thursday 12:00 plus 2 working hours is the Wednesday after Nowruz', () => {
    // 2026-03-19 is Thursday 28 Esfand 1404 (open until 13:00); Friday closed; 1–4 Farvardin 1405 (Sat–Tue) holidays.
    expect(time.day('2026-03-21').holiday).toContain('نوروز');
    expect(time.day('2026-03-24').window).toBeNull();
    expect(time.addWorkingHours(at('2026-03-19', 12), 2)).toEqual(at('2026-03-25', 10));
    expect(time.addWorkingHours(at('2026-03-25', 10), -2)).toEqual(at('2026-03-19', 12));
    expect(time.workingMsBetween(at('2026-03-19', 12), at('2026-03-25', 10))).toBe(2 * HOUR);
    expect(time.workingMsBetween(at('2026-03-25', 10), at('2026-03-19', 12))).toBe(-2 * HOUR);
  });

  it('closes Tasua and Ashura (a lunar holiday, by its Gregorian day) both ways', () => {
    // Tuesday 2026-06-23; Wednesday 24 and Thursday 25 June are Tasua and Ashura 1448; Friday closed.
    expect(time.day('2026-06-25').holiday).toBe('عاشورای حسینی');
    expect(time.addWorkingHours(at('2026-06-23', 16), 2)).toEqual(at('2026-06-27', 10));
    expect(time.addWorkingHours(at('2026-06-27', 10), -2)).toEqual(at('2026-06-23', 16));
    expect(time.workingMsBetween(at('2026-06-23', 8), at('2026-06-28', 0))).toBe(16 * HOUR);
    expect(time.holidaysBetween(at('2026-06-23', 0), at('2026-06-28', 0)).map((h) => h.day)).toEqual([
      '2026-06-24',
      '2026-06-25',
    ]);
  });

  it('counts Thursday as a half day (09:00–13:00) both ways', () => {
    // Wednesday 2026-12-02, Thursday 2026-12-03, Saturday 2026-12-05.
    expect(time.addWorkingHours(at('2026-12-02', 16), 3)).toEqual(at('2026-12-03', 11));
    expect(time.addWorkingHours(at('2026-12-02', 16), 6)).toEqual(at('2026-12-05', 10));
    expect(time.addWorkingHours(at('2026-12-05', 10), -6)).toEqual(at('2026-12-02', 16));
    expect(time.workingMsBetween(at('2026-12-03', 0), at('2026-12-04', 0))).toBe(4 * HOUR);
    // Outside working hours the clock waits for the next window.
    expect(time.addWorkingHours(at('2026-12-03', 20), 1)).toEqual(at('2026-12-05', 10));
  });

  it('finds the close of the nth working day before a day, over holidays', () => {
    // Saturday 27 June: Friday, Ashura and Tasua are skipped; the third working day before is Sunday 21 June.
    expect(time.closeOfWorkingDaysBefore('2026-06-27', 3)).toEqual(at('2026-06-21', 17));
    expect(time.closeOfWorkingDaysBefore('2026-12-03', 0)).toEqual(at('2026-12-03', 13));
  });
});

describe('the promise at the quote', () => {
  const sevis = { workingDaysBefore: 3, fulfilmentHours: 8, reason: 'سویس سه روز کاری پیش از مصاحبه' };

  it('answers the pay-by time for a far interview', () => {
    const promise = promiseFor(time, sevis, '2026-06-27', at('2026-06-10', 12))!;
    expect(promise.canMeet).toBe(true);
    expect(promise.doneBy).toBe(at('2026-06-21', 17).toISOString());
    expect(promise.payBy).toBe(at('2026-06-21', 9).toISOString());
    expect(promise.text).toBe(
      'اگر تا ۳۱ خرداد ۱۴۰۵، ساعت ۰۹:۰۰ پرداخت کنید، پیش از ۳۱ خرداد ۱۴۰۵، ساعت ۱۷:۰۰ انجام می‌شود.',
    );
  });

  it('cannot meet an interview too close, naming the holidays in between', () => {
    const promise = promiseFor(time, sevis, '2026-06-27', at('2026-06-22', 12))!;
    expect(promise.canMeet).toBe(false);
    expect(promise.text).toContain('سویس سه روز کاری پیش از مصاحبه');
    expect(promise.text).toContain('تاسوعای حسینی');
    expect(promise.text).toContain('عاشورای حسینی');
    expect(promise.text).toContain('بدون این قول');
    expect(promiseFor(time, sevis, 'not a day', at('2026-06-22', 12))).toBeNull();
  });
});
