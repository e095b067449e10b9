/**
 * Tehran days (src/shared/calendar/tehran-day.ts): instants to Tehran calendar days and back, at UTC+03:30, and
 * the proof that no other source file does that arithmetic with the offset itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addTehranDays,
  nextTehranTime,
  tehranDayOf,
  tehranDayWindow,
  tehranHour,
  tehranInstant,
  tehranToday,
} from '../../src/shared/calendar/tehran-day';

describe('Tehran days', () => {
  it('names the Tehran day an instant falls in: 20:30 UTC is already the next day', () => {
    expect(tehranDayOf(new Date('2026-11-27T20:29:59Z'))).toBe('2026-11-27');
    expect(tehranDayOf(new Date('2026-11-27T20:30:00Z'))).toBe('2026-11-28');
    expect(tehranDayOf(Date.parse('2026-03-20T21:00:00Z'))).toBe('2026-03-21');
    expect(tehranToday(new Date('2026-11-27T23:00:00Z'))).toBe('2026-11-28');
  });

  it('reads the Tehran hour', () => {
    expect(tehranHour(new Date('2026-11-27T18:30:00Z'))).toBe(22);
    expect(tehranHour(new Date('2026-11-27T04:29:00Z'))).toBe(7);
    expect(tehranHour(new Date('2026-11-27T20:30:00Z'))).toBe(0);
  });

  it('turns a Tehran wall-clock time into its instant, and no date into an Invalid Date', () => {
    expect(tehranInstant('2026-11-28').toISOString()).toBe('2026-11-27T20:30:00.000Z');
    expect(tehranInstant('2026-11-28', 8).toISOString()).toBe('2026-11-28T04:30:00.000Z');
    expect(tehranInstant('2026-11-28', 23, 59, 59).toISOString()).toBe('2026-11-28T20:29:59.000Z');
    expect(Number.isNaN(tehranInstant('not-a-day').getTime())).toBe(true);
  });

  it("gives a day's window [from, to) and refuses what is no day", () => {
    const { from, to } = tehranDayWindow('2026-11-28');
    expect(from.toISOString()).toBe('2026-11-27T20:30:00.000Z');
    expect(to.toISOString()).toBe('2026-11-28T20:30:00.000Z');
    expect(tehranDayOf(from)).toBe('2026-11-28');
    expect(tehranDayOf(new Date(to.getTime() - 1))).toBe('2026-11-28');
    expect(tehranDayOf(to)).toBe('2026-11-29');
    for (const bad of ['2026-13-01', '1405/09/07', '', '2026-11-28T00:00'])
      expect(() => tehranDayWindow(bad), bad).toThrow(/not a date/);
  });

  it('adds days across months and years, backwards too', () => {
    expect(addTehranDays('2026-11-28', 1)).toBe('2026-11-29');
    expect(addTehranDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addTehranDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addTehranDays('2026-11-28', 0)).toBe('2026-11-28');
  });

  it("finds the next Tehran time strictly after now: today's when still ahead, else tomorrow's", () => {
    // 02:00 Tehran on 28 November is 22:30 UTC on the 27th.
    expect(nextTehranTime(new Date('2026-11-27T22:00:00Z'), 2).toISOString()).toBe('2026-11-27T22:30:00.000Z');
    expect(nextTehranTime(new Date('2026-11-27T22:30:00Z'), 2).toISOString()).toBe('2026-11-28T22:30:00.000Z');
    expect(nextTehranTime(new Date('2026-11-27T23:00:00Z'), 2, 15).toISOString()).toBe('2026-11-28T22:45:00.000Z');
  });
});

describe('Tehran-day arithmetic', () => {
  it('lives only in src/shared/calendar: no other file adds or subtracts the offset', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const files = readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f) && !f.startsWith('generated'))
      .map((f) => f.split(path.sep).join('/'));
    expect(files).toContain('shared/calendar/tehran-day.ts');
    const outside = files.filter(
      (f) =>
        !f.startsWith('shared/calendar/') &&
        /TEHRAN_OFFSET_MS|210 \* 60_000|\+03:30'/.test(readFileSync(path.join(root, 'src', f), 'utf8')),
    );
    expect(outside).toEqual([]);
  });
});
