/** The error element of every route: a page chunk that failed to load, or a render error, inside the shell. */
import { useRouteError } from 'react-router-dom';
import ErrorPage from '../features/errors/ErrorPage';
import { ChunkLoadError } from '../lib/lazy-page';

export function RouteError() {
  const error = useRouteError();
  if (error instanceof ChunkLoadError) return <ErrorPage kind="loadFailed" />;
  console.error(error);
  return <ErrorPage kind="unexpected" />;
}
