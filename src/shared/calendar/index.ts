/**
 * Jalali ('fa', week from Saturday) and Gregorian ('en') dates over dayjs + jalaliday.
 * Conversions take and give strings: Jalali 'YYYY/MM/DD', Gregorian 'YYYY-MM-DD'.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/fa';
import jalaliday from 'jalaliday/dayjs';
import { toEnglishDigits } from '../digits';

dayjs.extend(jalaliday);

export type CalendarKind = 'fa' | 'en';
export type DateFormatName = 'date' | 'slashDate' | 'weekdayDate' | 'dateTime';

const PATTERNS: Record<DateFormatName, string> = {
  date: 'YYYY-MM-DD',
  slashDate: 'YYYY/MM/DD',
  weekdayDate: 'dddd YYYY/MM/DD',
  dateTime: 'YYYY/MM/DD HH:mm',
};

/** Years jalaliday's break table covers; outside it the calendar is undefined. */
export const JALALI_MIN_YEAR = -61;
export const JALALI_MAX_YEAR = 3177;

function inCalendar(value: dayjs.Dayjs, calendar: CalendarKind): dayjs.Dayjs {
  return calendar === 'fa' ? value.calendar('jalali').locale('fa') : value.calendar('gregory').locale('en');
}

export function formatDate(value: Date | string | number, format: DateFormatName, calendar: CalendarKind): string {
  const d = dayjs(value);
  if (!d.isValid()) return '';
  return inCalendar(d, calendar).format(PATTERNS[format]);
}

function assertJalaliYear(year: number): void {
  if (!Number.isInteger(year) || year < JALALI_MIN_YEAR || year > JALALI_MAX_YEAR) {
    throw new Error('Invalid Jalali year');
  }
}

const JALALI_PATTERN = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/;

/** Parses 'YYYY/MM/DD' (any digits) into numbers, or null when malformed. */
export function parseJalali(s: string): { year: number; month: number; day: number } | null {
  const match = JALALI_PATTERN.exec(toEnglishDigits(s.trim()));
  if (!match) return null;
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

export function isJalaliLeapYear(year: number): boolean {
  assertJalaliYear(year);
  // Esfand 30 exists exactly in leap years; jalaliday rolls a missing day over into Farvardin.
  return dayjs(`${year}/12/30`, { jalali: true }).calendar('jalali').month() === 11;
}

export function jalaliMonthLength(year: number, month: number): number {
  if (month < 1 || month > 12) return 0;
  if (month <= 6) return 31;
  if (month <= 11) return 30;
  return isJalaliLeapYear(year) ? 30 : 29;
}

export function jalaliToGregorian(jalali: string): string {
  const parts = parseJalali(jalali);
  if (!parts) throw new Error('Invalid date');
  assertJalaliYear(parts.year);
  if (parts.day < 1 || parts.day > jalaliMonthLength(parts.year, parts.month)) throw new Error('Invalid date');
  return dayjs(`${parts.year}/${parts.month}/${parts.day}`, { jalali: true }).calendar('gregory').format('YYYY-MM-DD');
}

export function gregorianToJalali(value: string | Date): string {
  const d = dayjs(value);
  if (!d.isValid()) throw new Error('Invalid date');
  const jalali = d.calendar('jalali');
  assertJalaliYear(jalali.year());
  return jalali.format('YYYY/MM/DD');
}

export function currentJalaliYear(now: Date = new Date()): number {
  return dayjs(now).calendar('jalali').year();
}

export function weekStartsOn(calendar: CalendarKind): 0 | 6 {
  return calendar === 'fa' ? 6 : 0;
}

const WEEKDAYS: Record<CalendarKind, string[]> = {
  en: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  fa: ['یکشنبه', 'دوشنبه', 'سه‌شنبه', 'چهارشنبه', 'پنجشنبه', 'جمعه', 'شنبه'],
};

/** Weekday names from the calendar's first day of the week. */
export function weekdayNames(calendar: CalendarKind): string[] {
  const names = WEEKDAYS[calendar];
  const start = weekStartsOn(calendar);
  return [...names.slice(start), ...names.slice(0, start)];
}
