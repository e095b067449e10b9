/** The route table's entry for the address shown, and its parameters (breadcrumbs, page titles). */
import { matchPath, useLocation } from 'react-router-dom';
import { type RouteDef, routes } from './routes';

export interface RouteAt {
  route: RouteDef;
  params: Record<string, string>;
}

export function useCurrentRoute(): RouteAt | null {
  return routeAt(useLocation().pathname);
}

/** The route table's entry for `pathname` (also for the build's prerender, which has no browser location). */
export function routeAt(pathname: string): RouteAt | null {
  for (const route of routes) {
    const match = matchPath(route.path, pathname);
    if (match) return { route, params: match.params as Record<string, string> };
  }
  return null;
}
