/** Set another user's password; their open sessions end, so they log in again with the new one. */
import { Dialog } from '@radix-ui/themes';
import { useState } from 'react';
import passwordResetForm from '../../../../../schemas/entryForms/passwordReset.json';
import passwordResetValidators from '../../../../../src/generated/form-validators/passwordReset';
import messages from '../../../../../schemas/messages/fa.json';
import { DialogActions } from '../../../components/DialogActions';
import { asEntryForm, type CrossFieldRule, EntryForm, type FormData } from '../../../components/form-engine/EntryForm';
import { USER_MODULE_TIMEOUT } from '../../../components/shell/snackbar';
import { useDialogAction } from '../../../components/useDialogAction';
import { api, call } from '../../../lib/api-client';
import type { UserSummary } from './queries';

const FORM = asEntryForm(passwordResetForm, passwordResetValidators);
const repeated: CrossFieldRule = (data) =>
  (data.passwordRepeat ?? '') === (data.password ?? '')
    ? {}
    : { passwordRepeat: messages.messages['passwordReset.repeat.mismatch'] };

export function PasswordResetDialog({ user, onClose }: { user: UserSummary; onClose: () => void }) {
  const [data, setData] = useState<FormData>({});
  const { busy, error, run } = useDialogAction();

  // The data the form submitted (checked by it), not the last state this dialog stored.
  const save = (submitted: FormData) =>
    void run(
      async () => {
        await call(
          api.POST('/api/users/changePassword', { body: { id: user.id, password: String(submitted.password) } }),
        );
        return 'رمز عبور کاربر تغییر کرد و نشست‌های او پایان یافت.';
      },
      { done: onClose, timeout: USER_MODULE_TIMEOUT },
    );

  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="min(440px, 92vw)">
        <Dialog.Title>تغییر رمز عبور «{user.name}»</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          نشست‌های باز این کاربر پایان می‌یابد و باید با رمز تازه وارد شود.
        </Dialog.Description>
        <EntryForm
          form={FORM}
          idPrefix="reset"
          formData={data}
          onChange={setData}
          onSubmit={save}
          crossFieldErrors={repeated}
        >
          <DialogActions error={error} busy={busy !== null} submitLabel="تغییر رمز عبور" mt="3" />
        </EntryForm>
      </Dialog.Content>
    </Dialog.Root>
  );
}
