import { TextField } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';

export function TextWidget({
  id,
  value,
  onChange,
  onBlur,
  disabled,
  readonly,
  options,
  rawErrors,
  schema,
}: WidgetProps) {
  return (
    <TextField.Root
      id={id}
      value={value ?? ''}
      dir={(options.dir as 'ltr' | 'rtl' | undefined) ?? 'auto'}
      disabled={disabled || readonly}
      maxLength={typeof schema.maxLength === 'number' ? schema.maxLength + 1 : undefined}
      aria-invalid={Boolean(rawErrors?.length)}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      onBlur={() => onBlur(id, value)}
    />
  );
}
