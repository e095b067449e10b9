/**
 * Change password (English labels, as SPEC section 2 gives them; required rule). The server wants proof: the
 * current password, or, for an account without one, a code texted to the user's own mobile number. Login state
 * is judged by the stored token: without one the dialog says, in Persian, that a change needs log-in. The
 * server's message shows green or red; other sessions end on the server, this one stays.
 */
import { Button, Callout, Dialog, Flex, Text, TextField } from '@radix-ui/themes';
import { useAtomValue, useSetAtom } from 'jotai';
import { type ReactNode, useState } from 'react';
import { toEnglishDigits } from '../../../shared/digits';
import { groupPhone } from '../../../shared/format';
import { LATIN_ATTRIBUTE } from '../../../shared/format/latin';
import { describedBy, FormField } from '../../components/FormField';
import { showSnackbar } from '../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { queryClient } from '../../lib/query';
import { loadUser, loginDialogOpenAtom, storedTokenAtom, userAtom } from '../../lib/session';

function PasswordField({
  id,
  label,
  value,
  onChange,
  error,
  autoComplete,
  type = 'password',
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error: string | null;
  autoComplete: string;
  type?: 'password' | 'text';
  children?: ReactNode;
}) {
  return (
    <FormField id={id} label={label} error={error}>
      <Flex gap="2" align="center">
        <TextField.Root
          id={id}
          type={type}
          size="3"
          style={{ flex: 1 }}
          value={value}
          autoComplete={autoComplete}
          inputMode={type === 'text' ? 'numeric' : undefined}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={Boolean(error)}
          aria-describedby={describedBy(id, { error })}
          required
        />
        {children}
      </Flex>
    </FormField>
  );
}

export function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const token = useAtomValue(storedTokenAtom);
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginDialogOpenAtom);
  // Without a loaded user, ask for the current password: the server says so if a code is needed instead.
  const byCode = user ? !user.hasPassword : false;
  const [current, setCurrent] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [needsLogin, setNeedsLogin] = useState(false);
  const [busy, setBusy] = useState(false);
  const [codeNotice, setCodeNotice] = useState<string | null>(null);
  const required = (value: string) => (touched && !value.trim() ? 'Required' : null);
  const proof = byCode ? code : current;

  const sendCode = async () => {
    if (!user?.mobileNo) return;
    setBusy(true);
    try {
      const sent = await call<{ activeCodeExists: boolean }>(
        api.POST('/api/public/sendMobileValidationCode', { body: { mobileNo: user.mobileNo } }),
      );
      setCodeNotice(
        sent.activeCodeExists
          ? 'A code sent earlier is still valid: enter that one.'
          : `A code was sent to ${groupPhone(user.mobileNo)}.`,
      );
    } catch (e) {
      showSnackbar(digMessage(e) ?? FALLBACK_MESSAGE, 'red');
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    setTouched(true);
    if (!password || !proof.trim()) return;
    if (!token) {
      setNeedsLogin(true);
      return;
    }
    setBusy(true);
    try {
      // A refusal throws (ApiError with the server's msg); success carries the server's msg too.
      const body = byCode
        ? { password, validationCode: toEnglishDigits(code.trim()) }
        : { password, currentPassword: current };
      const { data, error } = await api.POST('/api/me/changePassword', { body });
      if (error) throw error;
      showSnackbar(digMessage(data) ?? 'رمز عبور با موفقیت تغییر کرد.', 'green', 5000);
      onOpenChange(false);
      // The account now has a password, and its other sessions are gone.
      void loadUser();
      void queryClient.invalidateQueries({ queryKey: ['me', 'sessions'] });
    } catch (e) {
      showSnackbar(digMessage(e) ?? FALLBACK_MESSAGE, 'red');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content
        maxWidth="420px"
        dir="ltr"
        style={{ textAlign: 'left' }}
        data-testid="change-password"
        {...{ [LATIN_ATTRIBUTE]: '' }}
      >
        <Dialog.Title>Change password</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          {byCode
            ? 'Your account has no password yet. Confirm with a code sent to your mobile number, then choose one.'
            : 'Enter your current password, then choose a new one. Your other sessions will be signed out.'}
        </Dialog.Description>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <Flex direction="column" gap="2">
            {byCode ? (
              <PasswordField
                id="password-code"
                label="Verification code"
                type="text"
                value={code}
                onChange={setCode}
                error={required(code)}
                autoComplete="one-time-code"
              >
                <Button type="button" variant="soft" size="3" onClick={() => void sendCode()} disabled={busy}>
                  Send code
                </Button>
              </PasswordField>
            ) : (
              <PasswordField
                id="current-password"
                label="Current password"
                value={current}
                onChange={setCurrent}
                error={required(current)}
                autoComplete="current-password"
              />
            )}
            {byCode && codeNotice && (
              <Text size="1" color="green" role="status" data-testid="code-notice">
                {codeNotice}
              </Text>
            )}
            <PasswordField
              id="new-password"
              label="New password"
              value={password}
              onChange={setPassword}
              error={touched && !password ? 'Required' : null}
              autoComplete="new-password"
            />
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
