/** Currency and payment-method selects fed from the API; Google Ads accounts of the customer. */

import { Select, Skeleton, Text } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { formatRial } from '../../../../shared/format';
import { type Currency, currenciesQuery } from '../../../lib/queries/currencies';
import { paymentMethodGroupsQuery } from '../../../lib/queries/payment-method-groups';

/**
 * Radix hands focus back to the select's button once the list has closed (after its exit animation). When a person
 * has already tapped the next field by then, that would pull focus away mid-word and lose keystrokes: keep it there.
 */
function keepFocusMovedElsewhere(event: Event): void {
  const active = document.activeElement;
  if (active && active !== document.body && !active.closest('[role="listbox"]')) event.preventDefault();
}

function RadixSelect({
  id,
  value,
  onChange,
  items,
  disabled,
  invalid,
  placeholder,
}: {
  id: string;
  value: unknown;
  onChange: (v: number) => void;
  items: Array<{ id: number; label: string }>;
  disabled?: boolean | undefined;
  invalid: boolean;
  placeholder: string;
}) {
  return (
    <Select.Root
      value={value === undefined || value === null ? '' : String(value)}
      onValueChange={(v) => onChange(Number(v))}
      disabled={disabled}
    >
      <Select.Trigger id={id} placeholder={placeholder} aria-invalid={invalid} style={{ width: '100%' }} />
      <Select.Content position="popper" onCloseAutoFocus={keepFocusMovedElsewhere}>
        {items.map((item) => (
          <Select.Item key={item.id} value={String(item.id)}>
            {item.label}
          </Select.Item>
        ))}
      </Select.Content>
    </Select.Root>
  );
}

export function CurrencySelectWidget({ id, value, onChange, disabled, readonly, options, rawErrors }: WidgetProps) {
  const query = useQuery(currenciesQuery);
  if (query.isPending) return <Skeleton height="32px" />;
  const flag = options.filter as keyof Currency | undefined;
  const items = (query.data?.items ?? []).filter((c) => !flag || c[flag]);
  return (
    <RadixSelect
      id={id}
      value={value}
      onChange={onChange}
      disabled={disabled || readonly}
      invalid={Boolean(rawErrors?.length)}
      placeholder="انتخاب ارز"
      items={items.map((c) => ({ id: c.id, label: `${c.title} (${c.code}) — ${formatRial(c.rate)}` }))}
    />
  );
}

export function PaymentMethodGroupSelectWidget({
  id,
  value,
  onChange,
  disabled,
  readonly,
  rawErrors,
  registry,
}: WidgetProps) {
  const query = useQuery(paymentMethodGroupsQuery);
  if (query.isPending) return <Skeleton height="32px" />;
  const cash = Boolean((registry.formContext as { isCashService?: boolean } | undefined)?.isCashService);
  const items = (query.data?.items ?? []).filter((g) => g.isCash === cash);
  return (
    <RadixSelect
      id={id}
      value={value}
      onChange={onChange}
      disabled={disabled || readonly}
      invalid={Boolean(rawErrors?.length)}
      placeholder="انتخاب کنید"
      items={items.map((g) => ({ id: g.id, label: g.title }))}
    />
  );
}

export function GoogleAdsAccountSelectWidget({ id }: WidgetProps) {
  return (
    <Text id={id} size="2" color="gray" as="p">
      هنوز حساب گوگل ادزی برای شما ساخته نشده است؛ پس از ساخت حساب، شارژ آن از همین‌جا ممکن می‌شود.
    </Text>
  );
}

/**
 * A choice among rows the page already has (`ui:options.choices` names a list in the form's context, each row
 * `{id, title}`), as a staff form's third party or payment method. Empty means not chosen.
 */
export function ChoiceSelectWidget({
  id,
  value,
  onChange,
  disabled,
  readonly,
  options,
  rawErrors,
  registry,
}: WidgetProps) {
  const lists = (registry.formContext as { choices?: Record<string, Array<{ id: number; title: string }>> } | undefined)
    ?.choices;
  const items = lists?.[String(options.choices)] ?? [];
  return (
    <RadixSelect
      id={id}
      value={value}
      onChange={onChange}
      disabled={disabled || readonly || items.length === 0}
      invalid={Boolean(rawErrors?.length)}
      placeholder={items.length === 0 ? 'موردی ثبت نشده است' : 'انتخاب کنید'}
      items={items.map((item) => ({ id: item.id, label: item.title }))}
    />
  );
}
