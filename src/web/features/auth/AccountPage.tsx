/**
 * My account (/request/myAccount, SPEC section 2: the customer's account): who is signed in, the password
 * (change it, with proof), and the sessions of this account, each of which can be ended.
 */
import { LockClosedIcon } from '@radix-ui/react-icons';
import { SignInPrompt } from '../../components/states/SignInPrompt';
import { Button, Card, DataList, Flex, Heading, Separator, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { formatPhone, toPersianDigits } from '../../../shared/format';
import { userAtom } from '../../lib/session';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { SessionsPanel } from './SessionsPanel';

export default function AccountPage() {
  const user = useAtomValue(userAtom);
  const [passwordOpen, setPasswordOpen] = useState(false);

  if (!user) return <SignInPrompt />;
  return (
    <Card size="3" style={{ maxWidth: 'min(800px, 100%)', marginInline: 'auto' }} data-testid="account">
      <Flex direction="column" gap="4">
        <Heading size="5">حساب من</Heading>
        <DataList.Root orientation={{ initial: 'vertical', sm: 'horizontal' }}>
          <DataList.Item>
            <DataList.Label>نام</DataList.Label>
            <DataList.Value>{user.fullName ?? '—'}</DataList.Value>
          </DataList.Item>
          {user.mobileNo && (
            <DataList.Item>
              <DataList.Label>شماره موبایل</DataList.Label>
              <DataList.Value>
                <span className="ltr" data-testid="account-mobile">
                  {toPersianDigits(formatPhone(user.mobileNo))}
                </span>
              </DataList.Value>
            </DataList.Item>
          )}
          <DataList.Item>
            <DataList.Label>رمز عبور</DataList.Label>
            <DataList.Value>
              <Flex gap="3" align="center" wrap="wrap">
                <Text data-testid="password-state">{user.hasPassword ? 'تعیین شده' : 'تعیین نشده'}</Text>
                <Button
                  size="2"
                  variant="soft"
                  onClick={() => setPasswordOpen(true)}
                  data-testid="open-change-password"
                >
                  <LockClosedIcon />
                  {user.hasPassword ? 'تغییر رمز عبور' : 'تعیین رمز عبور'}
                </Button>
              </Flex>
            </DataList.Value>
          </DataList.Item>
        </DataList.Root>
        <Separator size="4" />
        <SessionsPanel />
      </Flex>
      {passwordOpen && <ChangePasswordDialog open onOpenChange={setPasswordOpen} />}
    </Card>
  );
}
