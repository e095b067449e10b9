/**
 * Collections (receipts), /management/collections: every payment received, online or recorded by hand, on the
 * data-table engine (schemas/tables/collections.json) with search, source, a date range in the chosen calendar
 * and export. «ثبت دریافت دستی» opens the manual collection dialog (payOffline, schemas/entryForms/payOffline.json):
 * an online payment the bank took but never confirmed is settled by its token, or a deposit goes to a customer's
 * wallet by their mobile number.
 */
import { PlusIcon } from '@radix-ui/react-icons';
import { Button, Card, Dialog, Flex, Heading, Select, Text } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import collectionsTable from '../../../../../schemas/tables/collections.json';
import payOfflineForm from '../../../../../schemas/entryForms/payOffline.json';
import payOfflineValidators from '../../../../../src/generated/form-validators/payOffline';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { dateBound, JalaliDateInput } from '../../../components/date/JalaliDateInput';
import { DialogActions } from '../../../components/DialogActions';
import { asEntryForm, EntryForm, type FormData } from '../../../components/form-engine/EntryForm';
import { showSnackbar } from '../../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { calendarAtom } from '../../../lib/calendar';
import { canAtom } from '../../../lib/policy';
import { internalBankAccountsQuery } from '../../../lib/queries/staff-money';

const TABLE = asTableDef(collectionsTable);
const FORM = asEntryForm(payOfflineForm, payOfflineValidators);
const ALL = 'all';

function PayOfflineDialog({ onClose, onRecorded }: { onClose: () => void; onRecorded: () => void }) {
  const [data, setData] = useState<FormData>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const accounts = useQuery(internalBankAccountsQuery);
  const formContext = useMemo(
    () => ({
      choices: {
        bankAccounts: (accounts.data?.items ?? [])
          .filter((a) => a.isActive)
          .map((a) => ({ id: a.id, title: `${a.title} — ${a.bankName} ${a.accountNo}` })),
      },
    }),
    [accounts.data],
  );

  const save = async (fields: FormData) => {
    setBusy(true);
    setError(null);
    try {
      const token = typeof fields.proformaToken === 'string' ? fields.proformaToken.trim() : '';
      const mobile = typeof fields.customerMobileNo === 'string' ? fields.customerMobileNo : '';
      await call(
        api.POST('/api/sys/payOffline', {
          body: {
            formIsValid: true,
            onlineProformaToken: token,
            ...(mobile ? { customerMobileNo: mobile } : {}),
            collectionAmount: Number(fields.collectionAmount),
            collectionTrackingCode: String(fields.collectionTrackingCode),
            collectionSourceAccountNo: String(fields.collectionSourceAccountNo),
            collectionDestinationAccount: Number(fields.collectionDestinationAccount),
          },
        }),
      );
      showSnackbar('دریافت با موفقیت ثبت شد.', 'green');
      onRecorded();
      onClose();
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="min(520px, 94vw)" data-testid="pay-offline-dialog">
        <Dialog.Title>ثبت دریافت دستی</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          واریزی که در حساب بانکی ارزپی دیده‌اید: با شناسه پرداخت آنلاین، آن پرداخت تسویه و درخواستش پرداخت‌شده می‌شود؛
          بدون آن، مبلغ به کیف پول مشتریِ این موبایل می‌رود. هر کد پیگیری یک بار ثبت می‌شود.
        </Dialog.Description>
        <EntryForm
          form={FORM}
          idPrefix="payOffline"
          formData={data}
          onChange={setData}
          onSubmit={(fields) => void save(fields)}
          formContext={formContext}
        >
          <DialogActions error={error} busy={busy} submitLabel="ثبت دریافت" submitTestId="submit-pay-offline" mt="3" />
        </EntryForm>
      </Dialog.Content>
    </Dialog.Root>
  );
}

export default function CollectionsPage() {
  const can = useAtomValue(canAtom);
  const calendar = useAtomValue(calendarAtom);
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [source, setSource] = useState(ALL);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [refresh, setRefresh] = useState(0);

  // The page's own filters ride on the table's source parameters; a change refetches.
  const def = useMemo(() => {
    const params = {
      ...(source !== ALL ? { source } : {}),
      ...(dateBound(from) ? { from: dateBound(from) } : {}),
      ...(dateBound(to) ? { to: dateBound(to) } : {}),
    };
    return { ...TABLE, source: { ...TABLE.source, params } };
  }, [source, from, to]);
  // The table's cache key knows only its refresh key: fold the filters into it, so each filter has its own rows.
  const refreshKey = `${JSON.stringify(def.source.params)}#${refresh}`;

  return (
    <Flex direction="column" gap="3">
      <Flex justify="between" align="center" gap="2" wrap="wrap">
        <Heading size="6">{TABLE.title}</Heading>
        {can('manageCollections') && (
          <Button onClick={() => setOpen(true)} data-testid="open-pay-offline">
            <PlusIcon /> ثبت دریافت دستی
          </Button>
        )}
      </Flex>
      <Card size="2">
        <Flex direction="column" gap="3">
          <Flex gap="3" wrap="wrap" align="end">
            <Flex direction="column" gap="1">
              <Text as="label" size="2" htmlFor="collections-source">
                نوع
              </Text>
              <Select.Root value={source} onValueChange={setSource}>
                <Select.Trigger id="collections-source" aria-label="نوع دریافت" />
                <Select.Content position="popper">
                  <Select.Item value={ALL}>همه</Select.Item>
                  <Select.Item value="online">آنلاین</Select.Item>
                  <Select.Item value="offline">دستی</Select.Item>
                </Select.Content>
              </Select.Root>
            </Flex>
            <Flex direction="column" gap="1" style={{ minWidth: 150 }}>
              <Text as="label" size="2" htmlFor="collections-from">
                از تاریخ
              </Text>
              <JalaliDateInput id="collections-from" value={from} onChange={setFrom} calendar={calendar} />
            </Flex>
            <Flex direction="column" gap="1" style={{ minWidth: 150 }}>
              <Text as="label" size="2" htmlFor="collections-to">
                تا تاریخ
              </Text>
              <JalaliDateInput id="collections-to" value={to} onChange={setTo} calendar={calendar} />
            </Flex>
          </Flex>
          <DataTable
            narrowed={Object.keys(def.source.params).length > 0}
            def={def}
            refreshKey={refreshKey}
            stackOnMobile
          />
        </Flex>
      </Card>
      {open && (
        <PayOfflineDialog
          onClose={() => setOpen(false)}
          onRecorded={() => {
            setRefresh((n) => n + 1);
            void queryClient.invalidateQueries({ queryKey: ['table', TABLE.name] });
            void queryClient.invalidateQueries({ queryKey: ['staff'] });
          }}
        />
      )}
    </Flex>
  );
}
