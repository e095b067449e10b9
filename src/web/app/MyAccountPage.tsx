/**
 * My account (/request/myAccount): the money, requests and profile summary of the wallet area above the auth
 * area's account card (who is signed in, password, sessions), then the notifications area's choices per kind and
 * channel. Composed here because areas do not import each other.
 */
import { Flex } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import AccountPage from '../features/auth/AccountPage';
import { NotificationPreferences } from '../features/notifications/NotificationPreferences';
import { userAtom } from '../lib/session';
import { AccountSummary } from '../features/wallet/AccountSummary';

export default function MyAccountPage() {
  const signedIn = useAtomValue(userAtom) !== null;
  return (
    <Flex direction="column" gap="3" style={{ maxWidth: 'min(800px, 100%)', marginInline: 'auto', width: '100%' }}>
      <AccountSummary />
      <AccountPage />
      {signedIn && <NotificationPreferences />}
    </Flex>
  );
}
