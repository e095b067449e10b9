/**
 * Jalali ('fa', week from Saturday) and Gregorian ('en') dates over dayjs + jalaliday.
 * Conversions take and give strings: Jalali 'YYYY/MM/DD', Gregorian 'YYYY-MM-DD'.
 *
 * jalaliday 3.1.1 converts Jalali -> Gregorian with the break table of jalaali-js (correct), but
 * Gregorian -> Jalali with a different, arithmetic routine that is one day ahead from 1 January to
 * 29 February of every Gregorian leap year (2024-01-01 gives 1402/10/12 instead of 1402/10/11) and
 * disagrees with the table in other years. So only the table direction (parsing with `{ jalali: true }`)
 * is used here: a Jalali year is located by its Nowruz, and Gregorian -> Jalali is the inverse of that.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/fa';
import jalaliday from 'jalaliday/dayjs';
import { toEnglishDigits } from '../digits';

dayjs.extend(jalaliday);

/** Tehran is UTC+03:30 all year: Iran has kept no daylight saving time since 2022. */
export const TEHRAN_OFFSET_MS = 210 * 60_000;

export type CalendarKind = 'fa' | 'en';
export type DateFormatName = 'date' | 'slashDate' | 'weekdayDate' | 'dateTime';

/**
 * Supported Jalali years. jalaliday's break table covers -61..3177, but its parser wants a four-digit
 * year and a year's length needs the next Nowruz, so 1000..3176 (Gregorian 1621..3798).
 */
export const JALALI_MIN_YEAR = 1000;
export const JALALI_MAX_YEAR = 3176;

const DAY_MS = 86_400_000;

export interface JalaliParts {
  year: number;
  month: number; // 1-based
  day: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function assertJalaliYear(year: number): void {
  if (!Number.isInteger(year) || year < JALALI_MIN_YEAR || year > JALALI_MAX_YEAR) {
    throw new Error('Invalid Jalali year');
  }
}

/** Days since 1970-01-01 of a Gregorian date (month 1-based). */
function gregorianDayNumber(year: number, month: number, day: number): number {
  return Math.round(Date.UTC(year, month - 1, day) / DAY_MS);
}

const nowruzCache = new Map<number, number>();

/** Day number of 1 Farvardin of a Jalali year, by jalaliday's break table (year unchecked, 0..3177). */
function nowruz(year: number): number {
  let day = nowruzCache.get(year);
  if (day === undefined) {
    const g = dayjs(`${pad(year, 4)}/01/01`, { jalali: true }).calendar('gregory');
    day = gregorianDayNumber(g.year(), g.month() + 1, g.date());
    nowruzCache.set(year, day);
  }
  return day;
}

export function isJalaliLeapYear(year: number): boolean {
  assertJalaliYear(year);
  return nowruz(year + 1) - nowruz(year) === 366;
}

/** Days in a Jalali month (1-based); 0 for a month outside 1..12. */
export function jalaliMonthLength(year: number, month: number): number {
  if (!Number.isInteger(month) || month < 1 || month > 12) return 0;
  if (month <= 6) return 31;
  if (month <= 11) return 30;
  return isJalaliLeapYear(year) ? 30 : 29;
}

const JALALI_PATTERN = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/;

/** Parses 'YYYY/M/D' (any digit script, no range checks) into numbers, or null when malformed. */
export function parseJalali(s: string): JalaliParts | null {
  const match = JALALI_PATTERN.exec(toEnglishDigits(String(s).trim()));
  if (!match) return null;
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

/** Jalali date of a Gregorian one (month 1-based); throws 'Invalid Jalali year' outside the supported years. */
function gregorianToJalaliParts(gy: number, gm: number, gd: number): JalaliParts {
  let year = gy - 621;
  if (!Number.isInteger(year) || year < JALALI_MIN_YEAR || year > JALALI_MAX_YEAR + 1) {
    throw new Error('Invalid Jalali year');
  }
  const day = gregorianDayNumber(gy, gm, gd);
  if (day < nowruz(year)) year -= 1;
  assertJalaliYear(year);
  const offset = day - nowruz(year);
  return offset < 186
    ? { year, month: Math.floor(offset / 31) + 1, day: (offset % 31) + 1 }
    : { year, month: Math.floor((offset - 186) / 30) + 7, day: ((offset - 186) % 30) + 1 };
}

function isGregorianDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= (lengths[month - 1] ?? 0);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;

/** A Gregorian calendar day (month 1-based), its weekday (0 = Sunday) and time of day 'HH:mm'. */
interface GregorianMoment {
  year: number;
  month: number;
  day: number;
  weekday: number;
  time: string;
}

/**
 * Reads a Date, epoch milliseconds or an ISO string. A bare 'YYYY-MM-DD' is that calendar day as written;
 * other values are instants, read in local time. Null when invalid (including days like 2025-02-30).
 */
function toMoment(value: Date | string | number): GregorianMoment | null {
  if (typeof value === 'string') {
    const s = toEnglishDigits(value.trim());
    const match = ISO_DATE.exec(s);
    if (!match) return null;
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (!isGregorianDate(year, month, day)) return null;
    if (s.length === 10) {
      const weekday = (((gregorianDayNumber(year, month, day) + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
      return { year, month, day, weekday, time: '00:00' };
    }
    value = s;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  // The Date's own local fields, as dayjs would read them: a date-time without an offset is local time, one with an
  // offset or Z that instant. No dayjs here, since a table of dates calls this for every cell while the page starts.
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  return {
    year: d.getFullYear(),
    month: d.getMonth() + 1,
    day: d.getDate(),
    weekday: d.getDay(),
    time: `${pad(d.getHours())}:${pad(d.getMinutes())}`,
  };
}

export function jalaliToGregorian(jalali: string): string {
  const parts = parseJalali(jalali);
  if (!parts) throw new Error('Invalid date');
  assertJalaliYear(parts.year);
  const { year, month, day } = parts;
  if (day < 1 || day > jalaliMonthLength(year, month)) throw new Error('Invalid date');
  const offset = month <= 7 ? (month - 1) * 31 : 186 + (month - 7) * 30;
  return new Date((nowruz(year) + offset + day - 1) * DAY_MS).toISOString().slice(0, 10);
}

/** 'YYYY/MM/DD' of an ISO date, an ISO date-time or a Date (the day in local time). */
export function gregorianToJalali(value: string | Date): string {
  const g = toMoment(value);
  if (!g) throw new Error('Invalid date');
  const j = gregorianToJalaliParts(g.year, g.month, g.day);
  return `${pad(j.year, 4)}/${pad(j.month)}/${pad(j.day)}`;
}

export function currentJalaliYear(now: Date = new Date()): number {
  return gregorianToJalaliParts(now.getFullYear(), now.getMonth() + 1, now.getDate()).year;
}

interface DateParts {
  year: number;
  month: number;
  day: number;
  weekday: string;
  time: string;
}

const LAYOUTS: Record<DateFormatName, (p: DateParts) => string> = {
  date: (p) => `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`,
  slashDate: (p) => `${pad(p.year, 4)}/${pad(p.month)}/${pad(p.day)}`,
  weekdayDate: (p) => `${p.weekday} ${LAYOUTS.slashDate(p)}`,
  dateTime: (p) => `${LAYOUTS.slashDate(p)} ${p.time}`,
};

/** Sunday-first weekday names of a dayjs locale (fa has the ZWNJ spellings یک‌شنبه, پنج‌شنبه). */
const weekdaysOf = (locale: string): readonly string[] =>
  Array.from({ length: 7 }, (_, i) =>
    dayjs(new Date(2023, 0, 1 + i))
      .locale(locale)
      .format('dddd'),
  );

const weekdayNamesFound: Partial<Record<CalendarKind, readonly string[]>> = {};
/** Found on first use, not at load: a page that shows no weekday does not run dayjs's locales while it starts. */
const weekdaysIn = (calendar: CalendarKind): readonly string[] =>
  (weekdayNamesFound[calendar] ??= weekdaysOf(calendar));

/**
 * Formats a date as YYYY-MM-DD, YYYY/MM/DD, 'dddd YYYY/MM/DD' or 'YYYY/MM/DD HH:mm' in the Jalali ('fa',
 * Persian weekday) or Gregorian ('en') calendar, with ASCII digits; '' when the value is not a valid date.
 */
export function formatDate(value: Date | string | number, format: DateFormatName, calendar: CalendarKind): string {
  const g = toMoment(value);
  if (!g) return '';
  const common = { weekday: format === 'weekdayDate' ? (weekdaysIn(calendar)[g.weekday] ?? '') : '', time: g.time };
  if (calendar === 'en') return LAYOUTS[format]({ year: g.year, month: g.month, day: g.day, ...common });
  try {
    return LAYOUTS[format]({ ...gregorianToJalaliParts(g.year, g.month, g.day), ...common });
  } catch {
    return '';
  }
}

export function weekStartsOn(calendar: CalendarKind): 0 | 6 {
  return calendar === 'fa' ? 6 : 0;
}

/** Weekday names from the calendar's first day of the week (fa: شنبه … جمعه; en: Sunday … Saturday). */
export function weekdayNames(calendar: CalendarKind): string[] {
  const names = weekdaysIn(calendar);
  const start = weekStartsOn(calendar);
  return [...names.slice(start), ...names.slice(0, start)];
}
