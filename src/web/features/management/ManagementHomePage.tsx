import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { pathOf, routeByName } from '../../app/routes';
import { accessAtom } from '../auth/session';

/** Staff home: the screens this user's actions open (from the server's access object). */
export default function ManagementHomePage() {
  const access = useAtomValue(accessAtom);
  const entries = access.menu.filter((name) => routeByName(name));
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">مدیریت</Heading>
      {entries.length === 0 ? (
        <Text color="gray">دسترسی مدیریتی برای شما تعریف نشده است.</Text>
      ) : (
        <div className="card-grid">
          {entries.map((name) => (
            <Link key={name} to={pathOf(name)} className="card-link">
              <Card size="2">
                <Text weight="medium">{routeByName(name)?.title}</Text>
              </Card>
            </Link>
          ))}
        </div>
      )}
    </Flex>
  );
}
