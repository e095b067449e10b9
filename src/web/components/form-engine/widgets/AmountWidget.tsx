import { TextField } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useState } from 'react';
import { toEnglishDigits } from '../../../../shared/digits';
import { groupNumber } from '../../../../shared/format';

/** Amounts typed with Persian or ASCII digits, shown with thousands separators; anything else stays text so the rule can name it. */
export function AmountWidget({ id, value, onChange, onBlur, disabled, readonly, rawErrors }: WidgetProps) {
  const [text, setText] = useState(value === undefined || value === null ? '' : groupNumber(value));
  useEffect(() => {
    if (typeof value === 'number' && Number(toEnglishDigits(text).replace(/,/g, '')) !== value)
      setText(groupNumber(value));
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
        if (typeof value === 'number') setText(groupNumber(value));
        onBlur(id, value);
      }}
    />
  );
}
