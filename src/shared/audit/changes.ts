/**
 * A recorded change as a person reads it (docs/operations.md, the audit trail): one line per field that changed, «field: before ←
 * after» with Persian names, Persian digits, dates in the chosen calendar, yes/no for booleans and Persian names of
 * states; a long nested value (a catalogue document) is summarised rather than dumped as JSON.
 */
import type { CalendarKind } from '../calendar';
import { toPersianDigits } from '../digits';
import { formatNumber } from '../format';
import { displayDate } from '../format/dates';
import { AUDIT_VALUE_NAMES, auditFieldName } from './names';

export interface AuditChange {
  field: string;
  /** The field's Persian name (its key when it has none). */
  title: string;
  before: string | null;
  after: string | null;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** One recorded value in Persian; null when nothing was recorded. */
export function auditValueText(value: unknown, calendar: CalendarKind): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 'بله' : 'خیر';
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'string') {
    // A calendar day stored as midnight UTC (a birth date) is a day, not an instant.
    if (value.endsWith('T00:00:00.000Z')) return displayDate(`${value.slice(0, 10)}T12:00:00Z`, 'slashDate', calendar);
    if (ISO_INSTANT.test(value)) return displayDate(value, 'dateTime', calendar) || value;
    if (ISO_DAY.test(value)) return displayDate(`${value}T12:00:00Z`, 'slashDate', calendar) || value;
    // A code or address with Latin letters stays as written; a number written as text takes Persian digits.
    return AUDIT_VALUE_NAMES[value] ?? (/[A-Za-z]/.test(value) ? value : toPersianDigits(value));
  }
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== 'object' || v === null))
      return value.map((v) => auditValueText(v, calendar) ?? '—').join('، ');
    return `${toPersianDigits(value.length)} مورد`;
  }
  const keys = Object.keys(value as object);
  if (keys.length > 4) return `سند با ${toPersianDigits(keys.length)} بخش`;
  return keys
    .map((k) => `${auditFieldName(k)}: ${auditValueText((value as Record<string, unknown>)[k], calendar) ?? '—'}`)
    .join('، ');
}

/** A recorded value (JSON text or already parsed) as an object of fields; a lone value is the field «مقدار». */
function asFields(recorded: unknown): Record<string, unknown> {
  let value = recorded;
  if (typeof recorded === 'string') {
    try {
      value = JSON.parse(recorded);
    } catch {
      value = recorded;
    }
  }
  if (value === null || value === undefined) return {};
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  return { value };
}

/** The fields that differ between before and after (every field of a new record, every field of a removed one). */
export function auditChanges(before: unknown, after: unknown, calendar: CalendarKind): AuditChange[] {
  const was = asFields(before);
  const now = asFields(after);
  const fields = [...new Set([...Object.keys(was), ...Object.keys(now)])];
  return fields
    .filter((field) => JSON.stringify(was[field]) !== JSON.stringify(now[field]))
    .map((field) => ({
      field,
      title: auditFieldName(field),
      before: auditValueText(was[field], calendar),
      after: auditValueText(now[field], calendar),
    }));
}
