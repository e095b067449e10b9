import { DirectionProvider } from '@radix-ui/react-direction';
import { Theme } from '@radix-ui/themes';
import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import { useHydrateAtoms } from 'jotai/utils';
import { queryClientAtom } from 'jotai-tanstack-query';
import { type ReactNode, useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { queryClient } from '../lib/query';
import { routes } from '../lib/routes';
import { followOtherTabs, initSession } from '../lib/session';
import { store } from '../lib/store';
import { Guard, NotFoundRedirect } from './Guard';
import { PAGES } from './pages';
import { RouteError } from './RouteError';
import { Shell } from './Shell';

const router = createBrowserRouter([
  {
    element: <Shell />,
    errorElement: <RouteError />,
    children: [
      ...routes.map((route) => {
        const Page = PAGES[route.name];
        return {
          path: route.path,
          // Each route has its own error element, so a failed page keeps the shell around it.
          errorElement: <RouteError />,
          element: (
            <Guard route={route}>
              <Page />
            </Guard>
          ),
        };
      }),
      { path: '*', element: <NotFoundRedirect /> },
    ],
  },
]);

function HydrateQueryClient({ children }: { children: ReactNode }) {
  useHydrateAtoms([[queryClientAtom, queryClient]]);
  return <>{children}</>;
}

export function App() {
  useEffect(() => {
    void initSession();
    return followOtherTabs();
  }, []);
  return (
    <JotaiProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <HydrateQueryClient>
          {/* The root Theme provides direction 'ltr' to Radix primitives; ours, inside it, makes them RTL. */}
          <Theme accentColor="teal" grayColor="slate" radius="large" scaling="100%">
            <DirectionProvider dir="rtl">
              <RouterProvider router={router} />
            </DirectionProvider>
          </Theme>
        </HydrateQueryClient>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
