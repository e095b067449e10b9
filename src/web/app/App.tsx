import { DirectionProvider } from '@radix-ui/react-direction';
import { Theme } from '@radix-ui/themes';
import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import { useHydrateAtoms } from 'jotai/utils';
import { queryClientAtom } from 'jotai-tanstack-query';
import { type ReactNode, useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { initSession } from '../features/auth/session';
import ErrorPage from '../features/errors/ErrorPage';
import { queryClient } from '../lib/query';
import { store } from '../lib/store';
import { Guard, NotFoundRedirect } from './Guard';
import { routes } from './routes';
import { Shell } from './Shell';

const router = createBrowserRouter([
  {
    element: <Shell />,
    errorElement: <ErrorPage />,
    children: [
      ...routes.map((route) => ({
        path: route.path,
        element: (
          <Guard access={route.access}>
            <route.page />
          </Guard>
        ),
      })),
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
    // A lazy chunk that fails to load (e.g. after a deploy) raises preload-error; reload once to recover.
    const onPreloadError = () => {
      if (!sessionStorage.getItem('reloaded-after-preload-error')) {
        sessionStorage.setItem('reloaded-after-preload-error', '1');
        window.location.reload();
      }
    };
    window.addEventListener('vite:preloadError', onPreloadError);
    return () => window.removeEventListener('vite:preloadError', onPreloadError);
  }, []);
  return (
    <JotaiProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <HydrateQueryClient>
          <DirectionProvider dir="rtl">
            <Theme accentColor="teal" grayColor="slate" radius="large" scaling="100%">
              <RouterProvider router={router} />
            </Theme>
          </DirectionProvider>
        </HydrateQueryClient>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
