/**
 * Dates as a person reads them, in Persian digits: the short layouts of shared/calendar ('۱۴۰۵/۰۹/۰۱ ۱۶:۳۷'),
 * a long one with the month's Persian name where space allows ('۱ آذر ۱۴۰۵', with the time '۱ آذر ۱۴۰۵، ۱۶:۳۷'),
 * and relative times for recent events ('۵ دقیقه پیش'). Both calendars are written in Persian.
 */
import { type CalendarKind, type DateFormatName, formatDate } from '../calendar';
import { MONTH_NAMES } from '../calendar/month-grid';
import { toPersianDigits } from '../digits';

export type DisplayDateFormat = DateFormatName | 'longDate' | 'longDateTime';

/** '' when the value is not a valid date. */
export function displayDate(value: Date | string | number, format: DisplayDateFormat, calendar: CalendarKind): string {
  if (format !== 'longDate' && format !== 'longDateTime') return toPersianDigits(formatDate(value, format, calendar));
  const text = formatDate(value, 'dateTime', calendar); // 'YYYY/MM/DD HH:mm'
  const match = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}:\d{2})$/.exec(text);
  if (!match) return '';
  const [, year, month, day, time] = match;
  const long = `${Number(day)} ${MONTH_NAMES[calendar][Number(month) - 1]} ${Number(year)}`;
  return toPersianDigits(format === 'longDate' ? long : `${long}، ${time}`);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long ago an instant was, for recent events: 'لحظاتی پیش' under a minute, then minutes, hours and days
 * ('۵ دقیقه پیش', '۳ ساعت پیش', 'دیروز', '۴ روز پیش'); null from a week on (or in the future beyond a minute),
 * where the date itself says more.
 */
export function relativeTime(value: Date | string | number, now: number = Date.now()): string | null {
  const at = new Date(value).getTime();
  if (!Number.isFinite(at)) return null;
  const ago = now - at;
  if (ago < -MINUTE || ago >= 7 * DAY) return null;
  if (ago < MINUTE) return 'لحظاتی پیش';
  if (ago < HOUR) return `${toPersianDigits(Math.floor(ago / MINUTE))} دقیقه پیش`;
  if (ago < DAY) return `${toPersianDigits(Math.floor(ago / HOUR))} ساعت پیش`;
  const days = Math.floor(ago / DAY);
  return days === 1 ? 'دیروز' : `${toPersianDigits(days)} روز پیش`;
}
