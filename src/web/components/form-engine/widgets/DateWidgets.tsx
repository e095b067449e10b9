import type { WidgetProps } from '@rjsf/utils';
import { Flex, RadioGroup, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { calendarAtom } from '../../../lib/calendar';
import { JalaliDateInput } from '../../date/JalaliDateInput';

/**
 * A date typed or picked in the chosen calendar; the form keeps Gregorian YYYY-MM-DD (invalid text kept with '@').
 * Leaving it marks the field visited, so an empty required date says so.
 */
export function JalaliDateWidget({ id, value, onChange, onBlur, disabled, readonly, rawErrors }: WidgetProps) {
  const calendar = useAtomValue(calendarAtom);
  return (
    <JalaliDateInput
      id={id}
      value={String(value ?? '')}
      calendar={calendar}
      disabled={disabled || readonly}
      onChange={(v) => onChange(v || undefined)}
      onBlur={() => onBlur(id, value)}
      // The field template shows the schema's message ('تاریخ معتبر نیست.'); the input only marks itself.
      invalid={Boolean(rawErrors?.length)}
    />
  );
}

export function RadioWidget({ id, value, onChange, options, disabled, readonly }: WidgetProps) {
  const choices = (options.enumOptions ?? []) as Array<{ value: string; label: string }>;
  return (
    <RadioGroup.Root id={id} value={value ?? ''} onValueChange={onChange} disabled={disabled || readonly}>
      <Flex gap="4" wrap="wrap">
        {choices.map((c) => (
          <Text as="label" size="2" key={c.value}>
            <Flex gap="2" align="center">
              <RadioGroup.Item value={c.value} /> {c.label}
            </Flex>
          </Text>
        ))}
      </Flex>
    </RadioGroup.Root>
  );
}
