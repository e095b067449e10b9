/** Currency management (currencySettings): staff edit titles, rial rates and flags; every change is audit-logged. */
import { Badge, Button, Card, Checkbox, Dialog, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { type FormEvent, useState } from 'react';
import type { components } from '../../../../generated/api';
import { toEnglishDigits } from '../../../../shared/digits';
import { formatRial } from '../../../../shared/format';
import { isInteger } from '../../../../shared/validation';
import { type Column, TableView } from '../../../components/data-table/TableView';
import { DateText } from '../../../components/date/DateText';
import { showSnackbar } from '../../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { canAtom } from '../../../lib/policy';
import { SystemParameters } from './SystemParameters';

type Currency = components['schemas']['Currency'];
type Draft = {
  id?: number;
  title: string;
  code: string;
  rate: string;
  useForUafCpr: boolean;
  useForGoogleAdsAccountCr: boolean;
};

function CurrencyDialog({ draft, onClose }: { draft: Draft | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Draft | null>(draft);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!form) return null;
  const rate = toEnglishDigits(form.rate.replace(/,/g, ''));
  const rateError = !isInteger(rate) || Number(rate) <= 0 ? 'نرخ باید عدد صحیح مثبت (ریال) باشد.' : null;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (rateError) return;
    setBusy(true);
    setError(null);
    try {
      await call(
        api.POST('/api/sys/saveCurrency', {
          body: {
            ...(form.id !== undefined ? { id: form.id } : {}),
            title: form.title,
            code: form.code.toUpperCase(),
            rate: Number(rate),
            useForUafCpr: form.useForUafCpr,
            useForGoogleAdsAccountCr: form.useForGoogleAdsAccountCr,
          },
        }),
      );
      showSnackbar('ارز ذخیره شد.', 'green');
      void queryClient.invalidateQueries({ queryKey: ['table', 'currencies'] });
      void queryClient.invalidateQueries({ queryKey: ['public', 'currencies'] });
      onClose();
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="440px">
        <Dialog.Title>{form.id ? `ویرایش ${form.title}` : 'ارز جدید'}</Dialog.Title>
        <form onSubmit={save}>
          <Flex direction="column" gap="3">
            <label htmlFor="c-title">
              <Text size="2">عنوان</Text>
            </label>
            <TextField.Root
              id="c-title"
              value={form.title}
              required
              onChange={(e) => setForm({ ...form, title: e.target.value })}
            />
            <label htmlFor="c-code">
              <Text size="2">کد ISO</Text>
            </label>
            <TextField.Root
              id="c-code"
              dir="ltr"
              maxLength={3}
              value={form.code}
              required
              onChange={(e) => setForm({ ...form, code: e.target.value })}
            />
            <label htmlFor="c-rate">
              <Text size="2">نرخ (ریال برای یک واحد)</Text>
            </label>
            <TextField.Root
              id="c-rate"
              dir="ltr"
              inputMode="numeric"
              value={form.rate}
              onChange={(e) => setForm({ ...form, rate: e.target.value })}
            />
            {rateError && (
              <Text size="1" color="red" role="alert">
                {rateError}
              </Text>
            )}
            <Text as="label" size="2">
              <Flex gap="2" align="center">
                <Checkbox
                  checked={form.useForUafCpr}
                  onCheckedChange={(c) => setForm({ ...form, useForUafCpr: c === true })}
                />{' '}
                برای پرداخت‌های ارزی
              </Flex>
            </Text>
            <Text as="label" size="2">
              <Flex gap="2" align="center">
                <Checkbox
                  checked={form.useForGoogleAdsAccountCr}
                  onCheckedChange={(c) => setForm({ ...form, useForGoogleAdsAccountCr: c === true })}
                />{' '}
                برای حساب گوگل ادز
              </Flex>
            </Text>
            {error && (
              <Text size="1" color="red" role="alert">
                {error}
              </Text>
            )}
            <Flex gap="2" justify="end">
              <Dialog.Close>
                <Button type="button" variant="soft" color="gray">
                  انصراف
                </Button>
              </Dialog.Close>
              <Button type="submit" loading={busy} disabled={Boolean(rateError)} data-testid="save-currency">
                ذخیره
              </Button>
            </Flex>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** The currency table's columns; the last one opens the row's currency for editing. */
const columns = (edit: (c: Currency) => void): Array<Column<Currency>> => [
  {
    key: 'title',
    title: 'ارز',
    cell: (c) => (
      <>
        {c.title} <Text color="gray">({c.code})</Text>
      </>
    ),
  },
  { key: 'rate', title: 'نرخ', cell: (c) => <span className="ltr">{formatRial(c.rate)}</span> },
  {
    key: 'use',
    title: 'کاربرد',
    hideOnMobile: true,
    cell: (c) => (
      <Flex gap="1">
        {c.useForUafCpr && <Badge>پرداخت ارزی</Badge>}
        {c.useForGoogleAdsAccountCr && <Badge color="orange">گوگل ادز</Badge>}
      </Flex>
    ),
  },
  { key: 'updated', title: 'به‌روزرسانی', hideOnMobile: true, cell: (c) => <DateText value={c.rateUpdatedAt} /> },
  {
    key: 'actions',
    title: 'عملیات',
    cell: (c) => (
      <Button size="1" variant="soft" onClick={() => edit(c)} data-testid={`edit-${c.code}`}>
        ویرایش
      </Button>
    ),
  },
];

export default function CurrenciesPage() {
  const [draft, setDraft] = useState<Draft | null>(null);
  // Each section is shown to whoever holds its action (the route opens with either).
  const can = useAtomValue(canAtom);
  const manageCurrencies = can('manageCurrencies');
  const query = useQuery({
    queryKey: ['table', 'currencies'],
    queryFn: () => call<{ items: Currency[] }>(api.POST('/api/sys/searchCurrencies', { body: { perPage: 200 } })),
    enabled: manageCurrencies,
  });
  const edit = (c?: Currency) =>
    setDraft(
      c
        ? {
            id: c.id,
            title: c.title,
            code: c.code,
            rate: String(c.rate),
            useForUafCpr: c.useForUafCpr,
            useForGoogleAdsAccountCr: c.useForGoogleAdsAccountCr,
          }
        : { title: '', code: '', rate: '', useForUafCpr: true, useForGoogleAdsAccountCr: false },
    );
  return (
    <Flex direction="column" gap="3">
      <Flex justify="between" align="center">
        <Heading size="6">مدیریت ارزها</Heading>
        {manageCurrencies && <Button onClick={() => edit()}>ارز جدید</Button>}
      </Flex>
      {manageCurrencies && (
        <Card size="2">
          <TableView
            testId="currencies-table"
            columns={columns(edit)}
            rows={query.data?.items ?? []}
            rowKey={(c) => c.id}
            rowProps={(c) => ({ 'data-testid': `currency-${c.code}` })}
            loading={query.isPending}
          />
        </Card>
      )}
      {can('manageSystemParameters') && <SystemParameters />}
      {draft && <CurrencyDialog key={draft.id ?? 'new'} draft={draft} onClose={() => setDraft(null)} />}
    </Flex>
  );
}
