/**
 * The company's Google Ads manager (MCC) panels for staff (manageGoogleMccAccounts) on the data-table engine
 * (schemas/tables/googleMccAccounts.json): search, export, «افزودن پنل» and «ویرایش» through
 * schemas/entryForms/googleMccAccount.json.
 */
import { Button, Card, Dialog, Flex, Heading } from '@radix-ui/themes';
import { useState } from 'react';
import mccFormJson from '../../../../../schemas/entryForms/googleMccAccount.json';
import googleMccAccountValidators from '../../../../../src/generated/form-validators/googleMccAccount';
import mccTable from '../../../../../schemas/tables/googleMccAccounts.json';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { DialogActions } from '../../../components/DialogActions';
import { asEntryForm, EntryForm, type FormData } from '../../../components/form-engine/EntryForm';
import { showSnackbar } from '../../../components/shell/snackbar';
import { digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import {
  decorateGoogleAdsRows,
  type SaveGoogleMccAccountInput,
  saveGoogleMccAccount,
} from '../../../lib/queries/google-ads';

const MCC_FORM = asEntryForm(mccFormJson, googleMccAccountValidators);
const def = asTableDef(mccTable);

function MccDialog({ initial, onClose }: { initial: FormData | null; onClose: (changed: boolean) => void }) {
  const [data, setData] = useState<FormData>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<FormData | null>(null);
  if (initial !== shown) {
    setShown(initial);
    setData(initial ?? {});
    setError(null);
  }
  const submit = async (values: FormData) => {
    setBusy(true);
    setError(null);
    try {
      const body = Object.fromEntries(
        Object.entries({ ...values, id: initial?.id }).filter(([, v]) => v !== undefined && v !== null && v !== ''),
      ) as SaveGoogleMccAccountInput;
      showSnackbar(await saveGoogleMccAccount(body), 'green');
      onClose(true);
    } catch (e) {
      setError(digMessage(e) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root open={initial !== null} onOpenChange={(o) => !o && onClose(false)}>
      <Dialog.Content maxWidth="min(560px, 92vw)" data-testid="mcc-dialog">
        <Dialog.Title>{initial?.id ? 'ویرایش پنل مدیریت' : 'افزودن پنل مدیریت'}</Dialog.Title>
        <EntryForm form={MCC_FORM} idPrefix="mcc" formData={data} onChange={setData} onSubmit={(d) => void submit(d)}>
          <DialogActions mt="4" error={error} busy={busy} submitLabel="ذخیره" submitTestId="mcc-save" />
        </EntryForm>
      </Dialog.Content>
    </Dialog.Root>
  );
}

export default function GoogleMccAccountsPage() {
  const [editing, setEditing] = useState<FormData | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  return (
    <Flex direction="column" gap="3">
      <Flex justify="between" align="center">
        <Heading size="6">پنل‌های مدیریت تبلیغات</Heading>
        <Button onClick={() => setEditing({ status: 'active' })} data-testid="mcc-add">
          افزودن پنل
        </Button>
      </Flex>
      <Card size="2">
        <DataTable
          def={def}
          decorate={decorateGoogleAdsRows}
          stackOnMobile
          refreshKey={refreshKey}
          actions={(row) => (
            <Button
              size="1"
              variant="soft"
              onClick={() =>
                setEditing({
                  id: row.id,
                  title: row.title,
                  googleCustomerId: row.googleCustomerId,
                  currency: row.currencyId,
                  status: row.status,
                  notes: row.notes ?? undefined,
                })
              }
              data-testid={`mcc-edit-${String(row.id)}`}
            >
              ویرایش
            </Button>
          )}
        />
      </Card>
      <MccDialog
        initial={editing}
        onClose={(changed) => {
          setEditing(null);
          if (changed) setRefreshKey((k) => k + 1);
        }}
      />
    </Flex>
  );
}
