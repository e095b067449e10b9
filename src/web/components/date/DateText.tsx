import { useAtomValue } from 'jotai';
import { type DateFormatName, formatDate } from '../../../shared/calendar';
import { calendarAtom } from '../../lib/calendar';

/** A date in the calendar the user chose (Jalali by default). */
export function DateText({
  value,
  format = 'dateTime',
}: {
  value: string | Date | null | undefined;
  format?: DateFormatName;
}) {
  const calendar = useAtomValue(calendarAtom);
  if (!value) return <span>—</span>;
  return (
    <time dateTime={new Date(value).toISOString()} className="ltr" data-calendar={calendar}>
      {formatDate(value, format, calendar)}
    </time>
  );
}
