import { Flex, Spinner } from '@radix-ui/themes';
import { useAtom } from 'jotai';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router-dom';
import { Breadcrumbs } from '../components/shell/Breadcrumbs';
import { LiveUpdates } from '../components/shell/LiveUpdates';
import { ProgressBar } from '../components/shell/ProgressBar';
import { Snackbar } from '../components/shell/snackbar';
import { useStaffNav } from '../components/shell/staff-nav-state';
import { TopBar } from '../components/shell/TopBar';
import { whenIdle } from '../lib/idle';
import { loginDialogOpenAtom } from '../lib/session';
import { pageShown } from '../lib/settled-mark';
import { replayEarlyClick } from '../lib/early-clicks';

// The drawer and the log-in form are not part of the first page: they load once it is idle, or when first opened.
const loadDrawer = () => import('../components/shell/Drawer');
const Drawer = lazy(() => loadDrawer().then((m) => ({ default: m.Drawer })));
const loadLoginDialog = () => import('../features/auth/LoginDialog');
const LoginDialog = lazy(() => loadLoginDialog().then((m) => ({ default: m.LoginDialog })));
// The top bar's user menu opens the auth area's change-password dialog, loaded when first opened.
// Staff pages only, and it carries the tooltip's positioning library (build/tooltip-provider-at-use.ts).
const StaffSideNav = lazy(() => import('../components/shell/StaffSideNav').then((m) => ({ default: m.StaffSideNav })));
const ChangePasswordDialog = lazy(() =>
  import('../features/auth/ChangePasswordDialog').then((m) => ({ default: m.ChangePasswordDialog })),
);

const DrawerFallback = () => (
  <>
    <div className="drawer-overlay" aria-hidden />
    <div className="drawer-panel" role="status" aria-label="در حال بارگذاری منو">
      <Flex justify="center" p="6">
        <Spinner size="3" />
      </Flex>
    </div>
  </>
);

export const PageFallback = () => (
  <Flex justify="center" p="6" role="status" aria-label="در حال بارگذاری">
    <Spinner size="3" />
  </Flex>
);

/**
 * Renders nothing. Its effect runs once the page beside it has hydrated: the page is lazy, so its boundary hydrates
 * after the rest of the app, and a tap replayed any earlier on one of its buttons would find no handler there yet.
 */
function ReplayEarlyClick() {
  useEffect(replayEarlyClick, []);
  return null;
}

/**
 * Renders nothing. Beside the page in its boundary, its effect runs once the page of the address is on screen (not
 * while the boundary or a move's transition still waits for it): the settled mark's `pageShown`.
 */
function PageShown() {
  const { pathname, search } = useLocation();
  useEffect(() => pageShown(pathname + search), [pathname, search]);
  return null;
}

/**
 * A new page opens at its top, as a page loaded from the server would: the router keeps the window's scroll, so the
 * desk came back mid-page after the customer saved their profile at its bottom. Back and forward (POP) leave the
 * browser's own restoring alone, and a change of the query alone (a table's filter or page) keeps the place.
 */
function useNewPageAtTop() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, navigationType]);
}

export function Shell() {
  useNewPageAtTop();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [loginOpen, setLoginOpen] = useAtom(loginDialogOpenAtom);
  const menuButton = useRef<HTMLButtonElement>(null);
  const staffNav = useStaffNav();
  const close = useCallback(() => {
    setDrawerOpen(false);
    // The header is inert while the drawer is open; give focus back once it is not.
    requestAnimationFrame(() => menuButton.current?.focus());
  }, []);
  useEffect(
    () =>
      whenIdle(() => {
        loadDrawer().catch(() => undefined);
        loadLoginDialog().catch(() => undefined);
      }),
    [],
  );
  return (
    <>
      <a href="#main" className="skip-link">
        رفتن به محتوای اصلی
      </a>
      <ProgressBar />
      <TopBar
        onMenu={() => setDrawerOpen(true)}
        inert={drawerOpen}
        menuButtonRef={menuButton}
        passwordDialog={ChangePasswordDialog}
      />
      {drawerOpen && (
        <Suspense fallback={<DrawerFallback />}>
          <Drawer onClose={close} />
        </Suspense>
      )}
      <div className="app-body" data-staff-nav={staffNav}>
        {staffNav !== 'none' && (
          <Suspense fallback={null}>
            <StaffSideNav />
          </Suspense>
        )}
        <main className="app-main" id="main" tabIndex={-1} inert={drawerOpen}>
          <Breadcrumbs />
          <Suspense fallback={<PageFallback />}>
            <Outlet />
            <ReplayEarlyClick />
            <PageShown />
          </Suspense>
        </main>
      </div>
      {loginOpen && (
        <Suspense fallback={null}>
          <LoginDialog open onOpenChange={setLoginOpen} />
        </Suspense>
      )}
      <Snackbar />
      <LiveUpdates />
    </>
  );
}
