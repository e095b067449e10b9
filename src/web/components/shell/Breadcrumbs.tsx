/** Breadcrumbs from the route's parent chain; a desk shows its category and its own title. Also sets the tab title. */
import { Flex, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { type RouteAt, useCurrentRoute } from '../../lib/current-route';
import { type CatalogueData, catalogueAtom } from '../../lib/queries/catalogue';
import { type RouteDef, routeByName } from '../../lib/routes';

interface Crumb {
  title: string;
  /** Empty for the current page. */
  to: string;
}

const APP_NAME = 'ارزپی';

function crumbsOf(route: RouteDef, params: Record<string, string>, catalogue: CatalogueData | undefined): Crumb[] {
  const home: Crumb = { title: 'خانه', to: '/' };
  if (route.name === 'desk' || route.name === 'underConstructionDesk') {
    const desk = catalogue?.desks.find((d) => d.identifier === params.desk);
    const category = catalogue?.categories.find((c) => c.key === desk?.productCategory);
    return [
      home,
      ...(category ? [{ title: category.menuTitle, to: category.to }] : []),
      { title: desk?.title ?? route.title, to: '' },
    ];
  }
  if (route.name === 'servicesCategory') {
    const category = catalogue?.categories.find((c) => c.key === params.category);
    return [home, { title: 'خدمات', to: '/services' }, { title: category?.menuTitle ?? route.title, to: '' }];
  }
  const crumbs: Crumb[] = [];
  // Parents are parameterless routes, so their path is their address.
  for (let node: RouteDef | undefined = route; node; node = node.parent ? routeByName(node.parent) : undefined) {
    crumbs.unshift({ title: node.title, to: node === route ? '' : node.path });
  }
  return crumbs;
}

const isHomeAt = (current: RouteAt | null) => !current || current.route.name === 'dashboard';

function titleFrom(crumbs: Crumb[], isHome: boolean): string {
  const pageTitle = crumbs.at(-1)?.title;
  return isHome || !pageTitle ? `${APP_NAME} — پرداخت ارزی با ریال` : `${pageTitle} | ${APP_NAME}`;
}

/** The tab title of the page at `current`: the last crumb's, or the app's own on the home page. */
export function documentTitle(current: RouteAt | null, catalogue: CatalogueData | undefined): string {
  return titleFrom(current ? crumbsOf(current.route, current.params, catalogue) : [], isHomeAt(current));
}

export function Breadcrumbs() {
  const current = useCurrentRoute();
  const catalogue = useAtomValue(catalogueAtom).data;
  const crumbs = current ? crumbsOf(current.route, current.params, catalogue) : [];
  const isHome = isHomeAt(current);
  const title = titleFrom(crumbs, isHome);

  useEffect(() => {
    document.title = title;
  }, [title]);

  if (isHome) return null;
  return (
    <nav aria-label="مسیر صفحه">
      <Flex gap="2" align="center" wrap="wrap" mb="3" asChild>
        <ol className="breadcrumbs" data-testid="breadcrumbs">
          {crumbs.map((crumb, i) => (
            <li key={`${i}-${crumb.title}`}>
              {i > 0 && (
                <Text color="gray" aria-hidden>
                  ‹
                </Text>
              )}
              {crumb.to ? (
                <Link to={crumb.to}>
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
