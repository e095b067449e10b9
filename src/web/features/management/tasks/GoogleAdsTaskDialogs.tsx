/**
 * The two Google Ads tasks of the queue, each claimed by opening it. makeGoogleAdsAccountTask: the customer's
 * request; staff make the account in Google's console under one of our active manager panels and record its
 * customer id here (schemas/entryForms/googleAdsAccountMake.json), or reject it with the reason the customer sees.
 * googleAdsAccountCrCpTask: a paid recharge; staff charge the account in Google's console and record the charge's
 * reference (googleAdsChargeDone.json), or fail it (the whole reservation back to the wallet).
 */
import { Badge, Callout, DataList, Dialog, Flex, Skeleton, Tabs, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import chargeDoneJson from '../../../../../schemas/entryForms/googleAdsChargeDone.json';
import googleAdsChargeDoneValidators from '../../../../../src/generated/form-validators/googleAdsChargeDone';
import makeFormJson from '../../../../../schemas/entryForms/googleAdsAccountMake.json';
import googleAdsAccountMakeValidators from '../../../../../src/generated/form-validators/googleAdsAccountMake';
import rejectFormJson from '../../../../../schemas/entryForms/googleAdsRequestReject.json';
import googleAdsRequestRejectValidators from '../../../../../src/generated/form-validators/googleAdsRequestReject';
import { DialogActions } from '../../../components/DialogActions';
import { asEntryForm, EntryForm, type FormData } from '../../../components/form-engine/EntryForm';
import { RialText } from '../../../components/RialText';
import { useDialogAction } from '../../../components/useDialogAction';
import { LoadError } from '../../../components/states/LoadError';
import { FALLBACK_MESSAGE } from '../../../lib/api-client';
import {
  chargeTaskQuery,
  makeAccountTaskQuery,
  type MakeGoogleAdsAccountInput,
  makeGoogleAdsAccount,
  recordGoogleAdsChargeDone,
  recordGoogleAdsChargeFailed,
  rejectGoogleAdsAccountRequest,
} from '../../../lib/queries/google-ads';

const MAKE_FORM = asEntryForm(makeFormJson, googleAdsAccountMakeValidators);
const REJECT_FORM = asEntryForm(rejectFormJson, googleAdsRequestRejectValidators);
const CHARGE_FORM = asEntryForm(chargeDoneJson, googleAdsChargeDoneValidators);

const MANUAL_NOTE = 'این کار در کنسول گوگل ادز انجام و نتیجه آن اینجا ثبت می‌شود.';

/** One decision form: its data, its busy state and the server's refusal. */
function Decision({
  form,
  idPrefix,
  submitLabel,
  submitTestId,
  decide,
  onDone,
  formContext,
}: {
  form: ReturnType<typeof asEntryForm>;
  idPrefix: string;
  submitLabel: string;
  submitTestId: string;
  decide: (data: FormData) => Promise<string>;
  /** Called once the server accepted the decision (the dialog closes and the queue refreshes). */
  onDone: () => void;
  formContext?: object;
}) {
  const [data, setData] = useState<FormData>({});
  const { busy, error, run } = useDialogAction();
  const submit = (values: FormData) => void run(() => decide(values), { done: onDone });
  return (
    <EntryForm
      form={form}
      idPrefix={idPrefix}
      formData={data}
      onChange={setData}
      onSubmit={submit}
      {...(formContext ? { formContext } : {})}
    >
      <DialogActions mt="4" error={error} busy={busy !== null} submitLabel={submitLabel} submitTestId={submitTestId} />
    </EntryForm>
  );
}

interface TaskDialogProps {
  taskId: number | null;
  onClose: (changed: boolean) => void;
}

type TaskBody = (props: { taskId: number; onDone: () => void }) => React.ReactNode;

/** The dialog both tasks open in: a title, and the task's body once a task is chosen. */
function TaskDialog({
  taskId,
  onClose,
  title,
  testId,
  Body,
}: TaskDialogProps & { title: string; testId: string; Body: TaskBody }) {
  return (
    <Dialog.Root open={taskId !== null} onOpenChange={(o) => !o && onClose(false)}>
      <Dialog.Content maxWidth="min(640px, 94vw)" data-testid={testId}>
        <Dialog.Title>{title}</Dialog.Title>
        {taskId !== null && <Body taskId={taskId} onDone={() => onClose(true)} />}
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** What a task body shows while its data loads or when loading failed; null once the data is there. */
function pendingOrError(query: {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}) {
  if (query.isPending) return <Skeleton height="200px" />;
  if (query.isError)
    return (
      <LoadError
        error={query.error}
        fallback={FALLBACK_MESSAGE}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  return null;
}

export function MakeGoogleAdsAccountDialog(props: TaskDialogProps) {
  return <TaskDialog {...props} title="ساخت حساب گوگل ادز" testId="make-google-ads-account" Body={MakeAccountBody} />;
}

function MakeAccountBody({ taskId, onDone }: { taskId: number; onDone: () => void }) {
  const query = useQuery(makeAccountTaskQuery(taskId));
  if (!query.isSuccess) return pendingOrError(query);
  const { request, user, mccAccounts } = query.data;
  return (
    <Flex direction="column" gap="3">
      <Callout.Root color="blue">
        <Callout.Text>{MANUAL_NOTE}</Callout.Text>
      </Callout.Root>
      <DataList.Root size="2" data-testid="make-account-request">
        <DataList.Item>
          <DataList.Label>مشتری</DataList.Label>
          <DataList.Value>{user.fullName || user.mobileNo}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>موضوع کسب‌وکار</DataList.Label>
          <DataList.Value>{request.customerBusinessTitle}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>وب‌سایت</DataList.Label>
          <DataList.Value>
            <bdi dir="ltr">{request.customerWebsite}</bdi>
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>ارز حساب</DataList.Label>
          <DataList.Value>{request.accountCurrencyCode}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>دسترسی کامل</DataList.Label>
          <DataList.Value>
            <bdi dir="ltr">{request.requestedCustomerStandardUsers}</bdi>
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>فقط مشاهده</DataList.Label>
          <DataList.Value>
            <bdi dir="ltr">{request.requestedCustomerReadonlyUsers || '—'}</bdi>
          </DataList.Value>
        </DataList.Item>
      </DataList.Root>
      <Tabs.Root defaultValue="make">
        <Tabs.List>
          <Tabs.Trigger value="make">ساخت حساب</Tabs.Trigger>
          <Tabs.Trigger value="reject">رد درخواست</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="make">
          <Decision
            form={MAKE_FORM}
            idPrefix="make"
            submitLabel="ثبت حساب ساخته‌شده"
            submitTestId="make-account-submit"
            formContext={{
              choices: {
                mccAccounts: mccAccounts.map((m) => ({ id: m.id, title: `${m.title} (${m.googleCustomerId})` })),
              },
            }}
            decide={(d) =>
              makeGoogleAdsAccount(
                Object.fromEntries(
                  Object.entries({ ...d, taskId } as Record<string, unknown>).filter(
                    ([, v]) => v !== undefined && v !== '',
                  ),
                ) as unknown as MakeGoogleAdsAccountInput,
              )
            }
            onDone={onDone}
          />
        </Tabs.Content>
        <Tabs.Content value="reject">
          <Decision
            form={REJECT_FORM}
            idPrefix="rejectGads"
            submitLabel="رد درخواست"
            submitTestId="reject-account-submit"
            decide={(d) => rejectGoogleAdsAccountRequest(taskId, String(d.reason))}
            onDone={onDone}
          />
        </Tabs.Content>
      </Tabs.Root>
    </Flex>
  );
}

export function GoogleAdsChargeDialog(props: TaskDialogProps) {
  return <TaskDialog {...props} title="شارژ حساب گوگل ادز" testId="google-ads-charge" Body={ChargeBody} />;
}

function ChargeBody({ taskId, onDone }: { taskId: number; onDone: () => void }) {
  const query = useQuery(chargeTaskQuery(taskId));
  if (!query.isSuccess) return pendingOrError(query);
  const { request, googleAdsAccount: account } = query.data;
  const purchase = request.purchase;
  return (
    <Flex direction="column" gap="3">
      <Callout.Root color="blue">
        <Callout.Text>{MANUAL_NOTE}</Callout.Text>
      </Callout.Root>
      <DataList.Root size="2" data-testid="charge-request">
        <DataList.Item>
          <DataList.Label>مشتری</DataList.Label>
          <DataList.Value>{request.customer.fullName || request.customer.mobileNo}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>حساب</DataList.Label>
          <DataList.Value>
            {/* Spaced by the flex gap: plain spaces beside the left-to-right id collapse in RTL. */}
            <Flex gap="2" align="center" wrap="wrap">
              <Text>{account.title}</Text>
              <bdi dir="ltr">{account.googleCustomerId}</bdi>
              <Badge color={account.status === 'active' ? 'green' : 'red'}>
                {account.status === 'active' ? 'فعال' : 'معلق'}
              </Badge>
            </Flex>
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>پنل مدیریت</DataList.Label>
          <DataList.Value>{account.mccTitle}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>مبلغ شارژ</DataList.Label>
          <DataList.Value data-testid="charge-amount">
            {purchase.amount} {purchase.currencyCode}
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>مبلغ رزروشده</DataList.Label>
          <DataList.Value>
            <RialText value={request.reserved} />
          </DataList.Value>
        </DataList.Item>
      </DataList.Root>
      <Text size="2" color="gray">
        با ثبت شارژ، کل مبلغ رزروشده هزینه می‌شود و کارمزد و مالیات آن شناسایی می‌شود.
      </Text>
      <Tabs.Root defaultValue="done">
        <Tabs.List>
          <Tabs.Trigger value="done">شارژ شد</Tabs.Trigger>
          <Tabs.Trigger value="failed">ناموفق</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="done">
          <Decision
            form={CHARGE_FORM}
            idPrefix="charge"
            submitLabel="ثبت شارژ"
            submitTestId="charge-done-submit"
            decide={(d) => recordGoogleAdsChargeDone(purchase.id, String(d.chargeReference))}
            onDone={onDone}
          />
        </Tabs.Content>
        <Tabs.Content value="failed">
          <Decision
            form={REJECT_FORM}
            idPrefix="chargeFailed"
            submitLabel="ثبت ناموفق"
            submitTestId="charge-failed-submit"
            decide={(d) => recordGoogleAdsChargeFailed(purchase.id, String(d.reason))}
            onDone={onDone}
          />
        </Tabs.Content>
      </Tabs.Root>
    </Flex>
  );
}
