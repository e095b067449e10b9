import { Checkbox, Flex, Text } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';

/** A yes/no field: a checkbox with the field's title beside it (the field template shows no label above it). */
export function CheckboxWidget({ id, value, onChange, onBlur, onFocus, label, disabled, readonly }: WidgetProps) {
  return (
    <Text as="label" size="2">
      <Flex gap="2" align="center">
        <Checkbox
          id={id}
          checked={value === true}
          disabled={disabled || readonly}
          onCheckedChange={(c) => onChange(c === true)}
          onFocus={() => onFocus(id, value)}
          onBlur={() => onBlur(id, value)}
        />
        {label}
      </Flex>
    </Text>
  );
}
