/**
 * A date typed in the chosen calendar (Jalali YYYY/MM/DD or Gregorian YYYY-MM-DD, in Latin, Persian or
 * Arabic-Indic digits) or picked from a month calendar, stored Gregorian. Text that is not a valid date is
 * kept with an '@' prefix so nothing the user typed is lost.
 *
 * While the field has focus its text stays exactly as typed (rewriting '1375/06/1' to '1375/06/01' under the
 * cursor made days 10 to 31 impossible to type); it turns into the canonical text when the field is left.
 * A date still being typed ('1375/0') is no value yet rather than an invalid one: the field is called invalid
 * once its text can no longer become a date, or when it is left.
 */
import { Flex, Text, TextField } from '@radix-ui/themes';
import { useEffect, useId, useRef, useState } from 'react';
import type { CalendarKind } from '../../../shared/calendar';
import { formatDateText, isDateTextPrefix, parseDateText } from '../../../shared/calendar/date-text';
import { todayIso } from '../../../shared/calendar/month-grid';
import { digitsAsTyped, toPersianDigits } from '../../../shared/digits';
import { DatePicker, type DateRange } from './DatePicker';

export const INVALID_PREFIX = '@';

/** A filter's date bound: the stored day, or nothing while the typed text is not a date yet. */
export const dateBound = (value: string) => (value && !value.startsWith(INVALID_PREFIX) ? value : undefined);

/** A stored day's text, in the digits `typed` was written in (Persian when nothing was typed). */
function toDisplay(stored: string, calendar: CalendarKind, typed = ''): string {
  if (!stored) return '';
  if (stored.startsWith(INVALID_PREFIX)) return stored.slice(1);
  // A stored day the calendar cannot show (a Gregorian year outside the Jalali table) shows as stored.
  return digitsAsTyped(formatDateText(stored, calendar) || stored, typed);
}

/** What kind of day a field takes: a birth date, a day to come (an exam, a passport's expiry) or any day. */
export type DateKind = 'birth' | 'future' | 'any';

/** This day, `years` years on (back when negative), as 'YYYY-MM-DD'. */
function yearsFromToday(years: number): string {
  const day = new Date(`${todayIso()}T00:00:00Z`);
  day.setUTCFullYear(day.getUTCFullYear() + years);
  return day.toISOString().slice(0, 10);
}

/**
 * The example a field shows while empty, in Persian digits: a plausible birth date, a day about a year from today
 * for one to come, or today for any day (a filter's bound).
 */
function examplePlaceholder(calendar: CalendarKind, kind: DateKind): string {
  if (kind === 'birth') return toPersianDigits(calendar === 'fa' ? '1370/06/31' : '1991-09-22');
  return toPersianDigits(formatDateText(kind === 'future' ? yearsFromToday(1) : todayIso(), calendar));
}

function toStored(text: string, calendar: CalendarKind, typing: boolean): string {
  if (!text.trim()) return '';
  const iso = parseDateText(text, calendar);
  if (iso) return iso;
  return typing && isDateTextPrefix(text, calendar) ? '' : INVALID_PREFIX + text;
}

export function JalaliDateInput({
  id,
  value,
  onChange,
  calendar,
  range = {},
  disabled,
  onFocus,
  onBlur,
  invalid: shownInvalid,
  kind = 'any',
}: {
  id: string;
  /** Gregorian 'YYYY-MM-DD', '' or '@' and the text typed. */
  value: string;
  onChange: (stored: string) => void;
  calendar: CalendarKind;
  /** The days the picker offers (a birth date: none after today). */
  range?: DateRange;
  disabled?: boolean | undefined;
  onFocus?: (() => void) | undefined;
  onBlur?: (() => void) | undefined;
  /** Given when the caller shows the field's errors itself (the form engine): then no message of its own here. */
  invalid?: boolean | undefined;
  /** The kind of day (its placeholder; a birth date's empty picker opens thirty years back). */
  kind?: DateKind | undefined;
}) {
  const [text, setText] = useState(() => toDisplay(value, calendar));
  // What was last typed here: the field shows its dates in those digits (Persian until something is typed).
  const typed = useRef('');
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();
  // What the text was last derived from: a new value from outside (a reset, a live reload) or another calendar
  // replaces the text; the value this field just emitted for the text being typed does not.
  const synced = useRef({ value, calendar });
  useEffect(() => {
    if (synced.current.value === value && synced.current.calendar === calendar) return;
    synced.current = { value, calendar };
    setText(toDisplay(value, calendar, typed.current));
  }, [value, calendar]);

  const emit = (stored: string) => {
    synced.current = { value: stored, calendar };
    onChange(stored);
  };

  const ownError = shownInvalid === undefined && value.startsWith(INVALID_PREFIX);

  return (
    <Flex direction="column" gap="1">
      <TextField.Root
        ref={input}
        id={id}
        dir="ltr"
        inputMode="decimal"
        autoComplete="off"
        placeholder={examplePlaceholder(calendar, kind)}
        value={text}
        disabled={disabled}
        aria-invalid={shownInvalid ?? ownError}
        aria-describedby={ownError ? errorId : undefined}
        data-calendar={calendar}
        onFocus={onFocus}
        onBlur={() => {
          const stored = toStored(text, calendar, false);
          if (stored !== value) emit(stored);
          if (!stored.startsWith(INVALID_PREFIX)) setText(toDisplay(stored, calendar, text));
          onBlur?.();
        }}
        onChange={(e) => {
          typed.current = e.target.value;
          setText(e.target.value);
          emit(toStored(e.target.value, calendar, true));
        }}
      >
        <TextField.Slot side="right">
          <DatePicker
            calendar={calendar}
            value={value}
            range={range}
            fieldRef={input}
            disabled={disabled}
            testId={`${id}-picker`}
            {...(kind === 'birth' ? { opensOn: yearsFromToday(-30) } : {})}
            onPick={(iso) => {
              setText(toDisplay(iso, calendar, typed.current));
              emit(iso);
            }}
          />
        </TextField.Slot>
      </TextField.Root>
      {ownError && (
        <Text id={errorId} size="1" color="red" role="alert">
          تاریخ معتبر نیست.
        </Text>
      )}
    </Flex>
  );
}
