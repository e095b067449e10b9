/**
 * My account (/request/myAccount): the money, requests and profile summary of the wallet area above the auth
 * area's account card (who is signed in, password, sessions). Composed here because areas do not import each other.
 */
import { Flex } from '@radix-ui/themes';
import AccountPage from '../features/auth/AccountPage';
import { AccountSummary } from '../features/wallet/AccountSummary';

export default function MyAccountPage() {
  return (
    <Flex direction="column" gap="3" style={{ maxWidth: 'min(800px, 100%)', marginInline: 'auto', width: '100%' }}>
      <AccountSummary />
      <AccountPage />
    </Flex>
  );
}
