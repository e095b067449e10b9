import { HamburgerMenuIcon, HomeIcon, PersonIcon } from '@radix-ui/react-icons';
import { DropdownMenu, Flex, IconButton, Text } from '@radix-ui/themes';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ChangePasswordDialog } from '../auth/ChangePasswordDialog';
import { loginDialogOpenAtom, logout, userAtom } from '../auth/session';

/** Home button, the app's name, and a menu with change password (and log-in/log-out). */
export function TopBar({ onMenu }: { onMenu: () => void }) {
  const [passwordOpen, setPasswordOpen] = useState(false);
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginDialogOpenAtom);
  const navigate = useNavigate();
  return (
    <header
      style={{
        position: 'sticky',
        top: 0,
        zIndex: 40,
        background: 'var(--color-panel-solid)',
        borderBottom: '1px solid var(--gray-5)',
      }}
    >
      <Flex align="center" justify="between" px="3" py="2" gap="2" style={{ maxWidth: 1180, margin: '0 auto' }}>
        <Flex align="center" gap="2">
          <IconButton variant="ghost" size="3" onClick={onMenu} aria-label="باز کردن منو" data-testid="menu-button">
            <HamburgerMenuIcon width={22} height={22} />
          </IconButton>
          <IconButton variant="ghost" size="3" asChild aria-label="خانه">
            <Link to="/">
              <HomeIcon width={22} height={22} />
            </Link>
          </IconButton>
          <Text weight="bold" size="4" style={{ color: 'var(--accent-11)' }}>
            ارزپی
          </Text>
        </Flex>
        <DropdownMenu.Root>
          <DropdownMenu.Trigger>
            <IconButton variant="soft" size="3" aria-label="منوی کاربر" data-testid="user-menu">
              <PersonIcon width={20} height={20} />
            </IconButton>
          </DropdownMenu.Trigger>
          <DropdownMenu.Content align="start">
            {user ? (
              <>
                <DropdownMenu.Item onSelect={() => navigate('/request/myProfile')}>پروفایل من</DropdownMenu.Item>
                <DropdownMenu.Item onSelect={() => setPasswordOpen(true)}>تغییر رمز عبور</DropdownMenu.Item>
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
                <DropdownMenu.Item onSelect={() => setPasswordOpen(true)}>تغییر رمز عبور</DropdownMenu.Item>
              </>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Root>
      </Flex>
      <ChangePasswordDialog open={passwordOpen} onOpenChange={setPasswordOpen} />
    </header>
  );
}
