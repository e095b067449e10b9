import { useAtomValue } from 'jotai';
import { type DisplayDateFormat, displayDate } from '../../../shared/format/dates';
import { calendarAtom } from '../../lib/calendar';

/** A date in the calendar the user chose (Jalali by default), in Persian digits. */
export function DateText({
  value,
  format = 'dateTime',
}: {
  value: string | Date | null | undefined;
  format?: DisplayDateFormat;
}) {
  const calendar = useAtomValue(calendarAtom);
  if (!value) return <span>—</span>;
  return (
    <time dateTime={new Date(value).toISOString()} className="ltr" data-calendar={calendar}>
      {displayDate(value, format, calendar)}
    </time>
  );
}
