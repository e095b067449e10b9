/**
 * Users: search every account, add one, and per row everything the contract offers staff — edit, groups,
 * password reset, notes (metaData), deactivate (with a confirmation) and reactivate. Nothing is deleted.
 */
import { DotsHorizontalIcon, PlusIcon } from '@radix-ui/react-icons';
import { Button, Card, DropdownMenu, Flex, Heading } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import usersTable from '../../../../../schemas/tables/users.json';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { showError, showSnackbar, USER_MODULE_TIMEOUT } from '../../../components/shell/snackbar';
import { api, call } from '../../../lib/api-client';
import { userAtom } from '../../../lib/session';
import { ConfirmDialog } from './ConfirmDialog';
import { DeactivationText } from './DeactivationText';
import { PasswordResetDialog } from './PasswordResetDialog';
import { invalidateAccess, type UserSummary } from './queries';
import { UserEditDialog } from './UserEditDialog';
import { UserGroupsDialog } from './UserGroupsDialog';
import { UserNotesDialog } from './UserNotesDialog';

type Kind = 'edit' | 'groups' | 'password' | 'notes' | 'deactivate';
type Open = { kind: 'add' } | { kind: Kind; user: UserSummary };

async function reactivate(user: UserSummary) {
  try {
    await call(
      api.POST('/api/users/saveUser', {
        body: { id: user.id, mobileNo: user.mobileNo ?? '', isStaff: user.isStaff, isActive: true },
      }),
    );
    showSnackbar(`حساب «${user.name}» دوباره فعال شد.`, 'green', USER_MODULE_TIMEOUT);
    invalidateAccess();
  } catch (error) {
    showError(error);
  }
}

function RowMenu({ user, self, onOpen }: { user: UserSummary; self: boolean; onOpen: (kind: Kind) => void }) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger>
        <Button size="1" variant="soft" aria-label={`عملیات کاربر ${user.name}`}>
          <DotsHorizontalIcon /> عملیات
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        <DropdownMenu.Item onSelect={() => onOpen('edit')}>ویرایش</DropdownMenu.Item>
        <DropdownMenu.Item onSelect={() => onOpen('groups')}>گروه‌ها</DropdownMenu.Item>
        {!self && <DropdownMenu.Item onSelect={() => onOpen('password')}>تغییر رمز عبور</DropdownMenu.Item>}
        <DropdownMenu.Item onSelect={() => onOpen('notes')}>یادداشت‌ها</DropdownMenu.Item>
        {!self && <DropdownMenu.Separator />}
        {!self &&
          (user.isActive ? (
            <DropdownMenu.Item color="red" onSelect={() => onOpen('deactivate')}>
              غیرفعال کردن
            </DropdownMenu.Item>
          ) : (
            <DropdownMenu.Item color="green" onSelect={() => void reactivate(user)}>
              فعال کردن دوباره
            </DropdownMenu.Item>
          ))}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

export default function UsersPage() {
  const me = useAtomValue(userAtom);
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);
  const user = open && open.kind !== 'add' ? open.user : null;

  return (
    <Flex direction="column" gap="3">
      <Flex justify="between" align="center" gap="2" wrap="wrap">
        <Heading size="6">کاربران</Heading>
        <Button onClick={() => setOpen({ kind: 'add' })}>
          <PlusIcon /> افزودن کاربر
        </Button>
      </Flex>
      <Card size="2">
        <DataTable
          def={asTableDef(usersTable)}
          actions={(row) => {
            const u = row as unknown as UserSummary;
            return <RowMenu user={u} self={u.id === me?.id} onOpen={(kind) => setOpen({ kind, user: u })} />;
          }}
        />
      </Card>
      {open?.kind === 'add' && <UserEditDialog user={null} self={false} onClose={close} />}
      {open?.kind === 'edit' && user && <UserEditDialog user={user} self={user.id === me?.id} onClose={close} />}
      {open?.kind === 'groups' && user && <UserGroupsDialog user={user} onClose={close} />}
      {open?.kind === 'password' && user && <PasswordResetDialog user={user} onClose={close} />}
      {open?.kind === 'notes' && user && <UserNotesDialog user={user} onClose={close} />}
      {user && (
        <ConfirmDialog
          key={user.id}
          open={open?.kind === 'deactivate'}
          title="غیرفعال کردن حساب"
          confirmLabel="غیرفعال شود"
          onConfirm={async () => {
            await call(api.POST('/api/users/removeUser', { body: { id: user.id } }));
            showSnackbar(`حساب «${user.name}» غیرفعال شد.`, 'green', USER_MODULE_TIMEOUT);
            invalidateAccess();
          }}
          onClose={close}
        >
          <DeactivationText user={user} />
        </ConfirmDialog>
      )}
    </Flex>
  );
}
