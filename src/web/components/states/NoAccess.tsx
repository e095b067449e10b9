import { LockClosedIcon } from '@radix-ui/react-icons';
import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { Link } from 'react-router-dom';

/** A page the signed-in person's actions do not open: said plainly, with a way home, instead of an empty page. */
export function NoAccess({ title }: { title: string }) {
  return (
    <Card size="3" data-testid="no-access" role="alert">
      <Flex direction="column" gap="3" align="start">
        <Flex align="center" gap="2">
          <LockClosedIcon width={22} height={22} aria-hidden />
          <Heading as="h1" size="5">
            دسترسی ندارید
          </Heading>
        </Flex>
        <Text>
          حساب شما اجازه دیدن بخش «{title}» را ندارد. اگر برای کارتان به آن نیاز دارید، از مدیر سامانه بخواهید دسترسی
          لازم را به شما بدهد.
        </Text>
        <Button asChild size="3">
          <Link to="/">بازگشت به خانه</Link>
        </Button>
      </Flex>
    </Card>
  );
}
