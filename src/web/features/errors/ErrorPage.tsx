import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';

/** Shown for /errors, an unknown desk, and a page that failed to load. */
export default function ErrorPage() {
  return (
    <Flex justify="center" p="4">
      <Card size="3" style={{ maxWidth: 520, width: '100%' }} data-testid="error-page">
        <Flex direction="column" gap="3" align="start">
          <Heading size="6">صفحه‌ای که دنبالش بودید پیدا نشد</Heading>
          <Text color="gray">ممکن است نشانی اشتباه باشد یا این بخش دیگر وجود نداشته باشد.</Text>
          <Button asChild>
            <a href="/">بازگشت به خانه</a>
          </Button>
        </Flex>
      </Card>
    </Flex>
  );
}
