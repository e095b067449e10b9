import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { Link } from 'react-router-dom';
import { useCurrentRoute } from '../../lib/current-route';

/** An honest page for an area that is not built yet: it is routed, guarded and breadcrumbed like the rest. */
export default function UnderConstructionPage() {
  const current = useCurrentRoute();
  return (
    <Card size="3" data-testid="under-construction">
      <Flex direction="column" gap="3" align="start">
        <Heading size="5">{current?.route.title ?? 'این بخش'}</Heading>
        <Text color="gray">این بخش در دست ساخت است و به‌زودی در دسترس قرار می‌گیرد.</Text>
        <Button asChild variant="soft">
          <Link to="/">بازگشت به خانه</Link>
        </Button>
      </Flex>
    </Card>
  );
}
