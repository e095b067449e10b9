import { Flex, Text, TextArea } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';
import { toPersianDigits } from '../../../../shared/digits';

/** A textarea with a character counter against the field's maxLength. */
export function TextareaWidget({
  id,
  value,
  onChange,
  onBlur,
  onFocus,
  disabled,
  readonly,
  rawErrors,
  schema,
}: WidgetProps) {
  const length = String(value ?? '').length;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  return (
    <Flex direction="column" gap="1">
      <TextArea
        id={id}
        value={value ?? ''}
        rows={4}
        disabled={disabled || readonly}
        aria-invalid={Boolean(rawErrors?.length)}
        aria-describedby={`${id}-counter`}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        onFocus={() => onFocus(id, value)}
        onBlur={() => onBlur(id, value)}
      />
      {max && (
        <Text id={`${id}-counter`} size="1" color={length > max ? 'red' : 'gray'} align="left">
          {toPersianDigits(length)} / {toPersianDigits(max)}
        </Text>
      )}
    </Flex>
  );
}
