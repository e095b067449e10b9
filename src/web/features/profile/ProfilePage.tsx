/**
 * The customer's profile (SPEC sections 2, 4, 5): an 'I understand' warning first for a non-verified user;
 * national-code inquiry (loading, accepted, rejected); Jalali date of birth; card image; save only with a
 * change, a valid form, an accepted code and an uploaded card (a list beside the button says which of these
 * is still missing); read-only once approvedLevel reaches 1. The fields are `schemas/entryForms/profile.json`,
 * drawn by the form engine.
 */
import { Badge, Box, Button, Callout, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import profileForm from '../../../../schemas/entryForms/profile.json';
import profileValidators from '../../../../src/generated/form-validators/profile';
import messages from '../../../../schemas/messages/fa.json';
import { toEnglishDigits, toPersianDigits } from '../../../shared/digits';
import { isValidNationalCode } from '../../../shared/validation';
import {
  asEntryForm,
  EntryForm,
  entryFormErrors,
  type FieldErrors,
  type FormData,
} from '../../components/form-engine/EntryForm';
import type { NationalCodeInquiry } from '../../components/form-engine/widgets/NationalCodeWidget';
import { SignInPrompt } from '../../components/states/SignInPrompt';
import { CardsSection } from './CardsSection';
import { PayLinkReturn } from './PayLinkReturn';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { backToDesk } from '../../lib/desk-draft';
import { loadUser, type User, userAtom } from '../../lib/session';

const m = messages.messages;
const FORM = asEntryForm(profileForm, profileValidators);
const FIELDS = ['nationalCode', 'firstName', 'lastName', 'dateOfBirth', 'nationalCardImageAddress'] as const;

/** The stored profile as form data: an empty field is no value; the national code in Persian digits, as read. */
const fromUser = (u: User): FormData =>
  Object.fromEntries(
    FIELDS.map((k) => [k, (k === 'nationalCode' && u[k] ? toPersianDigits(u[k]) : u[k]) || undefined]).filter(
      ([, v]) => v !== undefined,
    ),
  );

/** Equal as stored: a national code typed in other digits is the same code. */
const sameData = (a: FormData, b: FormData) =>
  FIELDS.every((k) => toEnglishDigits(String(a[k] ?? '')) === toEnglishDigits(String(b[k] ?? '')));

/**
 * Why save is not possible yet, in the order of the fields, as short Persian lines for the list beside the
 * button (a disabled button alone says nothing).
 */
function missingForSave(errors: FieldErrors, inquiry: NationalCodeInquiry, changed: boolean): string[] {
  const items: string[] = [];
  if (errors.nationalCode) items.push(errors.nationalCode);
  else if (inquiry.state === 'loading' || inquiry.state === 'idle') items.push('کد ملی در حال بررسی است…');
  else if (inquiry.state === 'rejected') items.push(m['profile.nationalCodeTaken']);
  else if (inquiry.state === 'failed') items.push(inquiry.message);
  for (const key of FIELDS.slice(1)) {
    const error = errors[key];
    if (error) items.push(error);
  }
  if (items.length === 0 && !changed) items.push('تغییری برای ذخیره وجود ندارد.');
  return items;
}

function ProfileEditor({ user, onSaved }: { user: User; onSaved: () => void }) {
  const initial = useMemo(() => fromUser(user), [user]);
  const [form, setForm] = useState<FormData>(initial);
  const [inquiry, setInquiry] = useState<NationalCodeInquiry>({ state: 'idle' });
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const locked = user.approvedLevel >= 1;
  const errors = useMemo(() => entryFormErrors(FORM, form), [form]);
  const changed = !sameData(form, initial);
  const canSave = !locked && changed && Object.keys(errors).length === 0 && inquiry.state === 'accepted';
  const missing = canSave ? [] : missingForSave(errors, inquiry, changed);
  const nationalCode = typeof form.nationalCode === 'string' ? form.nationalCode : '';

  useEffect(() => {
    const code = toEnglishDigits(nationalCode);
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
  }, [nationalCode]);

  const save = async (data: FormData) => {
    if (!canSave) return;
    setBusy(true);
    setServerError(null);
    const text = (k: (typeof FIELDS)[number]) => String(data[k] ?? '');
    try {
      await call(
        api.POST('/api/me/updateUserData', {
          body: {
            nationalCode: toEnglishDigits(text('nationalCode')),
            firstName: text('firstName'),
            lastName: text('lastName'),
            dateOfBirth: text('dateOfBirth'),
            nationalCardImageAddress: text('nationalCardImageAddress'),
          },
        }),
      );
      await loadUser();
      // Said under the save button, in the page (a toast at the bottom of a phone covered the card image button).
      onSaved();
    } catch (error) {
      setServerError(digMessage(error) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <EntryForm
      form={FORM}
      idPrefix="profile"
      formData={form}
      onChange={setForm}
      onSubmit={(data) => void save(data)}
      formContext={{ nationalCodeInquiry: inquiry }}
      readonly={locked}
    >
      <Flex direction="column" gap="3" mt="3">
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
    </EntryForm>
  );
}

/**
 * Under the save button once the profile is saved: that it went for review and, for a customer sent from a desk to
 * complete it (`?back=/desks/…`), the way back to that request, whose form the desk kept as a draft.
 */
function SavedNote({ saved, user }: { saved: boolean; user: User }) {
  const { search } = useLocation();
  const back = backToDesk(search);
  const pending = user.profileReviewPending || user.approvedLevel >= 1;
  if (!saved && !(back && pending)) return null;
  return (
    <Callout.Root color="green" mt="3" data-testid="profile-saved" role="status">
      <Callout.Text>
        {saved ? 'پروفایل ذخیره شد و برای بررسی ارسال شد.' : 'پروفایل شما ذخیره شده است.'}
        {back && (
          <>
            {' '}
            فرم درخواستتان نگه داشته شده است:{' '}
            <Link to={back} data-testid="back-to-request">
              بازگشت به درخواست
            </Link>
          </>
        )}
      </Callout.Text>
    </Callout.Root>
  );
}

export default function ProfilePage() {
  const user = useAtomValue(userAtom);
  const [acknowledged, setAcknowledged] = useState(false);
  const [saved, setSaved] = useState(false);

  if (!user) return <SignInPrompt />;
  const verified = user.approvedLevel >= 1;
  return (
    <Flex direction="column" gap="4">
      <PayLinkReturn />
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
          <ProfileEditor
            key={`${user.id}-${user.approvedLevel}-${user.nationalCardImageAddress}`}
            user={user}
            onSaved={() => setSaved(true)}
          />
        )}
        <SavedNote saved={saved} user={user} />
      </Card>
      <CardsSection />
    </Flex>
  );
}
