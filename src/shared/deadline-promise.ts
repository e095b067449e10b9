/**
 * The promise at the quote (decision 041): for a desk that declares its lead time (`promise` in the catalogue) and a
 * request's deadline day, until when the customer must pay (`payBy`) for the work to be done before `doneBy`, or why
 * it cannot be promised. `doneBy` is the close of the desk's `workingDaysBefore`-th working day before the deadline
 * day; `payBy` is `fulfilmentHours` working hours before that. Paid by `payBy`, a request is promised `doneBy`.
 */
import type { Desk } from '../generated/schemas/desk';
import { displayDate } from './format/dates';
import { tehranDayOf, tehranTimeOf } from './calendar/tehran-day';
import { deadlineInstant } from './deadline';
import { toPersianDigits } from './digits';
import { formatRial } from './format';
import type { WorkingTime } from './working-time';

export type PromiseRule = NonNullable<Desk['promise']>;

export interface DeadlinePromise {
  /** True when paying now (by `payBy`) makes the promise. */
  canMeet: boolean;
  /** The deadline day (`YYYY-MM-DD`). */
  deadline: string;
  /** The last instant a payment keeps the promise; null when the calendar has no working time for it. */
  payBy: string | null;
  /** The instant the work is promised to be done by. */
  doneBy: string | null;
  /** What the customer reads, in Persian. */
  text: string;
}

/** An instant as a person reads it in Tehran: «۱۲ آذر ۱۴۰۵، ساعت ۱۷:۰۰». */
export function tehranMomentText(at: Date | string): string {
  const instant = new Date(at);
  return `${displayDate(tehranDayOf(instant), 'longDate', 'fa')}، ساعت ${toPersianDigits(tehranTimeOf(instant))}`;
}

/** The desk's promise for a deadline day at `now`; null when `deadline` is not a day. */
export function promiseFor(time: WorkingTime, rule: PromiseRule, deadline: string, now: Date): DeadlinePromise | null {
  if (!deadlineInstant(deadline)) return null;
  const doneBy = time.closeOfWorkingDaysBefore(deadline, rule.workingDaysBefore);
  const payBy = doneBy && time.addWorkingHours(doneBy, -rule.fulfilmentHours);
  const base = { deadline, payBy: payBy?.toISOString() ?? null, doneBy: doneBy?.toISOString() ?? null };
  if (doneBy && payBy && now.getTime() <= payBy.getTime()) {
    return {
      ...base,
      canMeet: true,
      text: `اگر تا ${tehranMomentText(payBy)} پرداخت کنید، پیش از ${tehranMomentText(doneBy)} انجام می‌شود.`,
    };
  }
  const why = rule.reason ? `${rule.reason}؛ ` : '';
  const need =
    rule.workingDaysBefore > 0
      ? `کار باید ${toPersianDigits(rule.workingDaysBefore)} روز کاری پیش از موعد انجام شود`
      : 'کار باید پیش از موعد انجام شود';
  const until = doneBy ? `، یعنی تا ${tehranMomentText(doneBy)}` : '';
  const hours = `و انجام آن ${toPersianDigits(rule.fulfilmentHours)} ساعت کاری پس از پرداخت زمان می‌برد`;
  const holidays = time.holidaysBetween(now, deadlineInstant(deadline)!);
  const closed =
    holidays.length > 0
      ? ` تعطیلات رسمی این فاصله: ${holidays.map((h) => `${h.title} (${displayDate(h.day, 'longDate', 'fa')})`).join('، ')}.`
      : '';
  return {
    ...base,
    canMeet: false,
    text: `پیش از این موعد قول انجام نمی‌دهیم: ${why}${need}${until} ${hours}.${closed} همچنان می‌توانید پرداخت کنید، اما بدون این قول.`,
  };
}

/** A request's promise as the request keeps it (decision 041). */
export interface RequestPromiseRow {
  state: string;
  promisePayBy: Date | string | null;
  promiseDoneBy: Date | string | null;
  promisedBy: Date | string | null;
  promiseCompensatedAt: Date | string | null;
  promiseCompensation: number | null;
}

/**
 * What the customer reads of a request's promise at `now`: to pay by a time while it may still be made, made
 * («پیش از … انجام می‌شود»), missed and compensated, or not made because it was paid late; null without one.
 */
export function requestPromiseText(row: RequestPromiseRow, now: Date = new Date()): string | null {
  if (row.promisePayBy === null || row.promiseDoneBy === null) return null;
  if (row.promiseCompensatedAt !== null && row.promisedBy !== null) {
    return `تا ${tehranMomentText(row.promisedBy)} که قول داده بودیم انجام نشد؛ ${formatRial(row.promiseCompensation ?? 0)} جبران به کیف پول برگشت.`;
  }
  if (row.promisedBy !== null) return `قول داده‌ایم پیش از ${tehranMomentText(row.promisedBy)} انجام شود.`;
  if (row.state === 'waitingForPayment') {
    return now.getTime() <= new Date(row.promisePayBy).getTime()
      ? `اگر تا ${tehranMomentText(row.promisePayBy)} پرداخت کنید، پیش از ${tehranMomentText(row.promiseDoneBy)} انجام می‌شود.`
      : `مهلت پرداخت برای قول انجام پیش از موعد (${tehranMomentText(row.promisePayBy)}) گذشته است؛ همچنان می‌توانید پرداخت کنید، اما بدون این قول.`;
  }
  return 'پس از مهلت قول پرداخت شد؛ برای این درخواست قول انجام پیش از موعد داده نشده است.';
}
