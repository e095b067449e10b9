import { ExclamationTriangleIcon, HomeIcon, ReloadIcon } from '@radix-ui/react-icons';
import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';

export type ErrorKind = 'notFound' | 'loadFailed' | 'unexpected';

const TEXTS: Record<ErrorKind, { title: string; body: string }> = {
  notFound: {
    title: 'صفحه پیدا نشد',
    body: 'صفحه‌ای که دنبالش بودید وجود ندارد؛ ممکن است نشانی اشتباه باشد یا این بخش دیگر وجود نداشته باشد.',
  },
  loadFailed: {
    title: 'بارگذاری این صفحه ممکن نشد',
    body: 'اتصال اینترنت را بررسی کنید؛ اگر نسخه تازه‌ای از ارزپی منتشر شده باشد، بارگذاری دوباره آن را می‌آورد.',
  },
  unexpected: {
    title: 'خطایی در نمایش این صفحه رخ داد',
    body: 'خطایی در سیستم رخ داده است. لطفا به کنسول مراجعه نمایید.',
  },
};

/** Shown for /errors, an unknown address, an unknown desk or category, a page whose chunk failed to load, and a render error. */
export default function ErrorPage({ kind = 'notFound' }: { kind?: ErrorKind }) {
  const text = TEXTS[kind];
  return (
    <Flex justify="center" py="4">
      <Card size="3" style={{ maxWidth: 520, width: '100%' }} data-testid="error-page" data-kind={kind}>
        <Flex direction="column" gap="3" align="start">
          <ExclamationTriangleIcon width={32} height={32} color="var(--orange-9)" aria-hidden />
          <Heading as="h1" size="6">
            {text.title}
          </Heading>
          <Text color="gray" style={{ lineHeight: 1.9 }}>
            {text.body}
          </Text>
          <Flex gap="2" wrap="wrap">
            {/* A full page load: after a failed chunk, the app itself may be stale. */}
            <Button asChild size="3">
              <a href="/">
                <HomeIcon /> بازگشت به خانه
              </a>
            </Button>
            {kind !== 'notFound' && (
              <Button size="3" variant="soft" onClick={() => window.location.reload()}>
                <ReloadIcon /> بارگذاری دوباره
              </Button>
            )}
          </Flex>
        </Flex>
      </Card>
    </Flex>
  );
}
