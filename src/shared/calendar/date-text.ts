/**
 * The text of a date field. A person types a date in the chosen calendar, year first (Jalali 1375/6/15,
 * Gregorian 1996-09-05), in Latin, Persian or Arabic-Indic digits, one or two digits for month and day, and
 * between the parts '/', '-' or what a phone's decimal keypad offers ('.', ',' or the Arabic decimal
 * separator '٫'). The field stores the Gregorian day and shows it back in a canonical text: Jalali
 * 'YYYY/MM/DD', Gregorian 'YYYY-MM-DD', Latin digits.
 */
import { toEnglishDigits } from '../digits';
import { type CalendarKind, formatDate } from './index';
import { isoOfParts, yearBounds } from './month-grid';

const SEP = '[-/.,\u066B]';
const FULL = new RegExp(`^(\\d{4})${SEP}(\\d{1,2})${SEP}(\\d{1,2})$`);
const PARTIAL = new RegExp(`^(\\d{0,4})(?:(${SEP})(\\d{0,2})(?:(${SEP})(\\d{0,2}))?)?$`);

/** The Gregorian 'YYYY-MM-DD' a typed text means in the calendar, or null when it is not a whole valid date. */
export function parseDateText(text: string, calendar: CalendarKind): string | null {
  const match = FULL.exec(toEnglishDigits(text.trim()));
  if (!match) return null;
  try {
    return isoOfParts({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }, calendar);
  } catch {
    return null;
  }
}

/** The canonical text of a Gregorian day in the calendar; '' when it is not a valid date there. */
export function formatDateText(iso: string, calendar: CalendarKind): string {
  return formatDate(iso, calendar === 'fa' ? 'slashDate' : 'date', calendar);
}

/**
 * Whether the text is a date or could still become one as more is typed at its end ('1375/0' yes,
 * '1375/13' or '1375/06/32' no). A field uses it to hold back 'the date is not valid' while it is typed.
 */
export function isDateTextPrefix(text: string, calendar: CalendarKind): boolean {
  const value = toEnglishDigits(text.trim());
  if (parseDateText(value, calendar)) return true;
  const match = PARTIAL.exec(value);
  if (!match) return false;
  const [, year = '', sep1, month = '', sep2, day = ''] = match;
  if (year.length === 4) {
    const bounds = yearBounds(calendar);
    if (Number(year) < bounds.min || Number(year) > bounds.max) return false;
  } else if (sep1 !== undefined) return false;
  if (month.length === 2 && (Number(month) < 1 || Number(month) > 12)) return false;
  if (sep2 !== undefined && (month === '' || Number(month) < 1)) return false;
  // A day of two digits, or one that no second digit can follow (4 to 9), is complete and was not valid above.
  return day.length < 2 && !(day.length === 1 && Number(day) > 3);
}
