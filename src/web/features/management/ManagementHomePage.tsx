import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { staffPagesAtom } from '../../lib/policy';
import { pathOf } from '../../lib/routes';

/**
 * Staff home: one tile per screen this person's actions open (from the server's access object). The route
 * guard shows the no-access state to anyone with none, so this page always has tiles.
 */
export default function ManagementHomePage() {
  const pages = useAtomValue(staffPagesAtom);
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">مدیریت</Heading>
      <div className="card-grid" data-testid="management-tiles">
        {pages.map((page) => (
          <Link key={page.menu} to={pathOf(page.route)} className="card-link">
            <Card size="2">
              <Text weight="medium">{page.title}</Text>
            </Card>
          </Link>
        ))}
      </div>
    </Flex>
  );
}
