/** Currency and payment-method selects fed from the API; Google Ads accounts of the customer. */

import { Select, Skeleton, Text } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { startTransition, useDeferredValue, useEffect } from 'react';
import { formatRial } from '../../../../shared/format';
import { type Currency, currenciesQuery } from '../../../lib/queries/currencies';
import { myGoogleAdsAccountsQuery } from '../../../lib/queries/google-ads';
import { paymentMethodGroupsQuery } from '../../../lib/queries/payment-method-groups';

/**
 * Radix hands focus back to the select's button once the list has closed (after its exit animation). When a person
 * has already tapped the next field by then, that would pull focus away mid-word and lose keystrokes: keep it there.
 */
function keepFocusMovedElsewhere(event: Event): void {
  const active = document.activeElement;
  if (active && active !== document.body && !active.closest('[role="listbox"]')) event.preventDefault();
}

/** The theme's select for a widget: id, value, change, the disabled or read-only state and errors come from rjsf. */
function RadixSelect({
  widget,
  items,
  placeholder,
  unavailable = false,
}: {
  widget: WidgetProps;
  items: Array<{ id: number | string; label: string }>;
  placeholder: string;
  /** Nothing to choose from: drawn disabled whatever rjsf says. */
  unavailable?: boolean;
}) {
  const { id, value, onChange, disabled, readonly, rawErrors, schema } = widget;
  return (
    <Select.Root
      value={value === undefined || value === null ? '' : String(value)}
      // A text field's choices are named (a plan's identifier); every other select keeps a row's number.
      onValueChange={(v) => onChange(schema.type === 'string' ? v : Number(v))}
      disabled={disabled || readonly || unavailable}
    >
      <Select.Trigger
        id={id}
        placeholder={placeholder}
        aria-invalid={Boolean(rawErrors?.length)}
        style={{ width: '100%' }}
      />
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

/**
 * When a select offers one choice and nothing is chosen, choose it for the customer (the desk's only currency, the
 * only payment method group that applies): a tap saved, the value visible and still changeable.
 */
function useOnlyChoice(items: Array<{ id: number }> | null, value: unknown, onChange: (v: number) => void): void {
  const only = items?.length === 1 ? items[0]!.id : null;
  const empty = value === undefined || value === null || value === '';
  useEffect(() => {
    // A transition: the form re-renders and re-validates with it in slices rather than in one long task.
    if (only !== null && empty) startTransition(() => onChange(only));
  }, [only, empty, onChange]);
}

const NO_ITEMS: never[] = [];

/**
 * The rows of a list query, null while it loads, handed on as a deferred value: the select and its options are drawn
 * in a render React can slice once the answer is in, not inside the answer's own urgent render (a long task on a
 * slow phone; decision 015).
 */
function useLoadedItems<T>(query: { isPending: boolean; data?: { items: T[] } }): T[] | null {
  return useDeferredValue(query.isPending ? null : (query.data?.items ?? NO_ITEMS), null);
}

interface SelectContext {
  isCashService?: boolean;
  /** Currency codes the desk is paid in (the desk's `currencies`); unset: every currency the filter admits. */
  currencies?: readonly string[];
}

export function CurrencySelectWidget(widget: WidgetProps) {
  const { value, onChange, options, registry } = widget;
  const query = useQuery(currenciesQuery);
  const flag = options.filter as keyof Currency | undefined;
  const codes = (registry.formContext as SelectContext | undefined)?.currencies;
  const loaded = useLoadedItems(query);
  const items = loaded && loaded.filter((c) => (!flag || c[flag]) && (!codes || codes.includes(c.code.trim())));
  useOnlyChoice(items, value, onChange);
  if (!items) return <Skeleton height="32px" />;
  return (
    <RadixSelect
      widget={widget}
      placeholder="انتخاب ارز"
      items={items.map((c) => ({ id: c.id, label: `${c.title} (${c.code}) — ${formatRial(c.rate)}` }))}
    />
  );
}

export function PaymentMethodGroupSelectWidget(widget: WidgetProps) {
  const { value, onChange, registry } = widget;
  const query = useQuery(paymentMethodGroupsQuery);
  const cash = Boolean((registry.formContext as SelectContext | undefined)?.isCashService);
  const loaded = useLoadedItems(query);
  const items = loaded && loaded.filter((g) => g.isCash === cash);
  useOnlyChoice(items, value, onChange);
  if (!items) return <Skeleton height="32px" />;
  return (
    <RadixSelect widget={widget} placeholder="انتخاب کنید" items={items.map((g) => ({ id: g.id, label: g.title }))} />
  );
}

/**
 * The customer's own active Google Ads accounts (suspended ones cannot be charged); choosing one also fills the
 * form's base currency (`ui:options.currencyField`, default `currency`) with the account's.
 */
export function GoogleAdsAccountSelectWidget(widget: WidgetProps) {
  const { value, options, registry } = widget;
  const context = registry.formContext as
    { signedIn?: boolean; setField?: (name: string, value: unknown) => void } | undefined;
  const signedIn = Boolean(context?.signedIn);
  const setField = context?.setField;
  const query = useQuery(myGoogleAdsAccountsQuery(signedIn));
  const accounts = (query.data?.items ?? []).filter((a) => a.status === 'active');
  const currencyField = String(options.currencyField ?? 'currency');
  const chosen = accounts.find((a) => a.id === Number(value));
  useEffect(() => {
    if (chosen) setField?.(currencyField, chosen.currencyId);
  }, [chosen, currencyField, setField]);
  if (signedIn && query.isPending) return <Skeleton height="32px" />;
  if (accounts.length === 0) {
    return (
      <Text id={widget.id} size="2" color="gray" as="p">
        هنوز حساب گوگل ادز فعالی برای شما ساخته نشده است؛ پس از ساخت حساب، شارژ آن از همین‌جا ممکن می‌شود.
      </Text>
    );
  }
  return (
    <RadixSelect
      widget={widget}
      placeholder="انتخاب حساب"
      items={accounts.map((a) => ({
        id: a.id,
        label: `${a.title} (\u2066${a.googleCustomerId}\u2069) — ${a.currencyCode}`,
      }))}
    />
  );
}

/**
 * A choice among rows the page already has (`ui:options.choices` names a list in the form's context, each row
 * `{id, title}`), as a staff form's third party or payment method, or a customer's study-abroad plan (a text id).
 * Empty means not chosen.
 */
export function ChoiceSelectWidget(widget: WidgetProps) {
  const { options, registry } = widget;
  const lists = (
    registry.formContext as { choices?: Record<string, Array<{ id: number | string; title: string }>> } | undefined
  )?.choices;
  const items = lists?.[String(options.choices)] ?? [];
  return (
    <RadixSelect
      widget={widget}
      unavailable={items.length === 0}
      placeholder={items.length === 0 ? 'موردی ثبت نشده است' : 'انتخاب کنید'}
      items={items.map((item) => ({ id: item.id, label: item.title }))}
    />
  );
}
