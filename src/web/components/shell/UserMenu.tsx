/**
 * The top bar's user menu (its own chunk: Radix menus and popper are not part of the first page). A guest is
 * offered log-in only; a signed-in person their profile, the management home when their actions open any staff
 * screen, change password and log-out.
 */
import { PersonIcon } from '@radix-ui/react-icons';
import { DropdownMenu, IconButton } from '@radix-ui/themes';
import { useAtomValue, useSetAtom } from 'jotai';
import { useNavigate } from 'react-router-dom';
import { staffPagesAtom } from '../../lib/policy';
import { pathOf } from '../../lib/routes';
import { loginDialogOpenAtom, logout, userAtom } from '../../lib/session';

export default function UserMenu({
  defaultOpen,
  onChangePassword,
}: {
  defaultOpen: boolean;
  onChangePassword: () => void;
}) {
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginDialogOpenAtom);
  const staffPages = useAtomValue(staffPagesAtom);
  const navigate = useNavigate();
  return (
    <DropdownMenu.Root dir="rtl" defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger>
        <IconButton variant="soft" size="3" aria-label="منوی کاربر" data-testid="user-menu">
          <PersonIcon width={20} height={20} />
        </IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content align="end" size="2" data-testid="user-menu-content">
        {user ? (
          <>
            <DropdownMenu.Label>{user.fullName || user.mobileNo || 'کاربر ارزپی'}</DropdownMenu.Label>
            <DropdownMenu.Item onSelect={() => navigate('/request/myProfile')}>پروفایل من</DropdownMenu.Item>
            <DropdownMenu.Item onSelect={() => navigate('/request/myAccount')}>حساب من و نشست‌ها</DropdownMenu.Item>
            {staffPages.length > 0 && (
              <DropdownMenu.Item onSelect={() => navigate(pathOf('management'))}>مدیریت</DropdownMenu.Item>
            )}
            <DropdownMenu.Item onSelect={onChangePassword}>تغییر رمز عبور</DropdownMenu.Item>
            <DropdownMenu.Separator />
            <DropdownMenu.Item
              color="red"
              onSelect={async () => {
                await logout();
                navigate('/');
              }}
            >
              خروج
            </DropdownMenu.Item>
          </>
        ) : (
          // A guest has no password to change: log-in is all this menu offers.
          <DropdownMenu.Item onSelect={() => openLogin(true)}>ورود</DropdownMenu.Item>
        )}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
