/**
 * «ثبت دریافت دستی» (payOffline, schemas/entryForms/payOffline.json) in two uses: a deposit to a customer's wallet
 * by their mobile number (the collections page), where the customer's name and balance show as soon as the number is
 * whole; or the manual completion of a request whose online payment never came back confirmed (its token and
 * amount fixed). Either way the dialog asks once more, with the amount in words, before anything is credited.
 */
import { Box, Button, Callout, DataList, Dialog, Flex, Spinner, Text } from '@radix-ui/themes';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import messages from '../../../../../schemas/messages/fa.json';
import payOfflineForm from '../../../../../schemas/entryForms/payOffline.json';
import payOfflineValidators from '../../../../../src/generated/form-validators/payOffline';
import type { components } from '../../../../generated/api';
import { formatPhone, toPersianDigits } from '../../../../shared/format';
import { rialInWords } from '../../../../shared/format/persian-words';
import { canonicalMobile } from '../../../../shared/mobile';
import { DialogActions } from '../../../components/DialogActions';
import { asEntryForm, EntryForm, type FormData, withoutFields } from '../../../components/form-engine/EntryForm';
import { RialText } from '../../../components/RialText';
import { serverMessage, useDialogAction } from '../../../components/useDialogAction';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { internalBankAccountsQuery } from '../../../lib/queries/staff-money';

type DepositCustomer = components['schemas']['DepositCustomer'];
export type UnconfirmedPayment = components['schemas']['OpenOnlinePayment'];

const FULL = asEntryForm(payOfflineForm, payOfflineValidators);
const DEPOSIT_FORM = withoutFields(FULL, ['proformaToken']);
const SETTLE_FORM = withoutFields(FULL, ['proformaToken', 'customerMobileNo']);

const depositCustomerQuery = (mobile: string | null) => ({
  queryKey: ['staff', 'depositCustomer', mobile],
  enabled: mobile !== null,
  retry: false,
  queryFn: () =>
    call<DepositCustomer>(api.POST('/api/sys/findDepositCustomer', { body: { customerMobileNo: mobile! } })),
});

/** A customer as staff recognise them: name and mobile number, or the number alone when that is all there is. */
const customerText = (c: DepositCustomer) =>
  c.name === c.mobileNo ? formatPhone(c.mobileNo) : `${c.name} (${formatPhone(c.mobileNo)})`;

/** The customer a typed mobile number names, with their balance; nothing until the number is whole. */
function DepositCustomerLine({ found }: { found: UseQueryResult<DepositCustomer> }) {
  if (found.isPending) return found.fetchStatus === 'idle' ? null : <Spinner size="1" />;
  if (found.isError)
    return (
      <Callout.Root color="red" size="1" role="alert" data-testid="deposit-customer-missing">
        <Callout.Text>{digMessage(found.error) ?? FALLBACK_MESSAGE}</Callout.Text>
      </Callout.Root>
    );
  return (
    <Callout.Root color="blue" size="1" data-testid="deposit-customer">
      <Callout.Text>
        کیف پول <b>{customerText(found.data)}</b> — موجودی کنونی: <RialText value={found.data.balance} />
      </Callout.Text>
    </Callout.Root>
  );
}

export function PayOfflineDialog({
  settle,
  onClose,
  onRecorded,
}: {
  /** The unconfirmed online payment to complete by hand; without it, a deposit to a wallet. */
  settle?: UnconfirmedPayment;
  onClose: () => void;
  onRecorded: () => void;
}) {
  const [data, setData] = useState<FormData>(settle ? { collectionAmount: settle.amount } : {});
  const [asking, setAsking] = useState<FormData | null>(null);
  const { busy, error, setError, run } = useDialogAction();
  const accounts = useQuery(internalBankAccountsQuery);
  const formContext = useMemo(
    () => ({
      choices: {
        bankAccounts: (accounts.data?.items ?? [])
          .filter((a) => a.isActive)
          .map((a) => ({ id: a.id, title: `${a.title} — ${a.bankName} ${a.accountNo}` })),
      },
    }),
    [accounts.data],
  );
  const mobile = settle ? null : canonicalMobile(data.customerMobileNo);
  const found = useQuery(depositCustomerQuery(mobile));
  const customer = found.data;

  const record = (fields: FormData) =>
    void run(
      () =>
        serverMessage(
          api.POST('/api/sys/payOffline', {
            body: {
              formIsValid: true,
              onlineProformaToken: settle?.token ?? '',
              ...(settle ? {} : { customerMobileNo: String(fields.customerMobileNo ?? '') }),
              collectionAmount: Number(fields.collectionAmount),
              collectionTrackingCode: String(fields.collectionTrackingCode),
              collectionSourceAccountNo: String(fields.collectionSourceAccountNo),
              collectionDestinationAccount: Number(fields.collectionDestinationAccount),
            },
          }),
        ),
      {
        done: () => {
          onRecorded();
          onClose();
        },
      },
    );

  const amount = Number(asking?.collectionAmount ?? 0);
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="min(520px, 94vw)" data-testid="pay-offline-dialog">
        <Dialog.Title>{settle ? 'تکمیل دستی سفارش' : 'ثبت دریافت دستی'}</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          {settle
            ? `پرداخت آنلاین درخواست شماره ${toPersianDigits(settle.purchaseId)} از ${settle.customerName} به بانک رسید و تایید نشد. اگر مبلغ آن در حساب ارزپی دیده می‌شود، با کد پیگیری بانک ثبتش کنید تا درخواست پرداخت‌شده شود.`
            : 'واریزی که در حساب بانکی ارزپی دیده‌اید به کیف پول مشتریِ این موبایل می‌رود. هر کد پیگیری یک بار ثبت می‌شود.'}
        </Dialog.Description>
        {asking ? (
          <Flex direction="column" gap="3" data-testid="pay-offline-confirm">
            <Text size="3" weight="bold">
              این دریافت ثبت شود؟
            </Text>
            <DataList.Root size="2">
              <DataList.Item>
                <DataList.Label minWidth="110px">{settle ? 'درخواست' : 'کیف پول'}</DataList.Label>
                <DataList.Value>
                  {settle
                    ? `شماره ${toPersianDigits(settle.purchaseId)} — ${settle.customerName}`
                    : customer && customerText(customer)}
                </DataList.Value>
              </DataList.Item>
              <DataList.Item>
                <DataList.Label minWidth="110px">مبلغ</DataList.Label>
                <DataList.Value>
                  <Flex direction="column" gap="1">
                    <RialText value={amount} testId="pay-offline-confirm-amount" />
                    <Text size="2" color="gray" data-testid="pay-offline-confirm-words">
                      {rialInWords(amount)}
                    </Text>
                  </Flex>
                </DataList.Value>
              </DataList.Item>
              {!settle && customer && (
                <DataList.Item>
                  <DataList.Label minWidth="110px">موجودی پس از ثبت</DataList.Label>
                  <DataList.Value>
                    <RialText value={customer.balance + amount} />
                  </DataList.Value>
                </DataList.Item>
              )}
            </DataList.Root>
            {error && (
              <Callout.Root color="red" role="alert">
                <Callout.Text>{error}</Callout.Text>
              </Callout.Root>
            )}
            <Flex gap="3" justify="end" wrap="wrap">
              <Button
                type="button"
                variant="soft"
                color="gray"
                disabled={busy !== null}
                onClick={() => {
                  setError(null);
                  setAsking(null);
                }}
              >
                بازگشت و ویرایش
              </Button>
              <Button
                type="button"
                loading={busy !== null}
                onClick={() => record(asking)}
                data-testid="confirm-pay-offline"
              >
                تایید و ثبت دریافت
              </Button>
            </Flex>
          </Flex>
        ) : (
          <EntryForm
            form={settle ? SETTLE_FORM : DEPOSIT_FORM}
            idPrefix="payOffline"
            formData={data}
            onChange={setData}
            onSubmit={(fields) => {
              // A deposit is asked about only once the wallet it goes to is known.
              if (!settle && !customer) {
                setError(
                  mobile ? (digMessage(found.error) ?? FALLBACK_MESSAGE) : messages.messages['login.mobileNo.required'],
                );
                return;
              }
              setError(null);
              setAsking(fields);
            }}
            formContext={formContext}
            {...(settle ? { uiSchema: { collectionAmount: { 'ui:readonly': true } } } : {})}
          >
            {!settle && (
              <Box mt="2">
                <DepositCustomerLine found={found} />
              </Box>
            )}
            <DialogActions
              error={error}
              busy={!settle && found.isFetching}
              submitLabel="ادامه"
              submitTestId="submit-pay-offline"
              mt="3"
            />
          </EntryForm>
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}
