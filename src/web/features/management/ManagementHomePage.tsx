import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { type RouteDef, routeByName } from '../../app/routes';
import { accessAtom } from '../auth/session';

/** Staff home: the screens this user's actions open (from the server's access object). */
export default function ManagementHomePage() {
  const access = useAtomValue(accessAtom);
  const entries = access.menu.map(routeByName).filter((route): route is RouteDef => Boolean(route));
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">مدیریت</Heading>
      {entries.length === 0 ? (
        <Text color="gray">دسترسی مدیریتی برای شما تعریف نشده است.</Text>
      ) : (
        <div className="card-grid">
          {entries.map((route) => (
            <Link key={route.name} to={route.path} className="card-link">
              <Card size="2">
                <Text weight="medium">{route.title}</Text>
              </Card>
            </Link>
          ))}
        </div>
      )}
    </Flex>
  );
}
