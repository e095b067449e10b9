/**
 * What a date picker draws: a month of the chosen calendar as weeks of seven days, starting on the
 * calendar's first weekday (Jalali: Saturday, Gregorian: Sunday), with Persian month and weekday names.
 * Days are Gregorian 'YYYY-MM-DD' strings (what the forms store); Jalali days come from the conversions in
 * ./index, never from jalaliday directly.
 */
import {
  type CalendarKind,
  gregorianToJalali,
  JALALI_MAX_YEAR,
  JALALI_MIN_YEAR,
  jalaliMonthLength,
  jalaliToGregorian,
  weekStartsOn,
} from './index';

const DAY_MS = 86_400_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A day in the calendar's own numbering (month 1-based). */
export interface CalendarParts {
  year: number;
  month: number;
  day: number;
}

export interface GridDay extends CalendarParts {
  /** The Gregorian day, 'YYYY-MM-DD'. */
  iso: string;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
}

export const MONTH_NAMES: Record<CalendarKind, readonly string[]> = {
  fa: ['فروردین', 'اردیبهشت', 'خرداد', 'تیر', 'مرداد', 'شهریور', 'مهر', 'آبان', 'آذر', 'دی', 'بهمن', 'اسفند'],
  en: ['ژانویه', 'فوریه', 'مارس', 'آوریل', 'مه', 'ژوئن', 'ژوئیه', 'اوت', 'سپتامبر', 'اکتبر', 'نوامبر', 'دسامبر'],
};

/** Persian weekday names from Sunday, as index.ts spells them (یک‌شنبه with a ZWNJ). */
const PERSIAN_WEEKDAYS = ['یک‌شنبه', 'دوشنبه', 'سه‌شنبه', 'چهارشنبه', 'پنج‌شنبه', 'جمعه', 'شنبه'];

/** Persian weekday names in the calendar's week order (both calendars are shown in Persian). */
export function persianWeekdayNames(calendar: CalendarKind): string[] {
  const start = weekStartsOn(calendar);
  return [...PERSIAN_WEEKDAYS.slice(start), ...PERSIAN_WEEKDAYS.slice(0, start)];
}

/** One-letter column heads: ش ی د س چ پ ج for Jalali. */
export function weekdayInitials(calendar: CalendarKind): string[] {
  return persianWeekdayNames(calendar).map((name) => name.charAt(0));
}

/** The years a calendar can show: Jalali is bounded by its conversion table. */
export function yearBounds(calendar: CalendarKind): { min: number; max: number } {
  return calendar === 'fa' ? { min: JALALI_MIN_YEAR, max: JALALI_MAX_YEAR } : { min: 1, max: 9999 };
}

const dayNumber = (iso: string) => Math.round(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
const isoOfDayNumber = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

function gregorianMonthLength(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function monthLength(year: number, month: number, calendar: CalendarKind): number {
  if (!Number.isInteger(month) || month < 1 || month > 12) return 0;
  return calendar === 'fa' ? jalaliMonthLength(year, month) : gregorianMonthLength(year, month);
}

/** The Gregorian 'YYYY-MM-DD' of a day given in the calendar's numbering; throws on a day that does not exist. */
export function isoOfParts({ year, month, day }: CalendarParts, calendar: CalendarKind): string {
  if (calendar === 'fa') return jalaliToGregorian(`${pad(year, 4)}/${pad(month)}/${pad(day)}`);
  if (!Number.isInteger(year) || year < 1 || year > 9999 || day < 1 || day > monthLength(year, month, 'en')) {
    throw new Error('Invalid date');
  }
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** A Gregorian 'YYYY-MM-DD' in the calendar's numbering; throws on an invalid date. */
export function partsOfIso(iso: string, calendar: CalendarKind): CalendarParts {
  const match = /^(\d{4})[/-](\d{2})[/-](\d{2})$/.exec(calendar === 'fa' ? gregorianToJalali(iso) : iso);
  if (!match) throw new Error('Invalid date');
  const parts = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  isoOfParts(parts, calendar); // throws on a Gregorian day that does not exist (2025-02-30)
  return parts;
}

/** The Gregorian day `days` after (or before, when negative) a Gregorian day. */
export function addDays(iso: string, days: number): string {
  return isoOfDayNumber(dayNumber(iso) + days);
}

/** The same day `months` later in the calendar, on the month's last day when it is shorter (31 Shahrivar -> 30 Mehr). */
export function addMonths(parts: CalendarParts, months: number, calendar: CalendarKind): CalendarParts {
  const index = parts.year * 12 + (parts.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(parts.day, monthLength(year, month, calendar)) };
}

/** Today's local date as 'YYYY-MM-DD'. */
export function todayIso(now: Date = new Date()): string {
  return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The weeks of a month: rows of seven cells from the calendar's first weekday, null before the first and
 * after the last day of the month.
 */
export function monthGrid(year: number, month: number, calendar: CalendarKind): Array<Array<GridDay | null>> {
  const first = isoOfParts({ year, month, day: 1 }, calendar);
  const firstNumber = dayNumber(first);
  const firstWeekday = (((firstNumber + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
  const lead = (firstWeekday - weekStartsOn(calendar) + 7) % 7;
  const length = monthLength(year, month, calendar);
  const cells: Array<GridDay | null> = Array.from({ length: lead }, () => null);
  for (let day = 1; day <= length; day++) {
    cells.push({
      year,
      month,
      day,
      iso: isoOfDayNumber(firstNumber + day - 1),
      weekday: (firstWeekday + day - 1) % 7,
    });
  }
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
}
