/**
 * Add or edit a user: names, mobile, e-mail, staff flag and, on edit, whether the account is active.
 * One's own staff flag and activity cannot be taken away here (the server refuses it too).
 */
import { Checkbox, Dialog, Flex, Text } from '@radix-ui/themes';
import { DialogActions } from '../../../components/DialogActions';
import { type FormEvent, useState } from 'react';
import { isValidMobile } from '../../../../shared/validation';
import { FormField } from '../../../components/FormField';
import { showSnackbar } from '../../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { ConfirmDialog } from './ConfirmDialog';
import { DeactivationText } from './DeactivationText';
import { invalidateAccess, type UserSummary } from './queries';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
  const [firstName, setFirstName] = useState(user?.firstName ?? '');
  const [lastName, setLastName] = useState(user?.lastName ?? '');
  const [mobileNo, setMobileNo] = useState(user?.mobileNo ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [password, setPassword] = useState('');
  const [isStaff, setIsStaff] = useState(user?.isStaff ?? true);
  const [isActive, setIsActive] = useState(user?.isActive ?? true);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const mobileError = !mobileNo.trim()
    ? 'شماره موبایل را وارد نمایید.'
    : isValidMobile(mobileNo)
      ? null
      : 'شماره موبایل، صحیح نیست.';
  const emailError = email.trim() && !EMAIL.test(email.trim()) ? 'ایمیل معتبر نیست.' : null;
  const passwordError = password && password.length < 8 ? 'رمز عبور باید حداقل ۸ کاراکتر باشد.' : null;
  const nameError = (s: string) => (s.length > 50 ? 'حداکثر ۵۰ حرف.' : null);
  const invalid = Boolean(mobileError || emailError || passwordError || nameError(firstName) || nameError(lastName));

  const persist = async () => {
    await call(
      api.POST('/api/users/saveUser', {
        body: {
          ...(user ? { id: user.id, isActive } : {}),
          mobileNo,
          email: email.trim() || null,
          firstName: firstName.trim(),
          lastName: lastName.trim(),
          isStaff,
          ...(!user && password ? { password } : {}),
        },
      }),
    );
    showSnackbar(user ? 'تغییرات کاربر ذخیره شد.' : 'کاربر افزوده شد.', 'green');
    invalidateAccess();
    onClose();
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (invalid) return;
    // Deactivating is a removal: it asks first, like the menu item does.
    if (user?.isActive && !isActive) {
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
        <form onSubmit={(e) => void save(e)} noValidate>
          <Flex direction="column" gap="3">
            <Flex gap="3" wrap="wrap">
              <div style={{ flex: '1 1 180px' }}>
                <FormField
                  id="user-first-name"
                  label="نام"
                  value={firstName}
                  onChange={setFirstName}
                  error={nameError(firstName)}
                />
              </div>
              <div style={{ flex: '1 1 180px' }}>
                <FormField
                  id="user-last-name"
                  label="نام خانوادگی"
                  value={lastName}
                  onChange={setLastName}
                  error={nameError(lastName)}
                />
              </div>
            </Flex>
            <FormField
              id="user-mobile"
              label="موبایل"
              type="tel"
              dir="ltr"
              value={mobileNo}
              onChange={setMobileNo}
              error={touched || mobileNo ? mobileError : null}
            />
            <FormField
              id="user-email"
              label="ایمیل (اختیاری)"
              type="email"
              dir="ltr"
              value={email}
              onChange={setEmail}
              error={emailError}
            />
            {!user && (
              <FormField
                id="user-password"
                label="رمز عبور (اختیاری)"
                type="password"
                dir="ltr"
                autoComplete="new-password"
                value={password}
                onChange={setPassword}
                error={passwordError}
                hint="بدون رمز عبور، کاربر با کد پیامکی وارد می‌شود."
              />
            )}
            <Text as="label" size="2">
              <Flex gap="2" align="center">
                <Checkbox checked={isStaff} disabled={self} onCheckedChange={(c) => setIsStaff(c === true)} />
                کارمند (به بخش مدیریت دسترسی دارد)
              </Flex>
            </Text>
            {user && (
              <Text as="label" size="2">
                <Flex gap="2" align="center">
                  <Checkbox checked={isActive} disabled={self} onCheckedChange={(c) => setIsActive(c === true)} />
                  حساب فعال است (حساب غیرفعال نمی‌تواند وارد شود)
                </Flex>
              </Text>
            )}
            {self && (
              <Text size="1" color="gray">
                وضعیت کارمندی و فعال بودن حساب خودتان را نمی‌توانید تغییر دهید.
              </Text>
            )}
            <DialogActions error={error} busy={busy} submitLabel={user ? 'ذخیره تغییرات' : 'افزودن کاربر'} />
          </Flex>
        </form>
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
