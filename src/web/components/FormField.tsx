/** A labelled text field with its hint and error, described to screen readers (the staff dialogs use it). */
import { Flex, Text, TextField } from '@radix-ui/themes';

export function FormField({
  id,
  label,
  value,
  onChange,
  error,
  dir,
  type = 'text',
  autoComplete = 'off',
  disabled,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | null;
  dir?: 'ltr' | 'rtl';
  type?: 'text' | 'password' | 'email' | 'tel';
  autoComplete?: string;
  disabled?: boolean;
  hint?: string;
}) {
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <Flex direction="column" gap="1">
      <label htmlFor={id}>
        <Text size="2" weight="medium">
          {label}
        </Text>
      </label>
      <TextField.Root
        id={id}
        type={type}
        dir={dir}
        value={value}
        disabled={disabled}
        autoComplete={autoComplete}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={describedBy || undefined}
      />
      {hint && (
        <Text size="1" color="gray" id={`${id}-hint`}>
          {hint}
        </Text>
      )}
      {error && (
        <Text size="1" color="red" role="alert" id={`${id}-error`}>
          {error}
        </Text>
      )}
    </Flex>
  );
}
