/**
 * Named actions (permissions): add, edit and remove with a confirmation naming the groups that grant it.
 * An action the contract uses keeps its system name and cannot be removed (the server refuses both).
 */
import { PlusIcon } from '@radix-ui/react-icons';
import { Button, Card, Dialog, Flex, Heading, Strong, Text } from '@radix-ui/themes';
import { DialogActions } from '../../../components/DialogActions';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import actionForm from '../../../../../schemas/entryForms/action.json';
import actionValidators from '../../../../../src/generated/form-validators/action';
import actionsTable from '../../../../../schemas/tables/actions.json';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { asEntryForm, EntryForm, type FormData } from '../../../components/form-engine/EntryForm';
import { showSnackbar, USER_MODULE_TIMEOUT } from '../../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { ConfirmDialog } from './ConfirmDialog';
import { type Action, groupsQuery, invalidateAccess } from './queries';

const FORM = asEntryForm(actionForm, actionValidators);

function ActionDialog({ action, onClose }: { action: Action | null; onClose: () => void }) {
  const [data, setData] = useState<FormData>({
    name: action?.name || undefined,
    title: action?.title || undefined,
    description: action?.description || undefined,
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameLocked = Boolean(action?.usedByContract);

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await call(
        api.POST('/api/users/saveAction', {
          body: {
            ...(action ? { id: action.id } : {}),
            name: String(data.name),
            title: String(data.title).trim(),
            description: String(data.description ?? '').trim(),
          },
        }),
      );
      showSnackbar(action ? 'دسترسی ذخیره شد.' : 'دسترسی افزوده شد.', 'green', USER_MODULE_TIMEOUT);
      invalidateAccess();
      onClose();
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="min(520px, 92vw)">
        <Dialog.Title>{action ? `ویرایش دسترسی «${action.title}»` : 'افزودن دسترسی'}</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          گروه‌ها دسترسی‌ها را به اعضای خود می‌دهند.
        </Dialog.Description>
        <EntryForm
          form={FORM}
          idPrefix="action"
          formData={data}
          onChange={setData}
          onSubmit={() => void save()}
          uiSchema={
            nameLocked
              ? {
                  name: {
                    'ui:disabled': true,
                    'ui:help': 'سیستم از این دسترسی استفاده می‌کند؛ نام سیستمی آن تغییر نمی‌کند.',
                  },
                }
              : {}
          }
        >
          <DialogActions error={error} busy={busy} submitLabel={action ? 'ذخیره دسترسی' : 'افزودن دسترسی'} mt="3" />
        </EntryForm>
      </Dialog.Content>
    </Dialog.Root>
  );
}

type Open = { kind: 'add' } | { kind: 'edit' | 'remove'; action: Action };

export default function ActionsPage() {
  const groups = useQuery(groupsQuery);
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);
  const action = open && open.kind !== 'add' ? open.action : null;
  const granting = action ? (groups.data?.items ?? []).filter((g) => g.actions.includes(action.id)) : [];

  return (
    <Flex direction="column" gap="3">
      <Flex justify="between" align="center" gap="2" wrap="wrap">
        <Heading size="6">دسترسی‌ها</Heading>
        <Button onClick={() => setOpen({ kind: 'add' })}>
          <PlusIcon /> افزودن دسترسی
        </Button>
      </Flex>
      <Card size="2">
        <DataTable
          def={asTableDef(actionsTable)}
          actions={(row) => {
            const a = row as unknown as Action;
            return (
              <Flex gap="2" wrap="wrap">
                <Button
                  size="1"
                  variant="soft"
                  aria-label={`ویرایش دسترسی ${a.title}`}
                  onClick={() => setOpen({ kind: 'edit', action: a })}
                >
                  ویرایش
                </Button>
                {!a.usedByContract && (
                  <Button
                    size="1"
                    color="red"
                    variant="soft"
                    aria-label={`حذف دسترسی ${a.title}`}
                    onClick={() => setOpen({ kind: 'remove', action: a })}
                  >
                    حذف
                  </Button>
                )}
              </Flex>
            );
          }}
        />
      </Card>
      {open?.kind === 'add' && <ActionDialog action={null} onClose={close} />}
      {open?.kind === 'edit' && action && <ActionDialog action={action} onClose={close} />}
      {action && (
        <ConfirmDialog
          key={action.id}
          open={open?.kind === 'remove'}
          title="حذف دسترسی"
          confirmLabel="حذف شود"
          onConfirm={async () => {
            await call(api.POST('/api/users/removeAction', { body: { id: action.id } }));
            showSnackbar(`دسترسی «${action.title}» حذف شد.`, 'green', USER_MODULE_TIMEOUT);
            invalidateAccess();
          }}
          onClose={close}
        >
          <Flex direction="column" gap="2">
            <Text>
              دسترسی <Strong>«{action.title}»</Strong> <span className="ltr">({action.name})</span> حذف شود؟
            </Text>
            <Text>
              {granting.length > 0
                ? `گروه‌های ${granting.map((g) => `«${g.title}»`).join('، ')} آن را از دست می‌دهند.`
                : 'هیچ گروهی این دسترسی را ندارد.'}
            </Text>
          </Flex>
        </ConfirmDialog>
      )}
    </Flex>
  );
}
