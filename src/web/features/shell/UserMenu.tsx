/** The top bar's user menu (its own chunk: Radix menus and popper are not part of the first page). */
import { PersonIcon } from '@radix-ui/react-icons';
import { DropdownMenu, IconButton } from '@radix-ui/themes';
import { useAtomValue, useSetAtom } from 'jotai';
import { useNavigate } from 'react-router-dom';
import { loginDialogOpenAtom, logout, userAtom } from '../auth/session';

export default function UserMenu({
  defaultOpen,
  onChangePassword,
}: {
  defaultOpen: boolean;
  onChangePassword: () => void;
}) {
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginDialogOpenAtom);
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
          <>
            <DropdownMenu.Item onSelect={() => openLogin(true)}>ورود</DropdownMenu.Item>
            <DropdownMenu.Item onSelect={onChangePassword}>تغییر رمز عبور</DropdownMenu.Item>
          </>
        )}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
