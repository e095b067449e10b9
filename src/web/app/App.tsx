import { DirectionProvider } from '@radix-ui/react-direction';
import { Theme } from '@radix-ui/themes';
import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import { useHydrateAtoms } from 'jotai/utils';
import { queryClientAtom } from 'jotai-tanstack-query';
import { type ReactNode, useEffect } from 'react';
import { createBrowserRouter, type RouteObject, RouterProvider } from 'react-router-dom';
import { queryClient } from '../lib/query';
import { routes } from '../lib/routes';
import { followOtherTabs, initSession } from '../lib/session';
import { keepSettledMark } from '../lib/settled-mark';
import { store } from '../lib/store';
import ErrorPage from '../features/errors/ErrorPage';
import { Guard } from './Guard';
import { PAGES } from './pages';
import { RouteError } from './RouteError';
import { Shell } from './Shell';

/** Every page, in the shell; the prerender (app/prerender.tsx) renders the same routes on a static router. */
export const appRoutes: RouteObject[] = [
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
      // An unknown address says so, in Persian, with a way home: the same page for guests and signed-in people.
      { path: '*', element: <ErrorPage kind="notFound" /> },
    ],
  },
];

let browserRouter: ReturnType<typeof createBrowserRouter> | undefined;

function HydrateQueryClient({ children }: { children: ReactNode }) {
  useHydrateAtoms([[queryClientAtom, queryClient]]);
  return <>{children}</>;
}

/** The app's state and theme around a router: the browser's here, a static one in the prerender. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <JotaiProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <HydrateQueryClient>
          {/* The root Theme provides direction 'ltr' to Radix primitives; ours, inside it, makes them RTL. */}
          <Theme accentColor="teal" grayColor="slate" radius="large" scaling="100%">
            <DirectionProvider dir="rtl">{children}</DirectionProvider>
          </Theme>
        </HydrateQueryClient>
      </QueryClientProvider>
    </JotaiProvider>
  );
}

/**
 * The browser's router, made once: start.tsx makes it in a task of its own before the first render (reading the
 * route table takes 70–150 ms at a 4× slower CPU), and the app renders with it.
 */
export function prepareRouter(): ReturnType<typeof createBrowserRouter> {
  browserRouter ??= createBrowserRouter(appRoutes);
  return browserRouter;
}

export function App() {
  const router = prepareRouter();
  useEffect(() => {
    void initSession();
    const stopSettledMark = keepSettledMark(queryClient, (listener) => router.subscribe(listener));
    const stopFollowing = followOtherTabs();
    return () => {
      stopSettledMark();
      stopFollowing();
    };
  }, [router]);
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
