/**
 * A finished request's proof letter (/request/proof/:id, docs/decisions/040-proof-letter.md): what a customer shows
 * an embassy, a university office or an exam body, Persian and English side by side on one printed A4 page. The
 * English of every label the desk decides (the service, the reference's kind, each printed field) is the
 * catalogue's `x-title-en`; the payment abroad with its amount in words in both languages, its date in both
 * calendars, the payer's profile name, the attached confirmation's SHA-256, and the receipt's verification code
 * with its QR, which a reader checks at /verify together with the reference they hold.
 */
import { ArrowRightIcon, DownloadIcon } from '@radix-ui/react-icons';
import { Button, Flex, Heading, Link as RadixLink, Skeleton, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { formatNumber } from '../../../shared/format';
import { displayDate } from '../../../shared/format/dates';
import { foreignAmountInEnglishWords, foreignAmountInPersianWords } from '../../../shared/format/english-words';
import { ReceiptVerification } from '../../components/receipt/ReceiptVerification';
import { LoadError } from '../../components/states/LoadError';
import { SignInPrompt } from '../../components/states/SignInPrompt';
import { requestPath } from '../../lib/payments';
import { proofLetterQuery, type ProofLetter } from '../../lib/queries/proof-letter';
import { userAtom } from '../../lib/session';

const englishDate = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Asia/Tehran' }).format(new Date(iso));
const englishNumber = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(n);

/** One line of the letter: the Persian label and value, then the English ones, side by side. */
function Row({
  fa,
  en,
  children,
  english,
  testId,
}: {
  fa: string;
  en: string;
  children: ReactNode;
  english: ReactNode;
  testId?: string;
}) {
  return (
    <div className="proof-row" data-testid={testId}>
      <div className="proof-fa">
        <div className="proof-label">{fa}</div>
        <div className="proof-value">{children}</div>
      </div>
      <div className="proof-en" lang="en" dir="ltr" data-latin="">
        <div className="proof-label">{en}</div>
        <div className="proof-value">{english}</div>
      </div>
    </div>
  );
}

const Ltr = ({ children, testId }: { children: ReactNode; testId?: string }) => (
  <bdi dir="ltr" className="ltr" data-latin="" data-testid={testId}>
    {children}
  </bdi>
);

function Letter({ l }: { l: ProofLetter }) {
  const refunded = l.state === 'refunded';
  return (
    <article className="receipt proof-letter print-area" data-testid="proof-letter" aria-labelledby="proof-title">
      <header className="proof-row proof-head">
        <div className="proof-fa">
          <Heading size="4" as="h1" id="proof-title">
            نامهٔ تأیید پرداخت
          </Heading>
          <Text size="1" color="gray">
            ارزپی — پرداخت ارزی برای شما
          </Text>
        </div>
        <div className="proof-en" lang="en" dir="ltr" data-latin="">
          <Heading size="4" as="h2">
            Payment confirmation letter
          </Heading>
          <Text size="1" color="gray">
            Arzpay — foreign-currency payments made on the customer&apos;s behalf
          </Text>
        </div>
      </header>
      {refunded && (
        <Text as="p" color="red" weight="bold" data-testid="proof-refunded">
          این درخواست بازگشت خورده است. <span lang="en">This request was refunded.</span>
        </Text>
      )}
      <div className="proof-rows">
        <Row fa="خدمت" en="Service" english={l.service.en} testId="proof-service">
          {l.service.fa}
        </Row>
        <Row
          fa="مبلغ پرداخت‌شده در خارج"
          en="Amount paid abroad"
          english={`${englishNumber(l.foreignAmount)} ${l.currencyCode}`}
          testId="proof-amount"
        >
          <Ltr>
            {formatNumber(l.foreignAmount)} {l.currencyCode}
          </Ltr>
        </Row>
        <Row
          fa="مبلغ به حروف"
          en="Amount in words"
          english={foreignAmountInEnglishWords(l.foreignAmount, l.currencyCode)}
          testId="proof-words"
        >
          {foreignAmountInPersianWords(l.foreignAmount, l.currencyTitle)}
        </Row>
        <Row fa="تاریخ پرداخت" en="Date paid" english={englishDate(l.paidAbroadAt)} testId="proof-date">
          {displayDate(l.paidAbroadAt, 'longDate', 'fa')}
          <br />
          <Text size="1">{displayDate(l.paidAbroadAt, 'longDate', 'en')}</Text>
        </Row>
        <Row fa={l.reference.title.fa} en={l.reference.title.en} english={l.reference.value} testId="proof-reference">
          <Ltr testId="proof-reference-value">{l.reference.value}</Ltr>
        </Row>
        <Row fa="پرداخت‌کننده" en="Payer" english={<bdi dir="rtl">{l.payerName}</bdi>} testId="proof-payer">
          {l.payerName}
        </Row>
        {l.fields.map((f) => (
          <Row key={f.name} fa={f.title.fa} en={f.title.en} english={f.value} testId={`proof-field-${f.name}`}>
            <Ltr>{f.value}</Ltr>
          </Row>
        ))}
        {l.receiptSha256 && (
          <Row
            fa="اثر انگشت SHA-256 تأییدیهٔ پذیرنده"
            en="SHA-256 of the merchant's confirmation"
            english={<code className="proof-hash">{l.receiptSha256}</code>}
            testId="proof-hash"
          >
            <Ltr>
              <code className="proof-hash">{l.receiptSha256}</code>
            </Ltr>
          </Row>
        )}
      </div>
      <ReceiptVerification code={l.verificationCode} url={l.verificationUrl} />
      <Text as="p" size="1" color="gray" className="receipt-foot">
        درستی این نامه را با کد بالا و شماره مرجعی که در دست دارید در صفحهٔ بررسی رسید بسنجید.{' '}
        <span lang="en" dir="ltr" data-latin="">
          Check this letter on the verify page with the code above and the reference you hold.
        </span>
      </Text>
    </article>
  );
}

function LetterLoader({ id }: { id: number }) {
  const { data, isPending, isError, error, refetch, isFetching } = useQuery(proofLetterQuery(id));
  if (isPending) return <Skeleton height="600px" />;
  if (isError)
    return (
      <LoadError
        error={error}
        fallback="دریافت نامهٔ تأیید پرداخت ممکن نشد."
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  return (
    <Flex direction="column" gap="3">
      <Letter l={data} />
      <Flex gap="3" wrap="wrap" className="no-print">
        <Button size="3" onClick={() => window.print()} data-testid="print-proof">
          <DownloadIcon /> چاپ یا ذخیره PDF
        </Button>
        <RadixLink asChild size="2" style={{ alignSelf: 'center' }}>
          <Link to={requestPath(id)}>
            <ArrowRightIcon /> دیدن درخواست
          </Link>
        </RadixLink>
      </Flex>
    </Flex>
  );
}

export default function ProofLetterPage() {
  const user = useAtomValue(userAtom);
  const { id } = useParams();
  if (!user) return <SignInPrompt />;
  return <LetterLoader id={Number(id)} />;
}
