/** Breadcrumbs from the route's parent chain; a desk shows its category and its own title. */
import { Flex, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { Link, matchPath, useLocation } from 'react-router-dom';
import { pathOf, type RouteDef, routeByName, routes } from '../../app/routes';
import { catalogueAtom } from '../catalogue/catalogue-query';

interface Crumb {
  title: string;
  to: string;
}

export function useCurrentRoute(): { route: RouteDef; params: Record<string, string> } | null {
  const { pathname } = useLocation();
  for (const route of routes) {
    const match = matchPath(route.path, pathname);
    if (match) return { route, params: match.params as Record<string, string> };
  }
  return null;
}

export function Breadcrumbs() {
  const current = useCurrentRoute();
  const catalogue = useAtomValue(catalogueAtom).data;
  if (!current || current.route.name === 'dashboard') return null;
  const crumbs: Crumb[] = [];
  const { route, params } = current;
  if (route.name === 'desk' || route.name === 'underConstructionDesk') {
    const desk = catalogue?.desks.find((d) => d.identifier === params.desk);
    const category = catalogue?.categories.find((c) => c.key === desk?.productCategory);
    crumbs.push({ title: 'خانه', to: '/' });
    if (category) crumbs.push({ title: category.menuTitle, to: category.to });
    crumbs.push({ title: desk?.title ?? route.title, to: '' });
  } else if (route.name === 'servicesCategory') {
    const category = catalogue?.categories.find((c) => c.key === params.category);
    crumbs.push(
      { title: 'خانه', to: '/' },
      { title: 'خدمات', to: '/services' },
      { title: category?.menuTitle ?? route.title, to: '' },
    );
  } else {
    let node: RouteDef | undefined = route;
    while (node) {
      crumbs.unshift({ title: node.title, to: node === route ? '' : pathOf(node.name) });
      node = node.parent ? routeByName(node.parent) : undefined;
    }
  }
  return (
    <nav aria-label="مسیر صفحه">
      <Flex gap="2" align="center" wrap="wrap" mb="3" asChild>
        <ol style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="breadcrumbs">
          {crumbs.map((crumb, i) => (
            <li key={crumb.title} style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
              {i > 0 && (
                <Text color="gray" aria-hidden>
                  ‹
                </Text>
              )}
              {crumb.to ? (
                <Link to={crumb.to} style={{ color: 'var(--accent-11)', textDecoration: 'none' }}>
                  <Text size="2">{crumb.title}</Text>
                </Link>
              ) : (
                <Text size="2" weight="bold" aria-current="page">
                  {crumb.title}
                </Text>
              )}
            </li>
          ))}
        </ol>
      </Flex>
    </nav>
  );
}
