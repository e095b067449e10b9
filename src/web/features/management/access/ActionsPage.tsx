/**
 * Named actions (permissions): add, edit and remove with a confirmation naming the groups that grant it.
 * An action the contract uses keeps its system name and cannot be removed (the server refuses both).
 */
import { PlusIcon } from '@radix-ui/react-icons';
import { Button, Card, Dialog, Flex, Heading, Strong, Text, TextArea } from '@radix-ui/themes';
import { DialogActions } from '../../../components/DialogActions';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import actionsTable from '../../../../../schemas/tables/actions.json';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { FormField } from '../../../components/FormField';
import { showSnackbar } from '../../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { ConfirmDialog } from './ConfirmDialog';
import { type Action, groupsQuery, invalidateAccess } from './queries';

const SYSTEM_NAME = /^[a-z][A-Za-z0-9]{1,49}$/;

function ActionDialog({ action, onClose }: { action: Action | null; onClose: () => void }) {
  const [name, setName] = useState(action?.name ?? '');
  const [title, setTitle] = useState(action?.title ?? '');
  const [description, setDescription] = useState(action?.description ?? '');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameLocked = Boolean(action?.usedByContract);

  const nameError = SYSTEM_NAME.test(name) ? null : 'حروف لاتین و رقم، با حرف کوچک آغاز شود (مثلا viewReports).';
  const titleError = title.trim() ? (title.length > 100 ? 'حداکثر ۱۰۰ حرف.' : null) : 'عنوان را وارد نمایید.';
  const descriptionError = description.length > 500 ? 'حداکثر ۵۰۰ حرف.' : null;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (nameError || titleError || descriptionError) return;
    setBusy(true);
    setError(null);
    try {
      await call(
        api.POST('/api/users/saveAction', {
          body: { ...(action ? { id: action.id } : {}), name, title: title.trim(), description: description.trim() },
        }),
      );
      showSnackbar(action ? 'دسترسی ذخیره شد.' : 'دسترسی افزوده شد.', 'green');
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
        <form onSubmit={(e) => void save(e)} noValidate>
          <Flex direction="column" gap="3">
            <FormField
              id="action-title"
              label="عنوان"
              value={title}
              onChange={setTitle}
              error={touched ? titleError : null}
            />
            <FormField
              id="action-name"
              label="نام سیستمی (لاتین)"
              dir="ltr"
              value={name}
              onChange={setName}
              disabled={nameLocked}
              error={touched || name ? nameError : null}
              hint={nameLocked ? 'سیستم از این دسترسی استفاده می‌کند؛ نام سیستمی آن تغییر نمی‌کند.' : undefined}
            />
            <Flex direction="column" gap="1">
              <label htmlFor="action-description">
                <Text size="2" weight="medium">
                  توضیح (اختیاری)
                </Text>
              </label>
              <TextArea
                id="action-description"
                value={description}
                onChange={(e) => setDescription(e.target.value)}
                aria-invalid={Boolean(descriptionError)}
              />
              {descriptionError && (
                <Text size="1" color="red" role="alert">
                  {descriptionError}
                </Text>
              )}
            </Flex>
            <DialogActions error={error} busy={busy} submitLabel={action ? 'ذخیره دسترسی' : 'افزودن دسترسی'} />
          </Flex>
        </form>
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
            showSnackbar(`دسترسی «${action.title}» حذف شد.`, 'green');
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
