/** Currency management (currencySettings): staff edit titles, rial rates and flags; every change is audit-logged. */
import { Badge, Button, Card, Dialog, Flex, Heading, Text } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import currencyForm from '../../../../../schemas/entryForms/currency.json';
import currencyValidators from '../../../../../src/generated/form-validators/currency';
import type { components } from '../../../../generated/api';
import { Amount } from '../../../components/RialText';
import { type Column, TableView } from '../../../components/data-table/TableView';
import { DateText } from '../../../components/date/DateText';
import { DialogActions } from '../../../components/DialogActions';
import { asEntryForm, EntryForm, type FormData } from '../../../components/form-engine/EntryForm';
import { showSnackbar } from '../../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { canAtom } from '../../../lib/policy';
import { SystemParameters } from './SystemParameters';

type Currency = components['schemas']['Currency'];
/** A currency being edited (`id` set) or added: the fields of schemas/entryForms/currency.json. */
type Draft = { id?: number } & FormData;

const FORM = asEntryForm(currencyForm, currencyValidators);

function CurrencyDialog({ draft, onClose }: { draft: Draft; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { id, ...initial } = draft;
  const [data, setData] = useState<FormData>(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await call(
        api.POST('/api/sys/saveCurrency', {
          body: {
            ...(id !== undefined ? { id } : {}),
            title: String(data.title),
            code: String(data.code),
            rate: Number(data.rate),
            useForUafCpr: data.useForUafCpr === true,
            useForGoogleAdsAccountCr: data.useForGoogleAdsAccountCr === true,
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
      <Dialog.Content maxWidth="min(440px, 92vw)">
        <Dialog.Title>{id ? `ویرایش ${String(draft.title)}` : 'ارز جدید'}</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          هر تغییر نرخ در گزارش تغییرات ثبت می‌شود.
        </Dialog.Description>
        <EntryForm form={FORM} idPrefix="currency" formData={data} onChange={setData} onSubmit={() => void save()}>
          <DialogActions error={error} busy={busy} submitLabel="ذخیره" submitTestId="save-currency" mt="3" />
        </EntryForm>
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
  { key: 'rate', title: 'نرخ', cell: (c) => <Amount value={c.rate} /> },
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
            rate: c.rate,
            useForUafCpr: c.useForUafCpr,
            useForGoogleAdsAccountCr: c.useForGoogleAdsAccountCr,
          }
        : { useForUafCpr: true, useForGoogleAdsAccountCr: false },
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
