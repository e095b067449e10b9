/**
 * A date typed in the chosen calendar (Jalali YYYY/MM/DD or Gregorian YYYY-MM-DD), stored Gregorian.
 * Text that is not a valid date is kept with an '@' prefix so nothing the user typed is lost.
 */
import { Text, TextField } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { gregorianToJalali, jalaliToGregorian } from '../../shared/calendar';
import { toEnglishDigits } from '../../shared/digits';
import { calendarAtom } from '../features/shell/calendar';

export const INVALID_PREFIX = '@';

function toDisplay(stored: string, calendar: 'fa' | 'en'): string {
  if (!stored) return '';
  if (stored.startsWith(INVALID_PREFIX)) return stored.slice(1);
  if (calendar === 'en') return stored;
  try {
    return gregorianToJalali(stored);
  } catch {
    // A stored day outside the Jalali table (e.g. year 0500 typed in Gregorian) shows as it was typed.
    return stored;
  }
}

function toStored(text: string, calendar: 'fa' | 'en'): string {
  const value = toEnglishDigits(text.trim());
  if (!value) return '';
  if (calendar === 'fa') {
    try {
      // Any real Jalali day (past or future: birth dates and passport expiries alike); the form's rules bound it.
      return jalaliToGregorian(value);
    } catch {
      return INVALID_PREFIX + text;
    }
  }
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
  return valid && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value) ? value : INVALID_PREFIX + text;
}

export function JalaliDateInput({
  id,
  value,
  onChange,
  disabled,
}: {
  id: string;
  value: string;
  onChange: (stored: string) => void;
  disabled?: boolean;
}) {
  const calendar = useAtomValue(calendarAtom);
  const [text, setText] = useState(() => toDisplay(value, calendar));
  useEffect(() => setText(toDisplay(value, calendar)), [calendar, value]);
  const invalid = value.startsWith(INVALID_PREFIX);
  return (
    <>
      <TextField.Root
        id={id}
        dir="ltr"
        inputMode="numeric"
        placeholder={calendar === 'fa' ? '1370/06/31' : '1991-09-22'}
        value={text}
        disabled={disabled}
        aria-invalid={invalid}
        onChange={(e) => {
          setText(e.target.value);
          onChange(toStored(e.target.value, calendar));
        }}
      />
      {invalid && (
        <Text size="1" color="red" role="alert">
          تاریخ معتبر نیست.
        </Text>
      )}
    </>
  );
}
