/** Change password (English labels, as SPEC section 2 gives them); the server's message shows green or red. */
import { Button, Dialog, Flex, Text, TextField } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { api, call, digMessage } from '../../lib/api-client';
import { showSnackbar } from '../shell/snackbar';
import { userAtom } from './session';

export function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const user = useAtomValue(userAtom);
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const error = touched && !password ? 'Required' : null;

  const save = async () => {
    setTouched(true);
    if (!password) return;
    setBusy(true);
    try {
      await call(api.POST('/api/me/changePassword', { body: { password } }));
      showSnackbar('رمز عبور با موفقیت تغییر کرد.', 'green');
      setPassword('');
      setTouched(false);
      onOpenChange(false);
    } catch (e) {
      showSnackbar(digMessage(e) ?? 'Error', 'red');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="420px" dir="ltr" style={{ textAlign: 'left' }}>
        <Dialog.Title>Change password</Dialog.Title>
        {user ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <Flex direction="column" gap="2">
              <label htmlFor="new-password">
                <Text size="2" weight="medium">
                  New password
                </Text>
              </label>
              <TextField.Root
                id="new-password"
                type="password"
                value={password}
                autoComplete="new-password"
                onChange={(e) => setPassword(e.target.value)}
                onBlur={() => setTouched(true)}
                aria-invalid={Boolean(error)}
              />
              {error && (
                <Text size="1" color="red" role="alert">
                  {error}
                </Text>
              )}
              <Flex gap="2" justify="end" mt="3">
                <Dialog.Close>
                  <Button variant="soft" color="gray" type="button">
                    Cancel
                  </Button>
                </Dialog.Close>
                <Button type="submit" loading={busy}>
                  Save
                </Button>
              </Flex>
            </Flex>
          </form>
        ) : (
          <Text as="p" dir="rtl" style={{ textAlign: 'right' }}>
            کاربری در سیستم وارد نشده است. برای تغییر رمز عبور ابتدا وارد شوید.
          </Text>
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}
