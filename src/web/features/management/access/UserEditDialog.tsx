/**
 * Add or edit a user: names, mobile, e-mail, staff flag and, on edit, whether the account is active.
 * One's own staff flag and activity cannot be taken away here (the server refuses it too).
 */
import { Dialog, Text } from '@radix-ui/themes';
import { useState } from 'react';
import userEditForm from '../../../../../schemas/entryForms/userEdit.json';
import userEditValidators from '../../../../../src/generated/form-validators/userEdit';
import { DialogActions } from '../../../components/DialogActions';
import { asEntryForm, EntryForm, type FormData, withoutFields } from '../../../components/form-engine/EntryForm';
import { showSnackbar, USER_MODULE_TIMEOUT } from '../../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { ConfirmDialog } from './ConfirmDialog';
import { DeactivationText } from './DeactivationText';
import { invalidateAccess, type UserSummary } from './queries';

const FORM = asEntryForm(userEditForm, userEditValidators);
// A new user may get a password; an existing one is activated or deactivated (its password is reset elsewhere).
const ADD_FORM = withoutFields(FORM, ['isActive']);
const EDIT_FORM = withoutFields(FORM, ['password']);

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

export function UserEditDialog({
  user,
  self,
  onClose,
}: {
  /** null adds a new user. */
  user: UserSummary | null;
  self: boolean;
  onClose: () => void;
}) {
  const [data, setData] = useState<FormData>(() =>
    user
      ? {
          firstName: user.firstName || undefined,
          lastName: user.lastName || undefined,
          mobileNo: user.mobileNo || undefined,
          email: user.email || undefined,
          isStaff: user.isStaff,
          isActive: user.isActive,
        }
      : { isStaff: true },
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const persist = async () => {
    await call(
      api.POST('/api/users/saveUser', {
        body: {
          ...(user ? { id: user.id, isActive: data.isActive === true } : {}),
          mobileNo: text(data.mobileNo),
          email: text(data.email) || null,
          firstName: text(data.firstName),
          lastName: text(data.lastName),
          isStaff: data.isStaff === true,
          ...(!user && data.password ? { password: String(data.password) } : {}),
        },
      }),
    );
    showSnackbar(user ? 'تغییرات کاربر ذخیره شد.' : 'کاربر افزوده شد.', 'green', USER_MODULE_TIMEOUT);
    invalidateAccess();
    onClose();
  };

  const save = async () => {
    // Deactivating is a removal: it asks first, like the menu item does.
    if (user?.isActive && data.isActive !== true) {
      setConfirming(true);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await persist();
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="min(520px, 92vw)">
        <Dialog.Title>{user ? `ویرایش کاربر «${user.name}»` : 'افزودن کاربر'}</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          {user ? 'نام، موبایل، ایمیل و وضعیت حساب را تغییر دهید.' : 'حساب تازه با شماره موبایل ساخته می‌شود.'}
        </Dialog.Description>
        <EntryForm
          form={user ? EDIT_FORM : ADD_FORM}
          idPrefix="user"
          formData={data}
          onChange={setData}
          onSubmit={() => void save()}
          // One's own staff flag and activity cannot be taken away here (the server refuses it too).
          uiSchema={self ? { isStaff: { 'ui:disabled': true }, isActive: { 'ui:disabled': true } } : {}}
        >
          {self && (
            <Text as="p" size="1" color="gray" mt="3">
              وضعیت کارمندی و فعال بودن حساب خودتان را نمی‌توانید تغییر دهید.
            </Text>
          )}
          <DialogActions error={error} busy={busy} submitLabel={user ? 'ذخیره تغییرات' : 'افزودن کاربر'} mt="3" />
        </EntryForm>
        {user && (
          <ConfirmDialog
            open={confirming}
            title="غیرفعال کردن حساب"
            confirmLabel="ذخیره و غیرفعال کردن"
            onConfirm={persist}
            onClose={() => setConfirming(false)}
          >
            <DeactivationText user={user} />
          </ConfirmDialog>
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}
