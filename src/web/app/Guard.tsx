/**
 * The two guards of SPEC section 2: a login route without a stored token goes to /login; a protected
 * route whose in-memory token is unset (the stored one was not confirmed) goes to /. Guests only: /login
 * with a token goes to /. A staff route is a login route that the server's access menu must also name;
 * otherwise it shows the Persian no-access state.
 */
import { Flex, Spinner } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { NoAccess } from '../components/states/NoAccess';
import type { RouteDef } from '../lib/routes';
import { accessAtom, memoryTokenAtom, sessionReadyAtom, storedTokenAtom } from '../lib/session';
import { canOpenStaffRoute } from '../lib/staff-pages';

export function Guard({ route, children }: { route: RouteDef; children: ReactNode }) {
  const stored = useAtomValue(storedTokenAtom);
  const memory = useAtomValue(memoryTokenAtom);
  const ready = useAtomValue(sessionReadyAtom);
  const userAccess = useAtomValue(accessAtom);
  const location = useLocation();
  const { access } = route;
  if (access === 'guest' && stored) return <Navigate to="/" replace />;
  if (access === 'login' || access === 'staff') {
    if (!stored) return <Navigate to={`/login?next=${encodeURIComponent(location.pathname)}`} replace />;
    if (!ready) {
      return (
        <Flex justify="center" p="6">
          <Spinner size="3" />
        </Flex>
      );
    }
    if (!memory) return <Navigate to="/" replace />;
    if (access === 'staff' && !canOpenStaffRoute(userAccess, route.name)) return <NoAccess title={route.title} />;
  }
  return <>{children}</>;
}
