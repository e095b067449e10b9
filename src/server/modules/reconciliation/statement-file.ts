/**
 * Reading an uploaded statement file into lines by its mapping: CSV through csv-parse, xlsx through
 * read-excel-file (never the xlsx package, which only writes our exports: decision 026). The first non-empty row is
 * the header; each mapped column is found by any of its header names. Every line is checked before anything is
 * stored: a missing column names the column, bad lines are named by their line number in the file. A payout report's
 * line (source payout) is one transfer of a gateway's takings into our bank: its reference, amount, when it was paid
 * and the Tehran days whose takings it covers (coversFrom, coversTo or the same day), never a day after it was paid.
 */
import { parse } from 'csv-parse/sync';
import { jalaliToGregorian } from '../../../shared/calendar';
import { addTehranDays, tehranDayOf, tehranInstant as wallClockInstant } from '../../../shared/calendar/tehran-day';
import { toEnglishDigits } from '../../../shared/digits';
import { canonicalTrackingCode } from '../../../shared/tracking-code';
import type { StatementMapping } from './statement-mappings';
import { readSheetOffLoop } from './read-sheet-off-loop';
import { zipWithinLimits } from './zip-limits';

export interface StatementLine {
  lineNo: number;
  reference: string;
  referenceCanonical: string;
  amount: number;
  direction: 'in' | 'out' | null;
  cardNo: string | null;
  settledAt: Date;
  description: string | null;
  /** A payout report's line: the first and last Tehran day (YYYY-MM-DD) whose takings it pays. */
  covers: { from: string; to: string } | null;
}

/** The longest span of days one payout may cover. */
export const MAX_PAYOUT_DAYS = 31;

export type ReadOutcome =
  | { ok: true; lines: StatementLine[]; skipped: number }
  | { ok: false; problem: 'unreadable' | 'empty' }
  | { ok: false; problem: 'missingColumn'; column: string }
  | { ok: false; problem: 'badLines'; lines: Array<{ line: number; column: string }> };

type Cell = string | number | boolean | Date | null;
type ColumnName = keyof StatementMapping['columns'];

const isXlsx = (bytes: Buffer) => bytes.length > 4 && bytes.readUInt32BE(0) === 0x504b0304; // a zip: "PK\3\4"

async function rowsOf(bytes: Buffer): Promise<Cell[][] | null> {
  if (isXlsx(bytes)) {
    // Refused from its declared sizes before a byte is inflated: a zip bomb must not hold the event loop (decision 031).
    if (!zipWithinLimits(bytes)) return null;
    // Then inflated and parsed on a worker thread with its own limits, in case the sizes it declares are lies.
    return readSheetOffLoop<Cell>(bytes);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  if (text.includes('\u0000')) return null;
  try {
    return parse(text, {
      bom: true,
      delimiter: [',', ';', '\t'],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
    }) as string[][];
  } catch {
    return null;
  }
}

/** Header text as compared: digits Latin, Arabic yeh and kaf Persian, case, spacing and half-spaces folded. */
const fold = (s: string) =>
  toEnglishDigits(s.normalize('NFKC'))
    .replace(/ي/g, 'ی')
    .replace(/ك/g, 'ک')
    .replace(/[\s\u200c\u200f\u200e]+/g, ' ')
    .trim()
    .toLowerCase();

const text = (cell: Cell | undefined): string =>
  cell === null || cell === undefined ? '' : cell instanceof Date ? cell.toISOString() : String(cell).trim();

const isBlank = (row: Cell[]) => row.every((c) => text(c) === '');

/** An amount cell: digits in any script, thousands separators allowed; null when not a whole number. */
function amountOf(cell: Cell | undefined, unit: StatementMapping['amountUnit']): number | null {
  if (typeof cell === 'number')
    return Number.isSafeInteger(cell) && cell >= 0 ? cell * (unit === 'toman' ? 10 : 1) : null;
  const s = toEnglishDigits(text(cell)).replace(/[,\u066c\u060c\s]/g, '');
  if (s === '') return 0;
  if (!/^\d{1,16}$/.test(s)) return null;
  const n = Number(s) * (unit === 'toman' ? 10 : 1);
  return Number.isSafeInteger(n) ? n : null;
}

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** Tehran wall-clock date (Gregorian YYYY-MM-DD) and time to the instant. */
function tehranInstant(gregorian: string, time: string): Date | null {
  const t = TIME.exec(time || '00:00');
  if (!t || Number(t[1]) > 23 || Number(t[2]) > 59 || Number(t[3] ?? 0) > 59) return null;
  const at = wallClockInstant(gregorian, Number(t[1]), Number(t[2]), Number(t[3] ?? 0));
  return Number.isNaN(at.getTime()) ? null : at;
}

/** A spreadsheet's time cell: a string, or a Date whose UTC time of day is the wall-clock time written. */
const timeText = (cell: Cell | undefined) =>
  cell instanceof Date ? cell.toISOString().slice(11, 19) : toEnglishDigits(text(cell));

function instantOf(dateCell: Cell | undefined, timeCell: Cell | undefined, format: StatementMapping['dateFormat']) {
  // A spreadsheet's own date cell carries the wall-clock date and time written in it, as UTC fields.
  if (dateCell instanceof Date) {
    const iso = dateCell.toISOString();
    const time = timeCell === undefined ? iso.slice(11, 19) : timeText(timeCell);
    return tehranInstant(iso.slice(0, 10), time);
  }
  const s = toEnglishDigits(text(dateCell)).replace(/\s+/g, ' ');
  if (format === 'iso') {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s)) return null;
    const at = Date.parse(s);
    return Number.isNaN(at) ? null : new Date(at);
  }
  const [datePart = '', timePart] = s.split(' ');
  const time = timeCell === undefined ? (timePart ?? '') : timeText(timeCell);
  if (format === 'gregorian') {
    const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(datePart);
    if (!m) return null;
    const day = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
    const check = new Date(`${day}T00:00:00Z`);
    return Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== day ? null : tehranInstant(day, time);
  }
  try {
    return tehranInstant(jalaliToGregorian(datePart.replace(/-/g, '/')), time);
  } catch {
    return null;
  }
}

/** Reads `bytes` (CSV in UTF-8, or xlsx's first sheet) as a statement of `mapping`'s kind. */
export async function readStatement(bytes: Buffer, mapping: StatementMapping): Promise<ReadOutcome> {
  const rows = await rowsOf(bytes);
  if (!rows) return { ok: false, problem: 'unreadable' };
  const headerIndex = rows.findIndex((r) => !isBlank(r));
  if (headerIndex < 0 || rows.slice(headerIndex + 1).every(isBlank)) return { ok: false, problem: 'empty' };
  const header = rows[headerIndex]!.map((c) => fold(text(c)));

  const at = new Map<ColumnName, number>();
  for (const [name, column] of Object.entries(mapping.columns) as Array<
    [ColumnName, NonNullable<StatementMapping['columns'][ColumnName]>]
  >) {
    const wanted = new Set(column.headers.map(fold));
    const index = header.findIndex((h) => wanted.has(h));
    if (index >= 0) at.set(name, index);
    else if (!column.optional) return { ok: false, problem: 'missingColumn', column: column.title };
  }
  const title = (name: ColumnName) => mapping.columns[name]!.title;
  const cell = (row: Cell[], name: ColumnName) => (at.has(name) ? (row[at.get(name)!] ?? null) : undefined);
  const settledStatuses = new Set((mapping.settledStatuses ?? []).map(fold));

  const lines: StatementLine[] = [];
  const bad: Array<{ line: number; column: string }> = [];
  const seen = new Set<string>();
  let skipped = 0;
  rows.forEach((row, index) => {
    if (index <= headerIndex || isBlank(row)) return;
    const lineNo = index + 1;
    if (at.has('status') && settledStatuses.size > 0 && !settledStatuses.has(fold(text(cell(row, 'status'))))) {
      skipped += 1;
      return;
    }
    const reference = toEnglishDigits(text(cell(row, 'reference')));
    const referenceCanonical = canonicalTrackingCode(reference);
    if (referenceCanonical === '' || referenceCanonical.length > 100 || seen.has(referenceCanonical)) {
      bad.push({ line: lineNo, column: title('reference') });
      return;
    }
    seen.add(referenceCanonical);
    let amount: number;
    let direction: 'in' | 'out' | null = null;
    let settledAt: Date | null;
    let covers: StatementLine['covers'] = null;
    if (mapping.source === 'payout') {
      const value = amountOf(cell(row, 'amount'), mapping.amountUnit);
      if (value === null || value <= 0) return void bad.push({ line: lineNo, column: title('amount') });
      amount = value;
      settledAt = instantOf(cell(row, 'paidAt'), undefined, mapping.dateFormat);
      if (!settledAt) return void bad.push({ line: lineNo, column: title('paidAt') });
      const fromAt = instantOf(cell(row, 'coversFrom'), undefined, mapping.dateFormat);
      if (!fromAt) return void bad.push({ line: lineNo, column: title('coversFrom') });
      const toCell = cell(row, 'coversTo');
      const toAt =
        toCell === undefined || text(toCell) === '' ? fromAt : instantOf(toCell, undefined, mapping.dateFormat);
      const from = tehranDayOf(fromAt);
      const to = toAt ? tehranDayOf(toAt) : null;
      // The days paid come before the payout (or are its own day) and span at most MAX_PAYOUT_DAYS.
      if (to === null || to < from || to > tehranDayOf(settledAt) || addTehranDays(from, MAX_PAYOUT_DAYS - 1) < to)
        return void bad.push({ line: lineNo, column: title(mapping.columns.coversTo ? 'coversTo' : 'coversFrom') });
      covers = { from, to };
    } else if (mapping.source === 'gateway') {
      const value = amountOf(cell(row, 'amount'), mapping.amountUnit);
      if (value === null || value <= 0) return void bad.push({ line: lineNo, column: title('amount') });
      amount = value;
      settledAt = instantOf(cell(row, 'settledAt'), undefined, mapping.dateFormat);
      if (!settledAt) return void bad.push({ line: lineNo, column: title('settledAt') });
    } else {
      const credit = amountOf(cell(row, 'amountIn'), mapping.amountUnit);
      const debit = amountOf(cell(row, 'amountOut'), mapping.amountUnit);
      if (credit === null) return void bad.push({ line: lineNo, column: title('amountIn') });
      if (debit === null) return void bad.push({ line: lineNo, column: title('amountOut') });
      // A line moves money one way: exactly one of the two amounts.
      if (credit > 0 === debit > 0)
        return void bad.push({ line: lineNo, column: title(credit > 0 ? 'amountOut' : 'amountIn') });
      amount = credit > 0 ? credit : debit;
      direction = credit > 0 ? 'in' : 'out';
      settledAt = instantOf(cell(row, 'date'), cell(row, 'time'), mapping.dateFormat);
      if (!settledAt) return void bad.push({ line: lineNo, column: title('date') });
    }
    const cardNo = text(cell(row, 'cardNo')).slice(0, 40) || null;
    const description = text(cell(row, 'description')).slice(0, 500) || null;
    lines.push({
      lineNo,
      reference: reference.slice(0, 100),
      referenceCanonical,
      amount,
      direction,
      cardNo,
      settledAt,
      description,
      covers,
    });
  });
  if (bad.length > 0) return { ok: false, problem: 'badLines', lines: bad };
  if (lines.length === 0 && skipped === 0) return { ok: false, problem: 'empty' };
  return { ok: true, lines, skipped };
}
