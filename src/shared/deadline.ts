/**
 * A request's deadline (decision 033): the one top-level date field a form type marks `"x-deadline": true` (registration
 * closes, an appointment's date). A form gives a day, not a time, and the day is the customer's until it ends (issue
 * 44): the server stores the last second of that day in Tehran (23:59:59), the customer sees a countdown to it, the
 * staff queue is ordered by it, and a request is "at risk" when less than the `deadlineAtRiskHours` system parameter
 * is left before it. The form engine sends dates as ISO Gregorian `YYYY-MM-DD`.
 */
import { toPersianDigits } from './digits';
import { DAY_MS, tehranInstant } from './calendar/tehran-day';

type Node = Record<string, unknown>;

/** The name of the form's deadline field (top level, `x-deadline: true`), or null when it has none. */
export function deadlineFieldOf(schema: unknown): string | null {
  const properties = (schema as Node | null)?.properties as Record<string, Node> | undefined;
  if (!properties || typeof properties !== 'object') return null;
  for (const [name, field] of Object.entries(properties)) if (field?.['x-deadline'] === true) return name;
  return null;
}

/** Whether a field may be a deadline: a date (a string of format `date`). */
export function isDateField(field: unknown): boolean {
  const f = field as Node | null;
  return !!f && f.type === 'string' && f.format === 'date';
}

/** The instant a deadline date (`YYYY-MM-DD`) begins in Tehran; null for anything else. */
export function deadlineInstant(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const utc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // Date.UTC rolls 30 February over into March: a day that does not exist is no deadline.
  if (Number.isNaN(utc) || new Date(utc).getUTCDate() !== Number(match[3])) return null;
  return tehranInstant(value);
}

/** The last second (23:59:59 Tehran) of a deadline date (`YYYY-MM-DD`): until then the day is the customer's. */
export function deadlineEnd(value: unknown): Date | null {
  const start = deadlineInstant(value);
  return start && new Date(start.getTime() + DAY_MS - 1000);
}

/** The request's deadline from its validated fields and its form's schema (the end of its day), or null. */
export function deadlineOf(schema: unknown, fields: Record<string, unknown>): Date | null {
  const name = deadlineFieldOf(schema);
  return name === null ? null : deadlineEnd(fields[name]);
}

export const HOUR_MS = 3_600_000;

/** Whether a deadline is at risk at `now`: less than `hours` left (a passed deadline too). */
export function isAtRisk(deadline: Date | string | null, hours: number, now: number = Date.now()): boolean {
  if (deadline === null) return false;
  return new Date(deadline).getTime() - now < hours * HOUR_MS;
}

/**
 * The time left as a person reads it, in Persian digits: «۳ روز و ۴ ساعت», «۵ ساعت و ۱۰ دقیقه», «۲۰ دقیقه»;
 * «گذشته» once the deadline has passed.
 */
export function timeLeftText(ms: number): string {
  if (ms <= 0) return 'گذشته';
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const parts =
    days > 0
      ? [`${days} روز`, hours > 0 ? `${hours} ساعت` : '']
      : hours > 0
        ? [`${hours} ساعت`, mins > 0 ? `${mins} دقیقه` : '']
        : [`${Math.max(mins, 1)} دقیقه`];
  return toPersianDigits(parts.filter(Boolean).join(' و '));
}
