import { EyeClosedIcon, EyeOpenIcon } from '@radix-ui/react-icons';
import { IconButton, TextField } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';
import { useState } from 'react';

/**
 * A secret the customer types (`ui:widget: "password"`): hidden as typed, with a toggle button (pressed: shown)
 * that shows or hides it.
 * `new-password` keeps the browser from filling in the customer's own Arzpay password.
 */
export function PasswordWidget({
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
  const [shown, setShown] = useState(false);
  return (
    <TextField.Root
      id={id}
      type={shown ? 'text' : 'password'}
      value={value ?? ''}
      dir={(options.dir as 'ltr' | 'rtl' | undefined) ?? 'auto'}
      autoComplete="new-password"
      spellCheck={false}
      disabled={disabled || readonly}
      maxLength={typeof schema.maxLength === 'number' ? schema.maxLength + 1 : undefined}
      aria-invalid={Boolean(rawErrors?.length)}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      onFocus={() => onFocus(id, value)}
      onBlur={() => onBlur(id, value)}
    >
      <TextField.Slot side="right">
        <IconButton
          type="button"
          size="1"
          variant="ghost"
          color="gray"
          aria-label="نمایش رمز عبور"
          aria-pressed={shown}
          aria-controls={id}
          disabled={disabled || readonly}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? <EyeClosedIcon /> : <EyeOpenIcon />}
        </IconButton>
      </TextField.Slot>
    </TextField.Root>
  );
}
