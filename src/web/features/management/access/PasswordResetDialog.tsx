/** Set another user's password; their open sessions end, so they log in again with the new one. */
import { Dialog, Flex } from '@radix-ui/themes';
import { DialogActions } from '../../../components/DialogActions';
import { type FormEvent, useState } from 'react';
import { FormField } from '../../../components/FormField';
import { showSnackbar } from '../../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import type { UserSummary } from './queries';

export function PasswordResetDialog({ user, onClose }: { user: UserSummary; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const passwordError = !password
    ? 'رمز عبور جدید را وارد نمایید.'
    : password.length < 8
      ? 'رمز عبور باید حداقل ۸ کاراکتر باشد.'
      : null;
  const repeatError = repeat !== password ? 'تکرار رمز عبور با آن یکی نیست.' : null;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (passwordError || repeatError) return;
    setBusy(true);
    setError(null);
    try {
      await call(api.POST('/api/users/changePassword', { body: { id: user.id, password } }));
      showSnackbar('رمز عبور کاربر تغییر کرد و نشست‌های او پایان یافت.', 'green');
      onClose();
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="min(440px, 92vw)">
        <Dialog.Title>تغییر رمز عبور «{user.name}»</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          نشست‌های باز این کاربر پایان می‌یابد و باید با رمز تازه وارد شود.
        </Dialog.Description>
        <form onSubmit={(e) => void save(e)} noValidate>
          <Flex direction="column" gap="3">
            <FormField
              id="reset-password"
              label="رمز عبور جدید"
              type="password"
              dir="ltr"
              autoComplete="new-password"
              value={password}
              onChange={setPassword}
              error={touched || password ? passwordError : null}
            />
            <FormField
              id="reset-password-repeat"
              label="تکرار رمز عبور جدید"
              type="password"
              dir="ltr"
              autoComplete="new-password"
              value={repeat}
              onChange={setRepeat}
              error={touched || repeat ? repeatError : null}
            />
            <DialogActions error={error} busy={busy} submitLabel="تغییر رمز عبور" />
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
