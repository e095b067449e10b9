import { HamburgerMenuIcon, HomeIcon, PersonIcon } from '@radix-ui/react-icons';
import { Flex, IconButton, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { type ComponentType, type Ref, startTransition, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { whenIdle } from '../../lib/idle';
import { userAtom } from '../../lib/session';
import { NotificationBell } from './NotificationBell';

const loadUserMenu = () => import('./UserMenu');
type UserMenuComponent = Awaited<ReturnType<typeof loadUserMenu>>['default'];

/** The dialog the user menu's "change password" opens; the app passes it in (it belongs to the auth area). */
export type PasswordDialog = ComponentType<{ open: boolean; onOpenChange: (open: boolean) => void }>;

/**
 * The user menu loads once the first page is idle. Until then a look-alike button stands in; pressing it
 * loads the menu and opens it. The real menu's button is another element, so the stand-in is not swapped out while
 * it has the focus (a keyboard user would lose their place to the page): the swap waits until the focus leaves it.
 */
function UserMenuSlot({ onChangePassword }: { onChangePassword: () => void }) {
  const [menu, setMenu] = useState<{ Menu: UserMenuComponent; open: boolean } | null>(null);
  const standInRef = useRef<HTMLButtonElement>(null);
  useEffect(
    () =>
      whenIdle(() => {
        void loadUserMenu().then(({ default: Menu }) => {
          // As a transition: the menu's first render (its Radix parts) in slices, beside whatever the page does.
          const swap = () => startTransition(() => setMenu((current) => current ?? { Menu, open: false }));
          const standIn = standInRef.current;
          if (standIn && document.activeElement === standIn) standIn.addEventListener('blur', swap, { once: true });
          else swap();
        });
      }),
    [],
  );
  if (menu) return <menu.Menu defaultOpen={menu.open} onChangePassword={onChangePassword} />;
  return (
    <IconButton
      ref={standInRef}
      variant="soft"
      size="3"
      aria-label="منوی کاربر"
      aria-haspopup="menu"
      data-testid="user-menu"
      onClick={() => void loadUserMenu().then(({ default: Menu }) => setMenu({ Menu, open: true }))}
    >
      <PersonIcon width={20} height={20} />
    </IconButton>
  );
}

/**
 * The drawer's menu button, the home button, the app's name, the notifications bell and the user menu (change
 * password, log-in/out).
 */
export function TopBar({
  onMenu,
  inert,
  menuButtonRef,
  passwordDialog: ChangePasswordDialog,
}: {
  onMenu: () => void;
  inert?: boolean;
  menuButtonRef?: Ref<HTMLButtonElement>;
  passwordDialog: PasswordDialog;
}) {
  const [passwordOpen, setPasswordOpen] = useState(false);
  const signedIn = useAtomValue(userAtom) !== null;
  return (
    <header className="app-header" inert={inert}>
      <Flex align="center" justify="between" px="3" py="2" gap="2" className="app-header-inner">
        <Flex align="center" gap="3">
          <IconButton
            ref={menuButtonRef}
            variant="ghost"
            size="3"
            onClick={onMenu}
            aria-label="باز کردن منو"
            aria-haspopup="dialog"
            data-testid="menu-button"
          >
            <HamburgerMenuIcon width={22} height={22} />
          </IconButton>
          <IconButton variant="ghost" size="3" asChild aria-label="خانه">
            <Link to="/">
              <HomeIcon width={22} height={22} />
            </Link>
          </IconButton>
          <Text weight="bold" size="5" className="app-name">
            ارزپی
          </Text>
        </Flex>
        <Flex align="center" gap="3">
          <NotificationBell />
          <UserMenuSlot onChangePassword={() => setPasswordOpen(true)} />
        </Flex>
      </Flex>
      {/* Only a signed-in person has a password to change (a log-out in another tab closes it too). */}
      {passwordOpen && signedIn && (
        <Suspense fallback={null}>
          <ChangePasswordDialog open onOpenChange={setPasswordOpen} />
        </Suspense>
      )}
    </header>
  );
}
