import { Button, Card, Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import { useAtomValue, useSetAtom } from 'jotai';
import { PageDescription } from './PageDescription';
import { loginDialogOpenAtom, sessionReadyAtom, storedTokenAtom } from '../../lib/session';

/**
 * A customer page before its person is known, under the page's own heading (drawn where the page draws it, so the
 * page takes its place without moving): a guest is told to sign in and offered the log-in dialog; a browser holding
 * a session whose person is still being read is told the page is on its way, never asked to sign in again. The
 * signed-in frame the build prerenders for returning customers (build/prerender.ts) is this second state. A page
 * that says what it holds under its heading passes the same line here, so the frame shows it from the first paint.
 */
export function SignInPrompt({ title, description }: { title?: string; description?: string }) {
  const openLogin = useSetAtom(loginDialogOpenAtom);
  const stored = useAtomValue(storedTokenAtom);
  const ready = useAtomValue(sessionReadyAtom);
  const prompt =
    stored && !ready ? (
      <Flex justify="center" p="6" aria-busy="true" data-testid="signed-in-loading">
        <Spinner size="3" />
        <span className="visually-hidden">در حال بارگذاری…</span>
      </Flex>
    ) : (
      <Card size="3">
        <Flex direction="column" gap="3" align="start">
          <Text>کاربری در سیستم وارد نشده است.</Text>
          <Button onClick={() => openLogin(true)}>ورود</Button>
        </Flex>
      </Card>
    );
  if (!title) return prompt;
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">{title}</Heading>
      {description && <PageDescription>{description}</PageDescription>}
      {prompt}
    </Flex>
  );
}
