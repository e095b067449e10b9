/**
 * The customer's Google Ads accounts (status, charges) and their requests for new ones (with staff's reason when
 * rejected), refreshed live; «ساخت حساب» (also the drawer's, `?create=1`) opens the create-account dialog of SPEC
 * section 5 (schemas/entryForms/googleAdsAccountCreate.json), which needs the Google Ads terms accepted first.
 */
import { Button, Callout, Card, Dialog, Flex, Heading, Text } from '@radix-ui/themes';
import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import createFormJson from '../../../../schemas/entryForms/googleAdsAccountCreate.json';
import googleAdsAccountCreateValidators from '../../../../src/generated/form-validators/googleAdsAccountCreate';
import accountsTable from '../../../../schemas/tables/myGoogleAdsAccounts.json';
import requestsTable from '../../../../schemas/tables/myGoogleAdsAccountRequests.json';
import { asTableDef, DataTable } from '../../components/data-table/DataTable';
import { DialogActions } from '../../components/DialogActions';
import { asEntryForm, EntryForm, type FormData } from '../../components/form-engine/EntryForm';
import { showSnackbar } from '../../components/shell/snackbar';
import { EmptyState } from '../../components/states/EmptyState';
import { SignInPrompt } from '../../components/states/SignInPrompt';
import { TermsText } from '../../components/TermsText';
import { api, digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { POLICY_OPERATIONS } from '../../lib/policy-approval';
import {
  type CreateGoogleAdsAccountInput,
  createGoogleAdsAccount,
  decorateAccountRequests,
  decorateGoogleAdsRows,
} from '../../lib/queries/google-ads';
import { pathOf } from '../../lib/routes';
import { loadUser, userAtom } from '../../lib/session';

const CREATE_FORM = asEntryForm(createFormJson, googleAdsAccountCreateValidators);
const accountsDef = asTableDef(accountsTable);
const requestsDef = asTableDef(requestsTable);

function CreateAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const user = useAtomValue(userAtom);
  const queryClient = useQueryClient();
  const [data, setData] = useState<FormData>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const needsPolicy = !user?.googleAdsPolicyApproved;

  const acceptPolicy = async () => {
    setError(null);
    try {
      await api.POST(POLICY_OPERATIONS.googleAds);
      await loadUser();
    } catch (e) {
      setError(digMessage(e) ?? FALLBACK_MESSAGE);
    }
  };

  const submit = async (values: FormData) => {
    setBusy(true);
    setError(null);
    try {
      const body = Object.fromEntries(
        Object.entries(values).filter(([, v]) => v !== undefined && v !== ''),
      ) as CreateGoogleAdsAccountInput;
      showSnackbar(await createGoogleAdsAccount(body), 'green');
      void queryClient.invalidateQueries({ queryKey: ['table', 'myGoogleAdsAccountRequests'] });
      setData({});
      onClose();
    } catch (e) {
      setError(digMessage(e) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="min(560px, 92vw)" data-testid="create-google-ads-account">
        <Dialog.Title>ساخت حساب گوگل ادز</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          پس از ثبت، کارشناسان حساب را زیر یکی از پنل‌های مدیریت ارزپی می‌سازند و به ایمیل‌های دسترسی کامل دعوت‌نامه
          می‌فرستند.
        </Dialog.Description>
        {needsPolicy ? (
          <Callout.Root color="gray" data-testid="policy-required">
            <Flex direction="column" gap="2">
              <Text weight="bold">پذیرش قوانین و مقررات گوگل ادز</Text>
              <TermsText />
              {/* The app's accent, not the callout's grey, which reads as a disabled button. */}
              <Button
                color="teal"
                style={{ alignSelf: 'flex-start' }}
                onClick={() => void acceptPolicy()}
                data-testid="accept-policy"
              >
                قوانین را خواندم و می‌پذیرم
              </Button>
              {error && <Text color="red">{error}</Text>}
            </Flex>
          </Callout.Root>
        ) : (
          <EntryForm
            form={CREATE_FORM}
            idPrefix="gads"
            formData={data}
            onChange={setData}
            onSubmit={(d) => void submit(d)}
          >
            <DialogActions
              mt="4"
              error={error}
              busy={busy}
              submitLabel="ثبت درخواست ساخت حساب"
              submitTestId="create-google-ads-account-submit"
            />
          </EntryForm>
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}

export default function MyGoogleAdsAccountsPage() {
  const user = useAtomValue(userAtom);
  const [params, setParams] = useSearchParams();
  const creating = params.get('create') === '1';
  const setCreating = (on: boolean) => setParams(on ? { create: '1' } : {}, { replace: true });
  if (!user) return <SignInPrompt title="حساب‌های گوگل ادز من" />;
  return (
    <Flex direction="column" gap="3">
      <Flex justify="between" align="center" gap="2" wrap="wrap">
        <Heading size="6">حساب‌های گوگل ادز من</Heading>
        <Flex gap="2">
          <Button onClick={() => setCreating(true)} data-testid="open-create-google-ads-account">
            ساخت حساب
          </Button>
          <Button asChild variant="soft">
            <Link to={pathOf('desk', { desk: 'googleAdsAccountCr' })}>شارژ حساب</Link>
          </Button>
        </Flex>
      </Flex>
      <Card size="2" data-testid="my-google-ads-accounts">
        <DataTable
          def={accountsDef}
          decorate={decorateGoogleAdsRows}
          stackOnMobile
          empty={
            <EmptyState
              title="هنوز حساب گوگل ادزی ندارید"
              testId="my-google-ads-accounts-empty"
              action={<Button onClick={() => setCreating(true)}>درخواست ساخت حساب</Button>}
            >
              پس از درخواست شما، کارشناسان حساب را زیر یکی از پنل‌های مدیریت ارزپی می‌سازند؛ حساب اینجا نشان داده می‌شود
              و از همین صفحه شارژ می‌شود.
            </EmptyState>
          }
        />
      </Card>
      <Heading size="4">درخواست‌های ساخت حساب</Heading>
      <Card size="2" data-testid="my-google-ads-account-requests">
        <DataTable
          def={requestsDef}
          decorate={decorateAccountRequests}
          stackOnMobile
          empty={
            <EmptyState title="درخواست ساخت حسابی ثبت نکرده‌اید" testId="my-google-ads-requests-empty" compact>
              هر درخواست ساخت حساب با وضعیتش اینجا می‌آید؛ اگر کارشناسان آن را رد کنند، دلیلش هم همین‌جا نوشته می‌شود.
            </EmptyState>
          }
        />
      </Card>
      <CreateAccountDialog open={creating} onClose={() => setCreating(false)} />
    </Flex>
  );
}
