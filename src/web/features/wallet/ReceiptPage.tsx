/**
 * The receipt of a collection (/request/receipts/:id): money received from the customer, in Persian, with the
 * amount in digits and in words, the Jalali and Gregorian date and time, trace code, bank reference, masked card,
 * gateway, request, customer name and national code. A payment with someone else's card says the money went back
 * to that card. The print button prints it; the print stylesheet (global.css, `.print-area`) leaves only the
 * receipt on one page, so the browser's "save as PDF" gives a clean receipt. Its verification code and QR (the
 * public /verify/<code> page) let whoever is shown it check it. A test instance's receipt says so inside
 * itself, the page's banner being left out of print.
 */
import { ArrowRightIcon, DownloadIcon } from '@radix-ui/react-icons';
import { Badge, Button, Callout, Flex, Heading, Link as RadixLink, Skeleton, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import messages from '../../../../schemas/messages/fa.json';
import { toPersianDigits } from '../../../shared/format';
import { displayDate } from '../../../shared/format/dates';
import { rialInWords } from '../../../shared/format/persian-words';
import { Latin } from '../../components/Latin';
import { ReceiptVerification } from '../../components/receipt/ReceiptVerification';
import { Amount, TomanEquivalent } from '../../components/RialText';
import { SignInPrompt } from '../../components/states/SignInPrompt';
import { LoadError } from '../../components/states/LoadError';
import { requestPath } from '../../lib/payments';
import { collectionQuery } from '../../lib/queries/collections';
import { pathOf } from '../../lib/routes';
import { isTestInstance } from '../../lib/test-instance';
import { userAtom } from '../../lib/session';

function Line({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="receipt-line">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

const Ltr = ({ children }: { children: ReactNode }) => (
  <bdi dir="ltr" className="ltr">
    {children}
  </bdi>
);

function Receipt({ id }: { id: number }) {
  const { data, isPending, isError, error, refetch, isFetching } = useQuery(collectionQuery(id));
  if (isPending) return <Skeleton height="420px" />;
  if (isError) {
    return (
      <LoadError error={error} fallback="دریافت رسید ممکن نشد." onRetry={() => void refetch()} retrying={isFetching} />
    );
  }
  const r = data;
  return (
    <Flex direction="column" gap="3">
      <article className="receipt print-area" data-testid="receipt" aria-labelledby="receipt-title">
        <header className="receipt-head">
          <Flex direction="column" gap="1">
            <Heading size="5" as="h1" id="receipt-title">
              رسید پرداخت
            </Heading>
            <Text size="2" color="gray">
              ارزپی — پرداخت ارزی برای شما
            </Text>
          </Flex>
          <Flex direction="column" gap="1" align="end">
            <Text size="2">
              شماره رسید: <Ltr>{toPersianDigits(r.id)}</Ltr>
            </Text>
            <Badge color={r.refundedToCard ? 'red' : 'green'} size="2" data-testid="receipt-status">
              {r.refundedToCard ? 'بازگشت به کارت پرداخت‌کننده' : 'دریافت شد'}
            </Badge>
          </Flex>
        </header>

        {r.refundedToCard && (
          <Callout.Root color="red" className="receipt-refund" data-testid="receipt-refunded">
            <Callout.Text>
              این پرداخت با کارتی انجام شد که به نام شما نیست
              {r.cardHolderNationalCode ? ` (کارت دارندهٔ کد ملی ${toPersianDigits(r.cardHolderNationalCode)})` : ''}.
              طبق قوانین، پرداخت با کارت شخص دیگر پذیرفته نمی‌شود: مبلغ به کیف پول شما واریز نشد و درخواست با آن پرداخت
              نشد، و همین مبلغ به همان کارت پرداخت‌کننده بازگردانده می‌شود (حداکثر ظرف سه روز کاری).
            </Callout.Text>
          </Callout.Root>
        )}

        <div className="receipt-amount">
          <Text size="2" color="gray">
            مبلغ
          </Text>
          <Text size="7" weight="bold">
            <Amount value={r.amount} testId="receipt-amount" />
          </Text>
          <TomanEquivalent value={r.amount} testId="receipt-amount-toman" />
          <Text size="2" data-testid="receipt-amount-words">
            به حروف: {rialInWords(r.amount)}
          </Text>
        </div>

        <dl className="receipt-lines">
          <Line label="تاریخ و ساعت (شمسی)" testId="receipt-jalali">
            {displayDate(r.createdAt, 'weekdayDate', 'fa').replace(/\s\S+$/, '')}{' '}
            {displayDate(r.createdAt, 'longDateTime', 'fa')}
          </Line>
          <Line label="تاریخ و ساعت (میلادی)" testId="receipt-gregorian">
            {displayDate(r.createdAt, 'longDateTime', 'en')}
          </Line>
          <Line label="کد پیگیری" testId="receipt-trace-code">
            <Ltr>{toPersianDigits(r.traceCode)}</Ltr>
          </Line>
          <Line label="شماره مرجع بانک" testId="receipt-reference">
            {r.referenceId ? <Ltr>{toPersianDigits(r.referenceId)}</Ltr> : '—'}
          </Line>
          <Line label="کارت پرداخت‌کننده" testId="receipt-card">
            {r.cardNo ? <Latin>{toPersianDigits(r.cardNo)}</Latin> : '—'}
          </Line>
          <Line label="روش دریافت">
            {r.source === 'online' ? `درگاه پرداخت — ${r.gatewayTitle}` : 'واریز به حساب (ثبت دستی)'}
          </Line>
          <Line label="بابت" testId="receipt-purchase">
            {r.purchaseId ? (
              <>
                درخواست شماره <Ltr>{toPersianDigits(r.purchaseId)}</Ltr>
                {r.purchaseTitle ? ` — ${r.purchaseTitle.replace(` (${r.purchaseId})`, '')}` : ''}
              </>
            ) : (
              'واریز به کیف پول'
            )}
          </Line>
          {r.refundedToCard ? (
            <>
              {/* Someone else's card paid: the payer is that card's holder, and the money goes back to that card. */}
              <Line label="پرداخت‌کننده" testId="receipt-payer">
                {r.cardHolderNationalCode ? (
                  <>
                    دارندهٔ کارت، کد ملی <Ltr>{toPersianDigits(r.cardHolderNationalCode)}</Ltr> (نه شما)
                  </>
                ) : (
                  'دارندهٔ کارت پرداخت‌کننده (نه شما)'
                )}
              </Line>
              <Line label="مقصد مبلغ" testId="receipt-money-went">
                بازگشت به همان کارت{r.cardNo ? ' ' : ''}
                {r.cardNo && <Latin>{toPersianDigits(r.cardNo)}</Latin>}؛ به کیف پول شما واریز نشد
              </Line>
              <Line label="درخواست‌دهنده" testId="receipt-customer">
                {r.customerName}
              </Line>
            </>
          ) : (
            <Line label="پرداخت‌کننده" testId="receipt-customer">
              {r.customerName}
            </Line>
          )}
          <Line label={r.refundedToCard ? 'کد ملی درخواست‌دهنده' : 'کد ملی'}>
            {r.nationalCode ? <Ltr>{toPersianDigits(r.nationalCode)}</Ltr> : '—'}
          </Line>
        </dl>
        <ReceiptVerification code={r.verificationCode} url={r.verificationUrl} />
        {isTestInstance() && (
          <Text
            as="p"
            size="2"
            weight="bold"
            color="amber"
            className="receipt-foot"
            data-testid="receipt-test-instance"
          >
            {messages.messages['testInstance.receipt']}
          </Text>
        )}
        <Text as="p" size="1" color="gray" className="receipt-foot">
          این رسید به صورت خودکار صادر شده است و برای پیگیری، کد پیگیری بالا را همراه داشته باشید.
        </Text>
      </article>

      <Flex gap="3" wrap="wrap" className="no-print">
        <Button size="3" onClick={() => window.print()} data-testid="print-receipt">
          <DownloadIcon /> چاپ یا ذخیره PDF
        </Button>
        {r.purchaseId && (
          <Button size="3" variant="soft" asChild>
            <Link to={requestPath(r.purchaseId)}>دیدن درخواست</Link>
          </Button>
        )}
        <RadixLink asChild size="2" style={{ alignSelf: 'center' }}>
          <Link to={pathOf('myWallet')}>
            <ArrowRightIcon /> موجودی مالی من
          </Link>
        </RadixLink>
      </Flex>
    </Flex>
  );
}

export default function ReceiptPage() {
  const user = useAtomValue(userAtom);
  const { id } = useParams();
  if (!user) return <SignInPrompt />;
  const collection = Number(id);
  if (!Number.isSafeInteger(collection) || collection < 1) {
    return (
      <Callout.Root color="red" role="alert">
        <Callout.Text>شماره رسید معتبر نیست.</Callout.Text>
      </Callout.Root>
    );
  }
  return (
    <div style={{ maxWidth: 720, marginInline: 'auto', width: '100%' }}>
      <Receipt key={collection} id={collection} />
    </div>
  );
}
