/**
 * Change password (English labels, as SPEC section 2 gives them; required rule). Login state is judged by the
 * stored token: without one the dialog says, in Persian, that a change needs log-in. The server's message
 * shows green or red.
 */
import { Button, Callout, Dialog, Flex, Text, TextField } from '@radix-ui/themes';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { api, digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { showSnackbar } from '../shell/snackbar';
import { loginDialogOpenAtom, storedTokenAtom } from './session';

export function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const token = useAtomValue(storedTokenAtom);
  const openLogin = useSetAtom(loginDialogOpenAtom);
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [needsLogin, setNeedsLogin] = useState(false);
  const [busy, setBusy] = useState(false);
  const error = touched && !password ? 'Required' : null;

  const save = async () => {
    setTouched(true);
    if (!password) return;
    if (!token) {
      setNeedsLogin(true);
      return;
    }
    setBusy(true);
    try {
      // A refusal throws (ApiError with the server's msg); success carries the server's msg too.
      const { data, error } = await api.POST('/api/me/changePassword', { body: { password } });
      if (error) throw error;
      showSnackbar(digMessage(data) ?? 'رمز عبور با موفقیت تغییر کرد.', 'green');
      onOpenChange(false);
    } catch (e) {
      showSnackbar(digMessage(e) ?? FALLBACK_MESSAGE, 'red');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="420px" dir="ltr" style={{ textAlign: 'left' }} data-testid="change-password">
        <Dialog.Title>Change password</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Choose a new password for your account.
        </Dialog.Description>
        <form
          noValidate
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
              size="3"
              value={password}
              autoComplete="new-password"
              onChange={(e) => setPassword(e.target.value)}
              onBlur={() => setTouched(true)}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? 'new-password-error' : undefined}
              required
            />
            {error && (
              <Text size="1" color="red" role="alert" id="new-password-error">
                {error}
              </Text>
            )}
            {needsLogin && !token && (
              <Callout.Root color="orange" dir="rtl" role="alert" mt="2">
                <Callout.Text>
                  کاربری در سیستم وارد نشده است. برای تغییر رمز عبور ابتدا وارد شوید.{' '}
                  <Button
                    type="button"
                    variant="ghost"
                    size="1"
                    onClick={() => {
                      onOpenChange(false);
                      openLogin(true);
                    }}
                  >
                    ورود
                  </Button>
                </Callout.Text>
              </Callout.Root>
            )}
            <Flex gap="2" justify="end" mt="3">
              <Dialog.Close>
                <Button variant="soft" color="gray" type="button" size="3">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" loading={busy} size="3">
                Save
              </Button>
            </Flex>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
