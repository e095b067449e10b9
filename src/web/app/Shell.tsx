import { Box, Flex, Spinner } from '@radix-ui/themes';
import { useAtom } from 'jotai';
import { Suspense, useCallback, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { LoginDialog } from '../features/auth/LoginDialog';
import { loginDialogOpenAtom } from '../features/auth/session';
import { Breadcrumbs } from '../features/shell/Breadcrumbs';
import { Drawer } from '../features/shell/Drawer';
import { LiveUpdates } from '../features/shell/LiveUpdates';
import { ProgressBar } from '../features/shell/ProgressBar';
import { Snackbar } from '../features/shell/snackbar';
import { TopBar } from '../features/shell/TopBar';

export const PageFallback = () => (
  <Flex justify="center" p="6" aria-label="در حال بارگذاری">
    <Spinner size="3" />
  </Flex>
);

export function Shell() {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [loginOpen, setLoginOpen] = useAtom(loginDialogOpenAtom);
  const close = useCallback(() => setDrawerOpen(false), []);
  return (
    <>
      <ProgressBar />
      <TopBar onMenu={() => setDrawerOpen(true)} />
      <Drawer open={drawerOpen} onClose={close} />
      <Box asChild>
        <main className="app-main" id="main">
          <Breadcrumbs />
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </main>
      </Box>
      <LoginDialog open={loginOpen} onOpenChange={setLoginOpen} />
      <Snackbar />
      <LiveUpdates />
    </>
  );
}
