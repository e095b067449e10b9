/**
 * One request opened in My requests: its price (wallet part and online part), pay and cancel while it waits for
 * payment, the states it went through (colour, Jalali or Gregorian date as the customer chose, why) and its
 * online payments, each paid one with its receipt; once done, the currency payment staff made (foreign amount,
 * reference, real price, what came back to the wallet, the receipt image) with its verification code and QR.
 * Refreshed live by purchase.changed.
 */
import { Cross2Icon } from '@radix-ui/react-icons';
import {
  Badge,
  Box,
  Button,
  Card,
  DataList,
  Flex,
  Heading,
  IconButton,
  Link as RadixLink,
  Skeleton,
  Text,
} from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../../shared/format';
import { DateText } from '../../components/date/DateText';
import { Fields } from '../../components/FieldsView';
import { PayAction } from '../../components/payments/PayAction';
import { PurchasePrice } from '../../components/payments/PurchasePrice';
import { StateHistory } from '../../components/payments/StateHistory';
import { RequestTimeline } from '../../components/payments/RequestTimeline';
import { ReceiptVerification } from '../../components/receipt/ReceiptVerification';
import { RialText } from '../../components/RialText';
import { ToneBadge } from '../../components/ToneBadge';
import { LoadError } from '../../components/states/LoadError';
import { purchaseDetailQuery } from '../../lib/queries/purchases';
import { pathOf } from '../../lib/routes';
import { CancelPurchaseButton } from './CancelPurchaseButton';
import { Conversation } from '../../components/conversation/Conversation';
import { DeadlineCountdown } from './DeadlineCountdown';
import { RequestPromiseNote } from '../../components/deadline/PromiseNote';
import { PaymentLinkSection } from './PaymentLinkSection';
import { ONLINE_PAYMENT_STATES } from './payment-outcomes';
import { toPersianDigits } from '../../../shared/digits';

export function RequestDetail({ purchaseId, onClose }: { purchaseId: number; onClose: () => void }) {
  const { data, isPending, isError, error, refetch, isFetching } = useQuery(purchaseDetailQuery(purchaseId));
  return (
    <Card size="2" data-testid="request-detail">
      <Flex direction="column" gap="3">
        <Flex justify="between" align="center" gap="2">
          <Heading size="4" as="h2">
            درخواست شماره {toPersianDigits(purchaseId)}
            {data ? ` — ${data.purchase.deskTitle}` : ''}
          </Heading>
          <IconButton variant="ghost" color="gray" onClick={onClose} aria-label="بستن جزئیات درخواست">
            <Cross2Icon />
          </IconButton>
        </Flex>
        {isPending ? (
          <Skeleton height="200px" />
        ) : isError ? (
          <LoadError
            error={error}
            fallback="دریافت اطلاعات درخواست ممکن نشد."
            onRetry={() => void refetch()}
            retrying={isFetching}
          />
        ) : (
          <>
            <Flex gap="2" align="center" wrap="wrap">
              <Text size="2">وضعیت:</Text>
              <ToneBadge size="2" tone={data.purchase.stateColor} data-testid="request-state">
                {data.purchase.stateTitle}
              </ToneBadge>
            </Flex>
            <DeadlineCountdown purchase={data.purchase} />
            <RequestPromiseNote promise={data.purchase.promise} />
            <PurchasePrice purchase={data.purchase} waiting={data.purchase.state === 'waitingForPayment'} />
            {data.purchase.fieldsView.length > 0 && (
              <>
                <Heading size="3" as="h3">
                  اطلاعات درخواست
                </Heading>
                <Box data-testid="request-fields">
                  <Fields fields={data.purchase.fieldsView} />
                </Box>
              </>
            )}
            {data.purchase.state === 'waitingForPayment' && (
              <Flex direction="column" gap="2">
                <PayAction purchase={data.purchase} />
                <Box>
                  <CancelPurchaseButton purchaseId={data.purchase.id} />
                </Box>
                <PaymentLinkSection purchaseId={data.purchase.id} link={data.paymentLink ?? null} />
              </Flex>
            )}
            {data.payerName && (
              <Text size="2" data-testid="request-payer">
                پرداخت‌کننده: {data.payerName}
              </Text>
            )}

            <RequestTimeline timeline={data.timeline} />
            <Heading size="3" as="h3">
              تاریخچه وضعیت
            </Heading>
            <StateHistory history={data.history} />
            <Conversation purchaseId={purchaseId} />

            {data.currencyPayment && (
              <>
                <Heading size="3" as="h3">
                  پرداخت ارزی
                </Heading>
                <DataList.Root size="2" data-testid="currency-payment">
                  <DataList.Item>
                    <DataList.Label>مبلغ پرداخت‌شده</DataList.Label>
                    <DataList.Value>
                      <bdi dir="ltr">
                        {formatNumber(data.currencyPayment.foreignAmount)} {data.currencyPayment.currencyCode}
                      </bdi>
                    </DataList.Value>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.Label>شماره پیگیری نزد پذیرنده</DataList.Label>
                    <DataList.Value>
                      <Flex direction="column" gap="1">
                        <bdi dir="ltr" data-testid="currency-payment-reference">
                          {data.currencyPayment.reference}
                        </bdi>
                        {/* A finished request shows two codes; say which one the university wants. */}
                        <Text size="1" color="gray" weight="regular" data-testid="currency-payment-reference-hint">
                          این شماره را به دانشگاه، سفارت یا مرکز آزمون بدهید؛ پرداخت شما را با همین شماره می‌شناسند. کد
                          بررسی رسید (پایین‌تر) فقط برای بررسی درستی رسید ارزپی است.
                        </Text>
                      </Flex>
                    </DataList.Value>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.Label>هزینه واقعی</DataList.Label>
                    <DataList.Value>
                      <RialText value={data.currencyPayment.realPrice} testId="currency-payment-real-price" />
                    </DataList.Value>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.Label>بازگشت به کیف پول</DataList.Label>
                    <DataList.Value>
                      <RialText value={data.currencyPayment.returnedAmount} testId="currency-payment-returned" />
                    </DataList.Value>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.Label>تاریخ پرداخت</DataList.Label>
                    <DataList.Value>
                      <DateText value={data.currencyPayment.createdAt} />
                    </DataList.Value>
                  </DataList.Item>
                  {data.currencyPayment.receiptUrl && (
                    <DataList.Item>
                      <DataList.Label>رسید</DataList.Label>
                      <DataList.Value>
                        <RadixLink
                          href={data.currencyPayment.receiptUrl}
                          target="_blank"
                          rel="noopener"
                          data-testid="currency-payment-receipt"
                        >
                          {/\.pdf\?/.test(data.currencyPayment.receiptUrl)
                            ? 'تأییدیهٔ پذیرنده (PDF، دانلود)'
                            : 'رسید پرداخت ارزی'}
                        </RadixLink>
                      </DataList.Value>
                    </DataList.Item>
                  )}
                </DataList.Root>
                {/* The finished request's receipt: anyone holding its code can check it at /verify. */}
                <ReceiptVerification
                  code={data.currencyPayment.verificationCode}
                  url={data.currencyPayment.verificationUrl}
                />
                {/* The bilingual letter an embassy or a university office reads, printable on one A4 page. */}
                <Button asChild variant="soft" style={{ alignSelf: 'flex-start' }}>
                  <Link to={pathOf('proofLetter', { id: String(purchaseId) })} data-testid="proof-letter-link">
                    نامهٔ تأیید پرداخت (فارسی و انگلیسی)
                  </Link>
                </Button>
              </>
            )}

            <Heading size="3" as="h3">
              پرداخت‌های آنلاین
            </Heading>
            {data.payments.length === 0 ? (
              <Text size="2" color="gray">
                پرداخت آنلاینی برای این درخواست انجام نشده است.
              </Text>
            ) : (
              <Flex direction="column" gap="2" data-testid="online-payments">
                {data.payments.map((p) => {
                  const state = ONLINE_PAYMENT_STATES[p.state] ?? { title: p.state, color: 'gray' as const };
                  return (
                    // One block per payment: its amount and state, then its date and its own receipt, so a
                    // receipt never reads as another payment's on a narrow screen.
                    <Flex
                      key={p.onlineProformaId}
                      direction="column"
                      gap="1"
                      className="payment-line"
                      data-testid="online-payment"
                    >
                      <Flex gap="2" align="center" wrap="wrap">
                        <RialText value={p.amount} />
                        <Badge color={state.color}>{state.title}</Badge>
                      </Flex>
                      <Flex gap="3" align="center" justify="between" wrap="wrap">
                        <Text size="2" color="gray">
                          <DateText value={p.createdAt} format="longDateTime" />
                        </Text>
                        {p.collectionId && (
                          <RadixLink asChild size="2">
                            <Link to={pathOf('receipt', { id: String(p.collectionId) })} data-testid="receipt-link">
                              رسید این پرداخت
                            </Link>
                          </RadixLink>
                        )}
                      </Flex>
                    </Flex>
                  );
                })}
              </Flex>
            )}
          </>
        )}
      </Flex>
    </Card>
  );
}
