import type { WidgetProps } from '@rjsf/utils';
import { Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { todayIso } from '../../../../shared/calendar/month-grid';
import { calendarAtom } from '../../../lib/calendar';
import { DateText } from '../../date/DateText';
import { JalaliDateInput } from '../../date/JalaliDateInput';

/**
 * A date typed or picked in the chosen calendar; the form keeps Gregorian YYYY-MM-DD (invalid text kept with '@').
 * Leaving it marks the field visited, so an empty required date says so; coming back to it (focus) lets it be typed
 * again before it is called missing. Option `notAfterToday` (a birth date): the picker offers no later day and opens
 * decades back, the placeholder is a birth date; `notBeforeToday` (an exam, a passport's expiry): no earlier day, a
 * placeholder a year ahead.
 * Read-only, the date is shown as text.
 */
export function JalaliDateWidget({
  id,
  value,
  onChange,
  onBlur,
  onFocus,
  disabled,
  readonly,
  options,
  rawErrors,
}: WidgetProps) {
  const calendar = useAtomValue(calendarAtom);
  if (readonly)
    return (
      <Text id={id}>
        <DateText value={typeof value === 'string' ? value : ''} format="slashDate" />
      </Text>
    );
  return (
    <JalaliDateInput
      id={id}
      value={String(value ?? '')}
      calendar={calendar}
      disabled={disabled}
      {...(options.notAfterToday ? { range: { max: todayIso() }, kind: 'birth' as const } : {})}
      {...(options.notBeforeToday ? { range: { min: todayIso() }, kind: 'future' as const } : {})}
      onChange={(v) => onChange(v || undefined)}
      onFocus={() => onFocus(id, value)}
      onBlur={() => onBlur(id, value)}
      // The field template shows the schema's message ('تاریخ معتبر نیست.'); the input only marks itself.
      invalid={Boolean(rawErrors?.length)}
    />
  );
}
