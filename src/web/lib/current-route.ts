/** The route table's entry for the address shown, and its parameters (breadcrumbs, page titles). */
import { matchPath, useLocation } from 'react-router-dom';
import { type RouteDef, routes } from './routes';

export function useCurrentRoute(): { route: RouteDef; params: Record<string, string> } | null {
  const { pathname } = useLocation();
  for (const route of routes) {
    const match = matchPath(route.path, pathname);
    if (match) return { route, params: match.params as Record<string, string> };
  }
  return null;
}
