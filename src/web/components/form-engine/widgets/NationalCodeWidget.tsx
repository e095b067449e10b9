import { Badge, Spinner, Text, TextField } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';

/** Where the check that a national code is free stands; the page that runs it passes it in `formContext`. */
export type NationalCodeInquiry =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'accepted' }
  | { state: 'rejected'; mobileNo: string }
  | { state: 'failed'; message: string };

export interface NationalCodeContext {
  nationalCodeInquiry?: NationalCodeInquiry;
}

/**
 * A national code (`ui:widget: "nationalCode"`): ten digits, left to right, with the inquiry's state beside it
 * (a spinner while it runs, 'accepted' once the code is free) and, under it, whose mobile a taken code belongs to.
 */
export function NationalCodeWidget({
  id,
  value,
  onChange,
  onBlur,
  onFocus,
  disabled,
  readonly,
  rawErrors,
  registry,
}: WidgetProps) {
  const inquiry = (registry.formContext as NationalCodeContext | undefined)?.nationalCodeInquiry ?? { state: 'idle' };
  const locked = Boolean(disabled || readonly);
  return (
    <>
      <TextField.Root
        id={id}
        dir="ltr"
        inputMode="numeric"
        maxLength={10}
        value={typeof value === 'string' ? value : ''}
        disabled={locked}
        aria-invalid={Boolean(rawErrors?.length)}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        onFocus={() => onFocus(id, value)}
        onBlur={() => onBlur(id, value)}
      >
        <TextField.Slot side="left">
          {inquiry.state === 'loading' && <Spinner aria-label="در حال بررسی کد ملی" />}
          {inquiry.state === 'accepted' && !locked && (
            <Badge color="green" data-testid="national-code-accepted">
              پذیرفته شد
            </Badge>
          )}
        </TextField.Slot>
      </TextField.Root>
      {inquiry.state === 'rejected' && (
        <Text size="1" color="red" role="alert" data-testid="national-code-rejected">
          این کد ملی متعلق به کاربر دیگری با موبایل <span className="ltr">{inquiry.mobileNo}</span> است.
        </Text>
      )}
    </>
  );
}
