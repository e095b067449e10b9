import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LoginForm } from './LoginForm';

export default function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = params.get('next');
  return (
    <Flex justify="center">
      <Card size="3" style={{ width: '100%', maxWidth: 460 }} data-testid="login-page">
        <Heading size="5" mb="1">
          ورود به ارزپی
        </Heading>
        <Text as="p" size="2" color="gray" mb="4">
          با شماره موبایل وارد شوید؛ اگر حساب ندارید، با اولین ورود ساخته می‌شود.
        </Text>
        <LoginForm onDone={() => navigate(next?.startsWith('/') ? next : '/', { replace: true })} />
      </Card>
    </Flex>
  );
}
