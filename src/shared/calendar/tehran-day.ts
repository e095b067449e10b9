/**
 * Tehran days: the one place that turns instants into Tehran calendar days and back (Tehran is UTC+03:30 all
 * year, TEHRAN_OFFSET_MS). A day is its Gregorian date, 'YYYY-MM-DD'; its Jalali name comes from ./index.
 */
import { TEHRAN_OFFSET_MS } from './index';

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The Gregorian date (YYYY-MM-DD) of the Tehran day an instant falls in. */
export function tehranDayOf(at: Date | number): string {
  return new Date(new Date(at).getTime() + TEHRAN_OFFSET_MS).toISOString().slice(0, 10);
}

/** Today in Tehran (YYYY-MM-DD). */
export function tehranToday(now: Date | number = Date.now()): string {
  return tehranDayOf(now);
}

/** The Tehran wall-clock time ('HH:mm') at an instant. */
export function tehranTimeOf(at: Date | number): string {
  return new Date(new Date(at).getTime() + TEHRAN_OFFSET_MS).toISOString().slice(11, 16);
}

/** The Tehran wall-clock hour (0–23) at an instant. */
export function tehranHour(at: Date | number): number {
  return new Date(new Date(at).getTime() + TEHRAN_OFFSET_MS).getUTCHours();
}

/**
 * The instant a Tehran wall-clock time happens on a day (YYYY-MM-DD); an Invalid Date when `day` is no date
 * Date.parse reads. Hours past 23 roll into the next day, as Date.UTC does.
 */
export function tehranInstant(day: string, hour = 0, minute = 0, second = 0): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  return new Date(midnightUtc + hour * HOUR_MS + minute * 60_000 + second * 1000 - TEHRAN_OFFSET_MS);
}

/** The instants [from, to) of a Tehran day given as its Gregorian date (YYYY-MM-DD); throws on anything else. */
export function tehranDayWindow(day: string): { from: Date; to: Date } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
    throw new Error(`not a date: ${day}`);
  }
  const from = tehranInstant(day);
  return { from, to: new Date(from.getTime() + DAY_MS) };
}

/** The day (YYYY-MM-DD) `days` after (before, when negative) a day. */
export function addTehranDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The next moment strictly after `now` that is hour:minute in Tehran (today's, or else tomorrow's). */
export function nextTehranTime(now: Date, hour: number, minute = 0): Date {
  const today = tehranInstant(tehranDayOf(now), hour, minute);
  return today.getTime() > now.getTime() ? today : tehranInstant(addTehranDays(tehranDayOf(now), 1), hour, minute);
}
