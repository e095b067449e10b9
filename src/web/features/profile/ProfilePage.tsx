/**
 * The customer's profile (SPEC sections 2, 4, 5): an 'I understand' warning first for a non-verified user;
 * national-code inquiry (loading, accepted, rejected); Jalali date of birth; card image; save only with a
 * change, a valid form, an accepted code and an uploaded card (a list beside the button says which of these
 * is still missing); read-only once approvedLevel reaches 1.
 */
import { Badge, Box, Button, Callout, Card, Flex, Heading, Spinner, Text, TextField } from '@radix-ui/themes';
import { SignInPrompt } from '../../components/states/SignInPrompt';
import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import messages from '../../../../schemas/messages/fa.json';
import { todayIso } from '../../../shared/calendar/month-grid';
import { toEnglishDigits } from '../../../shared/digits';
import { isPersianText, isValidNationalCode } from '../../../shared/validation';
import { DateText } from '../../components/date/DateText';
import { INVALID_PREFIX, JalaliDateInput } from '../../components/date/JalaliDateInput';
import { showSnackbar } from '../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { calendarAtom } from '../../lib/calendar';
import { loadUser, type User, userAtom } from '../../lib/session';
import { CardImageUpload } from './CardImageUpload';

const m = messages.messages;

interface ProfileForm {
  nationalCode: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  nationalCardImageAddress: string;
}

type Inquiry =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'accepted' }
  | { state: 'rejected'; mobileNo: string }
  | { state: 'failed'; message: string };

const fromUser = (u: User): ProfileForm => ({
  nationalCode: u.nationalCode ?? '',
  firstName: u.firstName ?? '',
  lastName: u.lastName ?? '',
  dateOfBirth: u.dateOfBirth ?? '',
  nationalCardImageAddress: u.nationalCardImageAddress ?? '',
});

function validate(form: ProfileForm): Partial<Record<keyof ProfileForm, string>> {
  const errors: Partial<Record<keyof ProfileForm, string>> = {};
  if (!form.nationalCode) errors.nationalCode = m['profile.nationalCode.required'];
  else if (!isValidNationalCode(form.nationalCode)) errors.nationalCode = m['profile.nationalCode.invalid'];
  if (!form.firstName.trim()) errors.firstName = m['profile.firstName.required'];
  else if (!isPersianText(form.firstName)) errors.firstName = m['profile.firstName.persian'];
  if (!form.lastName.trim()) errors.lastName = m['profile.lastName.required'];
  else if (!isPersianText(form.lastName)) errors.lastName = m['profile.lastName.persian'];
  if (!form.dateOfBirth) errors.dateOfBirth = m['profile.dateOfBirth.required'];
  else if (form.dateOfBirth.startsWith(INVALID_PREFIX)) errors.dateOfBirth = m['error.invalidDate'];
  if (!form.nationalCardImageAddress) errors.nationalCardImageAddress = m['profile.nationalCardImage.required'];
  return errors;
}

/**
 * Why save is not possible yet, in the order of the fields, as short Persian lines for the list beside the
 * button (a disabled button alone says nothing).
 */
function missingForSave(
  errors: Partial<Record<keyof ProfileForm, string>>,
  inquiry: Inquiry,
  changed: boolean,
): string[] {
  const items: string[] = [];
  if (errors.nationalCode) items.push(errors.nationalCode);
  else if (inquiry.state === 'loading' || inquiry.state === 'idle') items.push('کد ملی در حال بررسی است…');
  else if (inquiry.state === 'rejected') items.push(m['profile.nationalCodeTaken']);
  else if (inquiry.state === 'failed') items.push(inquiry.message);
  for (const key of ['firstName', 'lastName', 'dateOfBirth', 'nationalCardImageAddress'] as const) {
    if (errors[key]) items.push(errors[key]);
  }
  if (items.length === 0 && !changed) items.push('تغییری برای ذخیره وجود ندارد.');
  return items;
}

function Row({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  children: React.ReactNode;
}) {
  return (
    <Flex direction="column" gap="1">
      <label htmlFor={id}>
        <Text size="2" weight="medium">
          {label}
        </Text>
      </label>
      {children}
      {error && (
        <Text size="1" color="red" role="alert">
          {error}
        </Text>
      )}
    </Flex>
  );
}

function ProfileEditor({ user }: { user: User }) {
  const initial = useMemo(() => fromUser(user), [user]);
  const [form, setForm] = useState<ProfileForm>(initial);
  const [touched, setTouched] = useState(false);
  const [blurred, setBlurred] = useState<Set<keyof ProfileForm>>(new Set());
  const [inquiry, setInquiry] = useState<Inquiry>({ state: 'idle' });
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const calendar = useAtomValue(calendarAtom);
  const locked = user.approvedLevel >= 1;
  const errors = validate(form);
  const changed = JSON.stringify(form) !== JSON.stringify(initial);
  const canSave = !locked && changed && Object.keys(errors).length === 0 && inquiry.state === 'accepted';
  const missing = canSave ? [] : missingForSave(errors, inquiry, changed);

  useEffect(() => {
    const code = toEnglishDigits(form.nationalCode);
    if (!isValidNationalCode(code)) {
      setInquiry({ state: 'idle' });
      return;
    }
    let cancelled = false;
    setInquiry({ state: 'loading' });
    call<{ otherUserData: { mobileNo: string } | null }>(
      api.POST('/api/me/inquiryNationalCode', { body: { nationalCode: code } }),
    )
      .then((d) => {
        if (!cancelled)
          setInquiry(
            d.otherUserData ? { state: 'rejected', mobileNo: d.otherUserData.mobileNo } : { state: 'accepted' },
          );
      })
      .catch((error: unknown) => {
        if (!cancelled) setInquiry({ state: 'failed', message: digMessage(error) ?? FALLBACK_MESSAGE });
      });
    return () => {
      cancelled = true;
    };
  }, [form.nationalCode]);

  const set = (key: keyof ProfileForm) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  // A field shows its error once edited (or left), not before the user has had a chance to fill it.
  const shown = (key: keyof ProfileForm) =>
    touched || blurred.has(key) || (form[key] !== initial[key] && form[key] !== '') ? errors[key] : undefined;
  const blur = (key: keyof ProfileForm) => () => setBlurred((b) => new Set(b).add(key));

  const save = async () => {
    setTouched(true);
    if (!canSave) return;
    setBusy(true);
    setServerError(null);
    try {
      await call(
        api.POST('/api/me/updateUserData', { body: { ...form, nationalCode: toEnglishDigits(form.nationalCode) } }),
      );
      await loadUser();
      showSnackbar('پروفایل ذخیره شد و برای بررسی ارسال شد.', 'green', 5000);
    } catch (error) {
      setServerError(digMessage(error) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      noValidate
    >
      <Flex direction="column" gap="3">
        <Row id="p-national-code" label="کد ملی" error={shown('nationalCode')}>
          <TextField.Root
            id="p-national-code"
            dir="ltr"
            inputMode="numeric"
            maxLength={10}
            value={form.nationalCode}
            disabled={locked}
            onChange={(e) => set('nationalCode')(e.target.value)}
          >
            <TextField.Slot side="left">
              {inquiry.state === 'loading' && <Spinner aria-label="در حال بررسی کد ملی" />}
              {inquiry.state === 'accepted' && !locked && (
                <Badge color="green" data-testid="national-code-accepted">
                  پذیرفته شد
                </Badge>
              )}
            </TextField.Slot>
          </TextField.Root>
          {inquiry.state === 'rejected' && (
            <Text size="1" color="red" role="alert" data-testid="national-code-rejected">
              این کد ملی متعلق به کاربر دیگری با موبایل <span className="ltr">{inquiry.mobileNo}</span> است.
            </Text>
          )}
        </Row>
        <Flex gap="3" direction={{ initial: 'column', sm: 'row' }}>
          <div style={{ flex: 1 }}>
            <Row id="p-first-name" label="نام" error={shown('firstName')}>
              <TextField.Root
                id="p-first-name"
                value={form.firstName}
                disabled={locked}
                onBlur={blur('firstName')}
                onChange={(e) => set('firstName')(e.target.value)}
              />
            </Row>
          </div>
          <div style={{ flex: 1 }}>
            <Row id="p-last-name" label="نام خانوادگی" error={shown('lastName')}>
              <TextField.Root
                id="p-last-name"
                value={form.lastName}
                disabled={locked}
                onBlur={blur('lastName')}
                onChange={(e) => set('lastName')(e.target.value)}
              />
            </Row>
          </div>
        </Flex>
        <Row
          id="p-dob"
          label="تاریخ تولد"
          error={form.dateOfBirth.startsWith(INVALID_PREFIX) ? undefined : shown('dateOfBirth')}
        >
          {locked ? (
            <Text>
              <DateText value={form.dateOfBirth} format="slashDate" />
            </Text>
          ) : (
            <JalaliDateInput
              id="p-dob"
              value={form.dateOfBirth}
              onChange={set('dateOfBirth')}
              // A date being typed has no value yet: say it is missing only once the field is left again.
              onFocus={() => setBlurred((b) => new Set([...b].filter((k) => k !== 'dateOfBirth')))}
              onBlur={blur('dateOfBirth')}
              calendar={calendar}
              range={{ max: todayIso() }}
            />
          )}
        </Row>
        <Row id="p-card" label="تصویر کارت ملی" error={shown('nationalCardImageAddress')}>
          <CardImageUpload
            path={form.nationalCardImageAddress}
            onUploaded={set('nationalCardImageAddress')}
            disabled={locked}
          />
        </Row>
        {serverError && (
          <Callout.Root color="red" role="alert">
            <Callout.Text>{serverError}</Callout.Text>
          </Callout.Root>
        )}
        {!locked && missing.length > 0 && (
          <Box id="save-missing" data-testid="save-missing" aria-live="polite">
            <Text size="2" weight="medium">
              برای ذخیره:
            </Text>
            <ul className="missing-list">
              {missing.map((item) => (
                <li key={item}>
                  <Text size="2" color="gray">
                    {item}
                  </Text>
                </li>
              ))}
            </ul>
          </Box>
        )}
        {!locked && (
          <Button
            type="submit"
            size="3"
            disabled={!canSave}
            loading={busy}
            aria-describedby={missing.length > 0 ? 'save-missing' : undefined}
            data-testid="save-profile"
          >
            ذخیره و ارسال برای بررسی
          </Button>
        )}
      </Flex>
    </form>
  );
}

export default function ProfilePage() {
  const user = useAtomValue(userAtom);
  const [acknowledged, setAcknowledged] = useState(false);

  if (!user) return <SignInPrompt />;
  const verified = user.approvedLevel >= 1;
  return (
    <Card size="3" style={{ maxWidth: 'min(800px, 90vw)', marginInline: 'auto' }} data-testid="profile">
      <Flex align="center" justify="between" mb="3" gap="2" wrap="wrap">
        <Heading size="5">پروفایل من</Heading>
        <Badge
          size="2"
          color={verified ? 'green' : user.profileReviewPending ? 'blue' : 'orange'}
          data-testid="profile-status"
        >
          {verified ? 'هویت تایید شده' : user.profileReviewPending ? 'در انتظار بررسی' : 'تایید نشده'}
        </Badge>
      </Flex>
      {user.profileRejectionReason && !verified && (
        <Callout.Root color="red" mb="3" data-testid="rejection-reason">
          <Callout.Text>پروفایل شما رد شد: {user.profileRejectionReason}</Callout.Text>
        </Callout.Root>
      )}
      {user.profileReviewPending && !verified && (
        <Callout.Root color="blue" mb="3">
          <Callout.Text>اطلاعات شما ثبت شده و در انتظار بررسی کارشناسان است.</Callout.Text>
        </Callout.Root>
      )}
      {verified && (
        <Callout.Root color="green" mb="3">
          <Callout.Text>هویت شما تایید شده است و اطلاعات پروفایل دیگر قابل ویرایش نیست.</Callout.Text>
        </Callout.Root>
      )}
      {!verified && !acknowledged ? (
        <Callout.Root color="orange" data-testid="unverified-warning">
          <Callout.Text>
            هویت شما هنوز تایید نشده است. اطلاعات را دقیقا مطابق کارت ملی وارد کنید؛ پس از تایید، امکان ویرایش آن وجود
            ندارد و پرداخت فقط با کارت بانکی خودتان پذیرفته می‌شود.
          </Callout.Text>
          <Button mt="2" onClick={() => setAcknowledged(true)} data-testid="i-understand">
            متوجه شدم
          </Button>
        </Callout.Root>
      ) : (
        <ProfileEditor key={`${user.id}-${user.approvedLevel}-${user.nationalCardImageAddress}`} user={user} />
      )}
    </Card>
  );
}
