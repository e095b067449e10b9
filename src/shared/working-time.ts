/**
 * Working time in Tehran (decision 041): the working calendars under `schemas/calendars/` (one per Jalali year, each
 * weekday's hours and the year's official holidays) answer "N working hours after instant T" (`addWorkingHours`,
 * negative N: before T) and "working time between T1 and T2" (`workingMsBetween`). The server prices its promise with
 * them and the web reads the same answers. A day of a year without a calendar keeps the newest calendar's week and
 * has no holidays.
 */
import type { WorkingCalendar } from '../generated/schemas/workingCalendar';
import { gregorianToJalali } from './calendar';
import { addTehranDays, tehranDayOf, tehranInstant } from './calendar/tehran-day';
import { HOUR_MS } from './deadline';

export type { WorkingCalendar };

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** Never look further than this for working time: a calendar without a working day answers null. */
const MAX_DAYS = 800;

/** A day's working window in Tehran, or why it has none. */
export interface WorkingDay {
  day: string;
  window: { from: Date; to: Date } | null;
  /** The holiday's title when the day is an official holiday. */
  holiday: string | null;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The working calendars, ready to answer by day. */
export class WorkingTime {
  private readonly byYear = new Map<number, WorkingCalendar>();
  private readonly holidays = new Map<string, string>();
  private readonly newest: WorkingCalendar | undefined;

  constructor(calendars: readonly WorkingCalendar[]) {
    for (const c of calendars) this.byYear.set(c.jalaliYear, c);
    for (const c of calendars) for (const h of c.holidays) this.holidays.set(h.date, h.title);
    this.newest = [...calendars].sort((a, b) => b.jalaliYear - a.jalaliYear)[0];
  }

  /** The working window of a Tehran day (`YYYY-MM-DD`), or null with the holiday that closes it. */
  day(day: string): WorkingDay {
    const holiday = this.holidays.get(day) ?? null;
    const year = Number(gregorianToJalali(day).slice(0, 4));
    const calendar = this.byYear.get(year) ?? this.newest;
    const weekday = WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()]!;
    const hours = calendar?.week[weekday] ?? null;
    if (holiday !== null || !hours || minutesOf(hours.to) <= minutesOf(hours.from))
      return { day, window: null, holiday };
    const from = minutesOf(hours.from);
    const to = minutesOf(hours.to);
    return {
      day,
      window: {
        from: tehranInstant(day, Math.floor(from / 60), from % 60),
        to: tehranInstant(day, Math.floor(to / 60), to % 60),
      },
      holiday: null,
    };
  }

  /**
   * The instant `hours` working hours after `at` (before it when negative): the clock runs only inside working
   * windows. Null when no working time is found within MAX_DAYS.
   */
  addWorkingHours(at: Date, hours: number): Date | null {
    let left = Math.round(Math.abs(hours) * HOUR_MS);
    const forward = hours >= 0;
    let day = tehranDayOf(at);
    for (let i = 0; i < MAX_DAYS; i++, day = addTehranDays(day, forward ? 1 : -1)) {
      const { window } = this.day(day);
      if (!window) continue;
      const from = forward ? Math.max(window.from.getTime(), at.getTime()) : window.from.getTime();
      const to = forward ? window.to.getTime() : Math.min(window.to.getTime(), at.getTime());
      if (to <= from) continue;
      if (left === 0) return new Date(forward ? from : to);
      if (to - from >= left) return new Date(forward ? from + left : to - left);
      left -= to - from;
    }
    return null;
  }

  /** Working time (ms) between two instants; negative when `to` is before `from`. */
  workingMsBetween(from: Date, to: Date): number {
    if (to < from) return -this.workingMsBetween(to, from);
    let total = 0;
    const last = tehranDayOf(to);
    for (let day = tehranDayOf(from), i = 0; i < MAX_DAYS * 2; day = addTehranDays(day, 1), i++) {
      const { window } = this.day(day);
      if (window) {
        const start = Math.max(window.from.getTime(), from.getTime());
        const end = Math.min(window.to.getTime(), to.getTime());
        if (end > start) total += end - start;
      }
      if (day === last) break;
    }
    return total;
  }

  /**
   * The close of the `n`th working day before `day` (n ≥ 1), or of the last working day on or before it (n = 0):
   * when work promised "n working days before" a date must be done.
   */
  closeOfWorkingDaysBefore(day: string, n: number): Date | null {
    let found = 0;
    let current = n === 0 ? day : addTehranDays(day, -1);
    for (let i = 0; i < MAX_DAYS; i++, current = addTehranDays(current, -1)) {
      const { window } = this.day(current);
      if (!window) continue;
      found++;
      if (found >= Math.max(n, 1)) return window.to;
    }
    return null;
  }

  /** The official holidays from the day of `from` to the day of `to`, in order. */
  holidaysBetween(from: Date, to: Date): Array<{ day: string; title: string }> {
    const out: Array<{ day: string; title: string }> = [];
    const last = tehranDayOf(to);
    for (let day = tehranDayOf(from), i = 0; day <= last && i < MAX_DAYS; day = addTehranDays(day, 1), i++) {
      const title = this.holidays.get(day);
      if (title) out.push({ day, title });
    }
    return out;
  }
}
