import { Button, Card, Flex, Text } from '@radix-ui/themes';
import { useSetAtom } from 'jotai';
import { loginDialogOpenAtom } from '../../lib/session';

/** A customer page opened by a guest: says so and opens the log-in dialog. */
export function SignInPrompt() {
  const openLogin = useSetAtom(loginDialogOpenAtom);
  return (
    <Card size="3">
      <Flex direction="column" gap="3" align="start">
        <Text>کاربری در سیستم وارد نشده است.</Text>
        <Button onClick={() => openLogin(true)}>ورود</Button>
      </Flex>
    </Card>
  );
}
