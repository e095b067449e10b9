import { InfoCircledIcon } from '@radix-ui/react-icons';
import { Callout, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { matchPath, useNavigate, useSearchParams } from 'react-router-dom';
import { routes } from '../../lib/routes';
import { accessAtom } from '../../lib/session';
import { landingPath } from '../../lib/staff-pages';
import { store } from '../../lib/store';
import { LoginForm } from './LoginForm';

/** The page a guest was sent here from (`?next=`), if it is one of ours. */
function askedRoute(next: string | null) {
  if (!next?.startsWith('/')) return undefined;
  const pathname = next.split(/[?#]/, 1)[0] ?? next;
  return routes.find((r) => matchPath(r.path, pathname));
}

/**
 * Log-in. A guest sent here from a page that needs it is told which page and why; after log-in they go back to it,
 * and with nowhere asked for, staff land on their waiting work (the management home) and customers on home.
 */
export default function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = params.get('next');
  const asked = askedRoute(next);
  return (
    <Flex justify="center">
      <Card size="3" style={{ width: '100%', maxWidth: 460 }} data-testid="login-page">
        <Heading size="5" mb="1">
          ورود به ارزپی
        </Heading>
        {asked && (
          <Callout.Root color="blue" size="1" my="3" data-testid="login-why">
            <Callout.Icon>
              <InfoCircledIcon />
            </Callout.Icon>
            <Callout.Text>
              {asked.access === 'staff'
                ? `«${asked.title}» بخشی از مدیریت ارزپی و ویژهٔ کارکنان است؛ برای باز کردن آن با حساب کارکنان وارد شوید.`
                : `برای دیدن «${asked.title}» ابتدا وارد شوید؛ پس از ورود به همان صفحه برمی‌گردید.`}
            </Callout.Text>
          </Callout.Root>
        )}
        <Text as="p" size="2" color="gray" mb="4">
          با شماره موبایل وارد شوید؛ اگر حساب ندارید، با اولین ورود ساخته می‌شود.
        </Text>
        <LoginForm
          onDone={() => navigate(next?.startsWith('/') ? next : landingPath(store.get(accessAtom)), { replace: true })}
        />
      </Card>
    </Flex>
  );
}
