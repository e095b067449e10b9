import { useAtomValue } from 'jotai';
import { type DisplayDateFormat, displayDate, relativeTime } from '../../../shared/format/dates';
import { calendarAtom } from '../../lib/calendar';
import { useNow } from '../../lib/useNow';

/** Digits-only layouts are set left to right; ones with month names or words read right to left like the text. */
const isNumeric = (format: DisplayDateFormat) => format !== 'longDate' && format !== 'longDateTime';

/**
 * A date in the calendar the user chose (Jalali by default), in Persian digits. With `relative`, a recent instant
 * reads as how long ago it was ('۵ دقیقه پیش'), its date in the tooltip; an older one shows the date itself.
 */
export function DateText({
  value,
  format = 'dateTime',
  relative = false,
}: {
  value: string | Date | null | undefined;
  format?: DisplayDateFormat;
  relative?: boolean;
}) {
  const calendar = useAtomValue(calendarAtom);
  if (!value) return <span>—</span>;
  const date = displayDate(value, format, calendar);
  if (relative) return <RelativeDate value={value} date={date} numeric={isNumeric(format)} calendar={calendar} />;
  return (
    <time
      dateTime={new Date(value).toISOString()}
      className={isNumeric(format) ? 'ltr' : 'nowrap'}
      data-calendar={calendar}
    >
      {date}
    </time>
  );
}

function RelativeDate({
  value,
  date,
  numeric,
  calendar,
}: {
  value: string | Date;
  date: string;
  numeric: boolean;
  calendar: string;
}) {
  const ago = relativeTime(value, useNow());
  return (
    <time
      dateTime={new Date(value).toISOString()}
      className={numeric && !ago ? 'ltr' : 'nowrap'}
      data-calendar={calendar}
      title={ago ? date : undefined}
    >
      {ago ?? date}
    </time>
  );
}
