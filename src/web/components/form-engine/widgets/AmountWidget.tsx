import { TextField } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useState } from 'react';
import { toEnglishDigits } from '../../../../shared/digits';
import { groupNumberAsTyped } from '../../../../shared/format';

/** The number a field's text means, for comparing it with the value (separators of either script dropped). */
const numberOf = (text: string) =>
  Number(
    toEnglishDigits(text)
      .replace(/[,٬\s]/g, '')
      .replace('٫', '.'),
  );

/**
 * Amounts typed with Persian or ASCII digits, shown with thousands separators in the digits they were typed in
 * (Persian when nothing was typed); anything else stays text so the rule can name it.
 */
export function AmountWidget({ id, value, onChange, onBlur, disabled, readonly, rawErrors }: WidgetProps) {
  const [text, setText] = useState(value === undefined || value === null ? '' : groupNumberAsTyped(value));
  useEffect(() => {
    if (typeof value === 'number' && numberOf(text) !== value) setText(groupNumberAsTyped(value));
    if (value === undefined && text !== '') setText('');
    // Only an outside change of value resets the text; typing keeps what the user wrote.
  }, [value, text]);
  return (
    <TextField.Root
      id={id}
      dir="ltr"
      inputMode="decimal"
      value={text}
      disabled={disabled || readonly}
      aria-invalid={Boolean(rawErrors?.length)}
      onChange={(e) => {
        const raw = e.target.value;
        setText(raw);
        const normalized = toEnglishDigits(raw)
          .replace(/[,٬\s]/g, '')
          .replace('٫', '.');
        if (normalized === '') onChange(undefined);
        else if (/^-?\d*\.?\d+$|^-?\d+\.$/.test(normalized)) onChange(Number(normalized));
        else onChange(raw);
      }}
      onBlur={() => {
        if (typeof value === 'number') setText(groupNumberAsTyped(value, text));
        onBlur(id, value);
      }}
    />
  );
}
