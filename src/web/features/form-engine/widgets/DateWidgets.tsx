import type { WidgetProps } from '@rjsf/utils';
import { Flex, RadioGroup, Text } from '@radix-ui/themes';
import { JalaliDateInput } from '../../../lib/JalaliDateInput';

/** A date typed in the chosen calendar; the form keeps Gregorian YYYY-MM-DD (invalid text kept with '@'). */
export function JalaliDateWidget({ id, value, onChange, disabled, readonly }: WidgetProps) {
  return (
    <JalaliDateInput
      id={id}
      value={String(value ?? '')}
      disabled={disabled || readonly}
      onChange={(v) => onChange(v || undefined)}
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
