/**
 * A paid request's fulfilment task: opening it claims it. Staff see every field the customer gave (the password
 * revealed only on demand, each reveal audit-logged by the server), the price summary with its costs and the
 * reservation, then decide once: «انجام شد» with the real price and the currency payment, «ناموفق» with the
 * reason the customer sees (all back to the wallet), or «خطای کاربر» (fee and tax kept, the rest back). The forms
 * are schemas/entryForms/fulfilmentDone.json, fulfilmentFailed.json and fulfilmentRefundUserError.json.
 */
import { EyeOpenIcon } from '@radix-ui/react-icons';
import { Box, Button, Callout, DataList, Dialog, Flex, Heading, Skeleton, Tabs, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import messages from '../../../../../schemas/messages/fa.json';
import {
  type ForeignReferenceFormat,
  foreignReferenceMessage,
  isForeignReference,
} from '../../../../shared/validation/foreign-reference';
import doneFormJson from '../../../../../schemas/entryForms/fulfilmentDone.json';
import fulfilmentDoneValidators from '../../../../../src/generated/form-validators/fulfilmentDone';
import failedFormJson from '../../../../../schemas/entryForms/fulfilmentFailed.json';
import fulfilmentFailedValidators from '../../../../../src/generated/form-validators/fulfilmentFailed';
import userErrorFormJson from '../../../../../schemas/entryForms/fulfilmentRefundUserError.json';
import fulfilmentRefundUserErrorValidators from '../../../../../src/generated/form-validators/fulfilmentRefundUserError';
import { formatNumber, formatRial, toPersianDigits } from '../../../../shared/format';
import { LATIN_ATTRIBUTE } from '../../../../shared/format/latin';
import { DialogActions } from '../../../components/DialogActions';
import { DateText } from '../../../components/date/DateText';
import { CustomerAndDeadline } from '../StaffRequestHeader';
import { asEntryForm, EntryForm, type FormData } from '../../../components/form-engine/EntryForm';
import { PurchasePrice } from '../../../components/payments/PurchasePrice';
import { RialText } from '../../../components/RialText';
import { useDialogAction } from '../../../components/useDialogAction';
import { LoadError } from '../../../components/states/LoadError';
import { digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import {
  type FulfilmentDone,
  type FulfilmentTaskData,
  fulfilmentTaskQuery,
  recordFulfilmentDone,
  recordFulfilmentFailed,
  recordFulfilmentRefundUserError,
  revealPurchaseSecret,
} from '../../../lib/queries/fulfilment';
import { ToneBadge } from '../../../components/ToneBadge';

const DONE_FORM = asEntryForm(doneFormJson, fulfilmentDoneValidators);
const FAILED_FORM = asEntryForm(failedFormJson, fulfilmentFailedValidators);
const USER_ERROR_FORM = asEntryForm(userErrorFormJson, fulfilmentRefundUserErrorValidators);

function fieldText(value: FulfilmentTaskData['fields'][number]['value']): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'بله' : 'خیر';
  // A number is read in Persian digits; text is what the customer typed, shown as written.
  if (typeof value === 'number') return formatNumber(value);
  return String(value);
}

/** The request's fields; a secret one shows dots and a button that asks the server for it. */
function RequestFields({ data }: { data: FulfilmentTaskData }) {
  const [revealed, setRevealed] = useState<Record<string, string> | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reveal = async () => {
    setBusy(true);
    setError(null);
    try {
      setRevealed((await revealPurchaseSecret(data.purchase.id)).fields);
    } catch (e) {
      setError(digMessage(e) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };
  return (
    <DataList.Root size="2" data-testid="fulfilment-fields">
      {data.fields.map((field) => (
        <DataList.Item key={field.name}>
          <DataList.Label minWidth="140px">{field.title}</DataList.Label>
          <DataList.Value>
            {field.secret ? (
              revealed && field.name in revealed ? (
                <Text className="ltr" weight="bold" data-testid={`revealed-${field.name}`}>
                  {revealed[field.name]}
                </Text>
              ) : (
                <Flex gap="2" align="center" wrap="wrap">
                  <Text aria-hidden>••••••</Text>
                  <Button
                    size="1"
                    variant="soft"
                    color="orange"
                    loading={busy}
                    onClick={() => void reveal()}
                    data-testid={`reveal-${field.name}`}
                  >
                    <EyeOpenIcon /> نمایش {field.title}
                  </Button>
                  {error && (
                    <Text size="1" color="red" role="alert">
                      {error}
                    </Text>
                  )}
                </Flex>
              )
            ) : field.isDate && typeof field.value === 'string' ? (
              <Text data-field-date={field.name}>
                <DateText value={field.value} format="slashDate" />
              </Text>
            ) : (
              <Text
                className={typeof field.value === 'string' && /^[\x20-\x7e]+$/.test(field.value) ? 'ltr' : ''}
                {...(typeof field.value === 'string' ? { [LATIN_ATTRIBUTE]: '' } : {})}
              >
                {fieldText(field.value)}
              </Text>
            )}
          </DataList.Value>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}

/** What a real price does to the reservation: the currency's cost and the rial returned to the wallet. */
function DoneSummary({ data, realPrice }: { data: FulfilmentTaskData; realPrice: unknown }) {
  const costs = data.costs.fee + data.costs.tax + data.costs.operationCost;
  if (typeof realPrice !== 'number' || !Number.isInteger(realPrice) || realPrice <= 0) return null;
  const tooHigh = realPrice > data.reserved;
  const tooLow = realPrice <= costs;
  return (
    <Callout.Root color={tooHigh || tooLow ? 'red' : 'blue'} size="1" data-testid="fulfilment-split">
      <Callout.Text>
        {tooHigh ? (
          <>
            قیمت واقعی بیش از مبلغ رزروشده (<RialText value={data.reserved} />) است.
          </>
        ) : tooLow ? (
          <>
            قیمت واقعی باید از مجموع کارمزد، مالیات و هزینه عملیاتی (<RialText value={costs} />) بیشتر باشد.
          </>
        ) : (
          <>
            هزینه ارزی: <RialText value={realPrice - costs} /> — کارمزد و مالیات و هزینه عملیاتی:{' '}
            <RialText value={costs} /> — بازگشت به کیف پول مشتری: <RialText value={data.reserved - realPrice} />
          </>
        )}
      </Callout.Text>
    </Callout.Root>
  );
}

type Decision = 'done' | 'failed' | 'userError';

function Decisions({ data, onDecided }: { data: FulfilmentTaskData; onDecided: () => void }) {
  const [done, setDone] = useState<FormData>({});
  const [failed, setFailed] = useState<FormData>({});
  const [userError, setUserError] = useState<FormData>({});
  const { busy, error, setError, run } = useDialogAction<Decision>();
  const choices = { thirdParties: data.thirdParties, paymentMethods: data.paymentMethods };
  const declared = data.foreignReference;
  // The reference field is named and checked as the desk declares it: one rule with the server's, its message.
  const doneForm = useMemo(() => {
    if (!declared) return DONE_FORM;
    const property = DONE_FORM.schema.properties.currencyPaymentReference;
    const properties = {
      ...DONE_FORM.schema.properties,
      currencyPaymentReference: { ...property, title: declared.title },
    };
    return { ...DONE_FORM, schema: { ...DONE_FORM.schema, properties } };
  }, [declared]);
  const referenceRule = useMemo(() => {
    const format = declared?.format as ForeignReferenceFormat | null | undefined;
    if (!format) return undefined;
    const message = (messages.messages as Record<string, string>)[foreignReferenceMessage(format)] ?? '';
    return (values: FormData) => {
      const typed = values.currencyPaymentReference;
      return typeof typed === 'string' && typed.trim() !== '' && !isForeignReference(format, typed)
        ? { currencyPaymentReference: message }
        : {};
    };
  }, [declared]);

  const decide = (kind: Decision, values: FormData) =>
    void run(
      () =>
        kind === 'done'
          ? recordFulfilmentDone({ ...(values as Omit<FulfilmentDone, 'purchase'>), purchase: data.purchase.id })
          : kind === 'failed'
            ? recordFulfilmentFailed(data.purchase.id, String(values.reason ?? ''))
            : recordFulfilmentRefundUserError(data.purchase.id, String(values.reason ?? '')),
      { kind, done: onDecided },
    );

  return (
    <Tabs.Root defaultValue="done" onValueChange={() => setError(null)}>
      <Tabs.List>
        <Tabs.Trigger value="done" data-testid="tab-done">
          انجام شد
        </Tabs.Trigger>
        <Tabs.Trigger value="failed" data-testid="tab-failed">
          ناموفق
        </Tabs.Trigger>
        <Tabs.Trigger value="userError" data-testid="tab-user-error">
          خطای کاربر
        </Tabs.Trigger>
      </Tabs.List>
      <Box pt="3">
        <Tabs.Content value="done">
          <EntryForm
            form={doneForm}
            idPrefix="fulfilmentDone"
            formData={done}
            onChange={setDone}
            formContext={{ choices }}
            uiSchema={{
              foreignAmount: { 'ui:placeholder': String(data.purchase.amount) },
              ...(declared?.format === 'sevisId'
                ? { currencyPaymentReference: { 'ui:placeholder': 'N0012345678' } }
                : {}),
            }}
            crossFieldErrors={referenceRule}
            disabled={busy !== null}
            onSubmit={(values) => decide('done', values)}
          >
            <DoneSummary data={data} realPrice={done.realPrice} />
            <DialogActions
              error={error}
              busy={busy === 'done'}
              submitLabel="ثبت انجام درخواست"
              submitTestId="submit-done"
              mt="3"
            />
          </EntryForm>
        </Tabs.Content>
        <Tabs.Content value="failed">
          <EntryForm
            form={FAILED_FORM}
            idPrefix="fulfilmentFailed"
            formData={failed}
            onChange={setFailed}
            disabled={busy !== null}
            onSubmit={(values) => decide('failed', values)}
          >
            <Text size="2" color="gray" as="p">
              مبلغ رزروشده (<RialText value={data.reserved} />) به کیف پول مشتری برمی‌گردد.
            </Text>
            <DialogActions
              error={error}
              busy={busy === 'failed'}
              submitLabel="ثبت ناموفق"
              submitTestId="submit-failed"
              mt="3"
            />
          </EntryForm>
        </Tabs.Content>
        <Tabs.Content value="userError">
          <EntryForm
            form={USER_ERROR_FORM}
            idPrefix="fulfilmentRefundUserError"
            formData={userError}
            onChange={setUserError}
            disabled={busy !== null}
            onSubmit={(values) => decide('userError', values)}
          >
            <Text size="2" color="gray" as="p" data-testid="user-error-split">
              طبق قوانین، در بازگشت وجه پس از خطای کاربر کارمزد (<RialText value={data.costs.fee} />) و مالیات (
              <RialText value={data.costs.tax} />) کسر می‌شود و{' '}
              <RialText value={Math.max(0, data.reserved - data.costs.fee - data.costs.tax)} /> به کیف پول مشتری
              برمی‌گردد.
            </Text>
            <DialogActions
              error={error}
              busy={busy === 'userError'}
              submitLabel="ثبت بازگشت وجه با کسر کارمزد"
              submitTestId="submit-user-error"
              mt="3"
            />
          </EntryForm>
        </Tabs.Content>
      </Box>
    </Tabs.Root>
  );
}

function FulfilmentBody({ taskId, onDecided }: { taskId: number; onDecided: () => void }) {
  const { data, isPending, isError, error, refetch, isFetching } = useQuery(fulfilmentTaskQuery(taskId));
  if (isPending) return <Skeleton height="320px" data-testid="fulfilment-loading" />;
  if (isError)
    return (
      <LoadError
        error={error}
        fallback="دریافت اطلاعات درخواست ممکن نشد."
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  const { purchase, customer, costs } = data;
  const open = purchase.state === 'paid' || purchase.state === 'inProgress';
  return (
    <Flex direction="column" gap="4">
      <Flex gap="3" align="center" wrap="wrap">
        <ToneBadge size="2" tone={purchase.stateColor} data-testid="fulfilment-state">
          {purchase.stateTitle}
        </ToneBadge>
        <CustomerAndDeadline
          customer={customer}
          deadlineAt={purchase.deadlineAt}
          deadlineAtRisk={data.task.deadlineAtRisk}
        />
        {customer.nationalCode && (
          <Text size="2">
            کد ملی: <span className="ltr">{toPersianDigits(customer.nationalCode)}</span>
          </Text>
        )}
        <Text size="2" color="gray">
          ثبت: <DateText value={purchase.createdAt} />
        </Text>
      </Flex>
      <Flex gap="4" wrap="wrap" align="start">
        <Box style={{ flex: '1 1 320px', minWidth: 0 }}>
          <Heading size="3" as="h3" mb="2">
            اطلاعات درخواست
          </Heading>
          <RequestFields data={data} />
        </Box>
        <Box style={{ flex: '1 1 280px', minWidth: 0 }}>
          <PurchasePrice purchase={purchase} waiting={false} />
          <DataList.Root size="1" mt="2">
            <DataList.Item>
              <DataList.Label>کارمزد</DataList.Label>
              <DataList.Value>{formatRial(costs.fee)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>مالیات</DataList.Label>
              <DataList.Value>{formatRial(costs.tax)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>هزینه عملیاتی</DataList.Label>
              <DataList.Value>{formatRial(costs.operationCost)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>مبلغ رزروشده</DataList.Label>
              <DataList.Value data-testid="fulfilment-reserved">{formatRial(data.reserved)}</DataList.Value>
            </DataList.Item>
          </DataList.Root>
        </Box>
      </Flex>
      {open ? (
        <Decisions data={data} onDecided={onDecided} />
      ) : (
        <Callout.Root color="gray">
          <Callout.Text>درباره این درخواست پیش‌تر تصمیم‌گیری شده است.</Callout.Text>
        </Callout.Root>
      )}
    </Flex>
  );
}

export function FulfilmentDialog({ taskId, onClose }: { taskId: number | null; onClose: (changed: boolean) => void }) {
  return (
    <Dialog.Root open={taskId !== null} onOpenChange={(o) => !o && onClose(false)}>
      <Dialog.Content maxWidth="min(960px, 94vw)" data-testid="fulfilment-dialog">
        <Dialog.Title>انجام درخواست پرداخت ارزی</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          با باز کردن این کار، انجام آن به نام شما ثبت می‌شود. هر تصمیم فقط یک بار ثبت می‌شود.
        </Dialog.Description>
        {taskId !== null && <FulfilmentBody key={taskId} taskId={taskId} onDecided={() => onClose(true)} />}
      </Dialog.Content>
    </Dialog.Root>
  );
}
