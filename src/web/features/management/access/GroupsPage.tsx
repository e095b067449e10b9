/**
 * Groups hold users and actions: add, edit (names, members, actions) and remove with a confirmation that says
 * how many members lose the group's actions. The administrators group keeps its system name and is never
 * removed (the server refuses both).
 */
import { PlusIcon } from '@radix-ui/react-icons';
import { Button, Card, CheckboxGroup, Dialog, Flex, Heading, Strong, Text } from '@radix-ui/themes';
import { DialogActions } from '../../../components/DialogActions';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import groupForm from '../../../../../schemas/entryForms/group.json';
import groupValidators from '../../../../../src/generated/form-validators/group';
import groupsTable from '../../../../../schemas/tables/groups.json';
import { formatNumber } from '../../../../shared/format';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { asEntryForm, EntryForm, type FormData } from '../../../components/form-engine/EntryForm';
import { showSnackbar, USER_MODULE_TIMEOUT } from '../../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { ConfirmDialog } from './ConfirmDialog';
import { actionsQuery, type Group, invalidateAccess, staffQuery } from './queries';

/** The seeded group every administrator belongs to (src/server/modules/access/menu.ts ADMIN_GROUP). */
const ADMIN_GROUP = 'administrators';
const FORM = asEntryForm(groupForm, groupValidators);

function GroupDialog({ group, onClose }: { group: Group | null; onClose: () => void }) {
  const actions = useQuery(actionsQuery);
  const staff = useQuery(staffQuery);
  const [data, setData] = useState<FormData>({ name: group?.name || undefined, title: group?.title || undefined });
  const [chosenActions, setChosenActions] = useState<string[]>((group?.actions ?? []).map(String));
  const [members, setMembers] = useState<string[]>((group?.users ?? []).map(String));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const isAdmin = group?.name === ADMIN_GROUP;

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const saved = await call<{ id: number }>(
        api.POST('/api/users/saveGroup', {
          body: { ...(group ? { id: group.id } : {}), name: String(data.name), title: String(data.title).trim() },
        }),
      );
      const id = saved.id;
      await call(api.POST('/api/users/saveGroupActions', { body: { id, actions: chosenActions.map(Number) } }));
      await call(api.POST('/api/users/saveGroupUsers', { body: { id, users: members.map(Number) } }));
      showSnackbar(group ? 'گروه ذخیره شد.' : 'گروه افزوده شد.', 'green', USER_MODULE_TIMEOUT);
      invalidateAccess();
      onClose();
    } catch (err) {
      // A part may have been saved (the group itself, say): show what the server has now.
      invalidateAccess();
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="min(760px, 94vw)">
        <Dialog.Title>{group ? `ویرایش گروه «${group.title}»` : 'افزودن گروه'}</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          اعضای گروه همه دسترسی‌های آن را دارند.
        </Dialog.Description>
        <EntryForm
          form={FORM}
          idPrefix="group"
          formData={data}
          onChange={setData}
          onSubmit={() => void save()}
          uiSchema={
            isAdmin ? { name: { 'ui:disabled': true, 'ui:help': 'نام سیستمی گروه مدیران تغییر نمی‌کند.' } } : {}
          }
        >
          <Flex direction="column" gap="3" mt="3">
            <Flex gap="5" wrap="wrap">
              <Flex direction="column" gap="2" style={{ flex: '1 1 260px' }}>
                <Text weight="bold" id="group-actions-label">
                  دسترسی‌ها
                </Text>
                {actions.isPending && <Text color="gray">در حال بارگذاری...</Text>}
                <CheckboxGroup.Root
                  value={chosenActions}
                  onValueChange={setChosenActions}
                  aria-labelledby="group-actions-label"
                >
                  {(actions.data?.items ?? []).map((a) => (
                    <CheckboxGroup.Item key={a.id} value={String(a.id)}>
                      {a.title}
                    </CheckboxGroup.Item>
                  ))}
                </CheckboxGroup.Root>
              </Flex>
              <Flex direction="column" gap="2" style={{ flex: '1 1 200px' }}>
                <Text weight="bold" id="group-members-label">
                  اعضا (کارمندان)
                </Text>
                {staff.isPending && <Text color="gray">در حال بارگذاری...</Text>}
                <CheckboxGroup.Root value={members} onValueChange={setMembers} aria-labelledby="group-members-label">
                  {(staff.data?.items ?? []).map((u) => (
                    <CheckboxGroup.Item key={u.id} value={String(u.id)}>
                      {u.name}
                      {!u.isActive && (
                        <Text color="gray" size="1">
                          {' '}
                          (غیرفعال)
                        </Text>
                      )}
                    </CheckboxGroup.Item>
                  ))}
                </CheckboxGroup.Root>
              </Flex>
            </Flex>
            <DialogActions
              error={error}
              busy={busy}
              submitDisabled={!actions.data || !staff.data}
              submitLabel={group ? 'ذخیره گروه' : 'افزودن گروه'}
            />
          </Flex>
        </EntryForm>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** What removing the group takes from its members, in a sentence. */
function removalEffect(group: Group): string {
  const members = formatNumber(group.users.length);
  const actions = formatNumber(group.actions.length);
  if (group.users.length === 0) return 'این گروه عضوی ندارد.';
  if (group.actions.length === 0) return `${members} عضو این گروه از آن بیرون می‌روند؛ این گروه دسترسی‌ای نمی‌دهد.`;
  return `${members} عضو این گروه ${actions} دسترسی آن را از دست می‌دهند (مگر گروه دیگری همان را بدهد).`;
}

type Open = { kind: 'add' } | { kind: 'edit' | 'remove'; group: Group };

export default function GroupsPage() {
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);
  const group = open && open.kind !== 'add' ? open.group : null;

  return (
    <Flex direction="column" gap="3">
      <Flex justify="between" align="center" gap="2" wrap="wrap">
        <Heading size="6">گروه‌ها</Heading>
        <Button onClick={() => setOpen({ kind: 'add' })}>
          <PlusIcon /> افزودن گروه
        </Button>
      </Flex>
      <Card size="2">
        <DataTable
          def={asTableDef(groupsTable)}
          actions={(row) => {
            const g = row as unknown as Group;
            return (
              <Flex gap="2" wrap="wrap">
                <Button
                  size="1"
                  variant="soft"
                  aria-label={`ویرایش گروه ${g.title}`}
                  onClick={() => setOpen({ kind: 'edit', group: g })}
                >
                  ویرایش
                </Button>
                {g.name !== ADMIN_GROUP && (
                  <Button
                    size="1"
                    variant="soft"
                    color="red"
                    aria-label={`حذف گروه ${g.title}`}
                    onClick={() => setOpen({ kind: 'remove', group: g })}
                  >
                    حذف
                  </Button>
                )}
              </Flex>
            );
          }}
        />
      </Card>
      {open?.kind === 'add' && <GroupDialog group={null} onClose={close} />}
      {open?.kind === 'edit' && group && <GroupDialog group={group} onClose={close} />}
      {group && (
        <ConfirmDialog
          key={group.id}
          open={open?.kind === 'remove'}
          title="حذف گروه"
          confirmLabel="حذف شود"
          onConfirm={async () => {
            await call(api.POST('/api/users/removeGroup', { body: { id: group.id } }));
            showSnackbar(`گروه «${group.title}» حذف شد.`, 'green', USER_MODULE_TIMEOUT);
            invalidateAccess();
          }}
          onClose={close}
        >
          <Flex direction="column" gap="2">
            <Text>
              گروه <Strong>«{group.title}»</Strong> حذف شود؟
            </Text>
            <Text>{removalEffect(group)}</Text>
            <Text color="gray">حساب اعضا و دسترسی‌ها خودشان حذف نمی‌شوند؛ این کار در سابقه تغییرات ثبت می‌شود.</Text>
          </Flex>
        </ConfirmDialog>
      )}
    </Flex>
  );
}
