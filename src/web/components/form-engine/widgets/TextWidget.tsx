import { TextField } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';

type InputType = 'text' | 'tel' | 'email' | 'url';

/**
 * A line of text. Options: `dir`, `inputType` (tel, email, url: the phone's keyboard), `maxLength` (a hard limit
 * typed no further; without it one character more than the schema's maxLength, so its rule can say so),
 * `upperCase` (letters kept as capitals, as a currency code).
 */
export function TextWidget({
  id,
  value,
  onChange,
  onBlur,
  onFocus,
  disabled,
  readonly,
  options,
  rawErrors,
  schema,
}: WidgetProps) {
  const maxLength =
    typeof options.maxLength === 'number'
      ? options.maxLength
      : typeof schema.maxLength === 'number'
        ? schema.maxLength + 1
        : undefined;
  return (
    <TextField.Root
      id={id}
      type={(options.inputType as InputType | undefined) ?? 'text'}
      value={value ?? ''}
      dir={(options.dir as 'ltr' | 'rtl' | undefined) ?? 'auto'}
      disabled={disabled || readonly}
      maxLength={maxLength}
      aria-invalid={Boolean(rawErrors?.length)}
      onChange={(e) => {
        const text = options.upperCase ? e.target.value.toUpperCase() : e.target.value;
        onChange(text === '' ? undefined : text);
      }}
      onFocus={() => onFocus(id, value)}
      onBlur={() => onBlur(id, value)}
    />
  );
}

/** An e-mail address (`format: "email"`, which rjsf draws with this widget): left to right, the e-mail keyboard. */
export function EmailWidget(props: WidgetProps) {
  return <TextWidget {...props} options={{ dir: 'ltr', inputType: 'email', ...props.options }} />;
}
