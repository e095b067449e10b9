/**
 * The public check of a receipt (/verify/:code, the address its QR holds; /verify to type a code): what the receipt
 * states — the service, the amount in rial and in the foreign currency, the dates in Jalali and Gregorian, the
 * request's state now and the payer's masked name — in Persian and, for a reader abroad, in English. An unknown code
 * and too many lookups from one address each have their own answer.
 */
import { CheckCircledIcon, ExclamationTriangleIcon, MagnifyingGlassIcon } from '@radix-ui/react-icons';
import { Badge, Box, Button, Callout, Card, Flex, Heading, Skeleton, Text, TextField } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { displayDate } from '../../../shared/format/dates';
import { formatReceiptCode, normalizeReceiptCode } from '../../../shared/receipt-code';
import { Latin } from '../../components/Latin';
import { RialText } from '../../components/RialText';
import { LoadError } from '../../components/states/LoadError';
import { ApiError } from '../../lib/api-client';
import { type VerifiedReceipt, receiptVerificationQuery } from '../../lib/queries/receipt-verification';
import { checkReceiptReference, type ReferenceCheck as ReferenceAnswer } from '../../lib/queries/proof-letter';
import { pathOf } from '../../lib/routes';
import { STATE_TEXT } from './receipt-states';

const NOT_FOUND_FA = 'رسیدی با این کد یافت نشد';

const englishDate = (iso: string) =>
  `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Asia/Tehran' }).format(
    new Date(iso),
  )} (Tehran)`;
const englishNumber = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(n);

function Line({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div className="receipt-line">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/** Both calendars, Jalali first, as the receipt prints them. */
function BothDates({ iso }: { iso: string }) {
  return (
    <>
      {displayDate(iso, 'longDateTime', 'fa')}
      <br />
      <Text size="1" color="gray">
        {displayDate(iso, 'longDateTime', 'en')}
      </Text>
    </>
  );
}

function PersianReceipt({ r }: { r: VerifiedReceipt }) {
  const state = STATE_TEXT[r.state];
  return (
    <section aria-labelledby="verify-fa-title" data-testid="verify-fa">
      <Flex align="center" gap="2" mb="2" wrap="wrap">
        <CheckCircledIcon color="var(--green-11)" width="22" height="22" aria-hidden />
        <Heading as="h2" size="4" id="verify-fa-title">
          این رسید معتبر است و توسط ارزپی صادر شده است
        </Heading>
      </Flex>
      <dl className="receipt-lines">
        <Line label="وضعیت کنونی" testId="verify-state">
          <Badge color={state.color} size="2">
            {state.fa}
          </Badge>
        </Line>
        <Line label="خدمت" testId="verify-service">
          {r.service ?? 'واریز به کیف پول'}
        </Line>
        <Line label={r.kind === 'request' ? 'هزینهٔ ریالی' : 'مبلغ دریافتی'} testId="verify-amount">
          <RialText value={r.amount} />
        </Line>
        {r.foreignAmount !== null && r.currencyCode && (
          <Line label={r.kind === 'request' ? 'مبلغ پرداخت‌شده در خارج' : 'مبلغ ارزی'} testId="verify-foreign">
            <RialText value={r.foreignAmount} unit={r.currencyCode} />
          </Line>
        )}
        <Line label={r.kind === 'request' ? 'تاریخ پرداخت ارزی' : 'تاریخ دریافت'} testId="verify-issued">
          <BothDates iso={r.issuedAt} />
        </Line>
        {r.paidAt && r.kind === 'request' && (
          <Line label="تاریخ پرداخت درخواست">
            <BothDates iso={r.paidAt} />
          </Line>
        )}
        {r.stateChangedAt && (
          <Line label="تاریخ آخرین تغییر وضعیت">
            <BothDates iso={r.stateChangedAt} />
          </Line>
        )}
        <Line label="پرداخت‌کننده" testId="verify-payer">
          {r.payerName}
        </Line>
        <Line label="کد بررسی">
          <Latin>{r.code}</Latin>
        </Line>
      </dl>
    </section>
  );
}

function EnglishReceipt({ r }: { r: VerifiedReceipt }) {
  return (
    <section lang="en" dir="ltr" data-latin="" aria-labelledby="verify-en-title" data-testid="verify-en">
      <Heading as="h2" size="4" id="verify-en-title" mb="2">
        This receipt is genuine: it was issued by Arzpay
      </Heading>
      <dl className="receipt-lines">
        <Line label="Status now" testId="verify-en-state">
          {STATE_TEXT[r.state].en}
        </Line>
        <Line label="Service">{r.service ?? 'Payment into the wallet'}</Line>
        <Line label={r.kind === 'request' ? 'Cost in Iranian rial' : 'Amount received'} testId="verify-en-amount">
          {englishNumber(r.amount)} IRR
        </Line>
        {r.foreignAmount !== null && r.currencyCode && (
          <Line label={r.kind === 'request' ? 'Amount paid abroad' : 'Foreign amount'} testId="verify-en-foreign">
            {englishNumber(r.foreignAmount)} {r.currencyCode}
          </Line>
        )}
        <Line label={r.kind === 'request' ? 'Paid abroad on' : 'Received on'}>{englishDate(r.issuedAt)}</Line>
        {r.stateChangedAt && <Line label="Status since">{englishDate(r.stateChangedAt)}</Line>}
        <Line label="Payer" testId="verify-en-payer">
          {/* A Persian name keeps its own direction inside the English block. */}
          <bdi dir="rtl">{r.payerName}</bdi>
        </Line>
        <Line label="Verification code">{r.code}</Line>
      </dl>
    </section>
  );
}

/**
 * The reader checks the reference they hold (a SEVIS I-901 receipt number) against the receipt: the server answers
 * only whether it matches, compared like tracking codes, and the request's state now (a refunded one says so).
 */
function ReferenceCheck({ code }: { code: string }) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<ReferenceAnswer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!typed.trim()) return;
    setBusy(true);
    setFailure(null);
    setAnswer(null);
    try {
      setAnswer(await checkReceiptReference(code, typed.trim()));
    } catch (e) {
      setFailure(e instanceof Error ? e.message : 'بررسی ممکن نشد.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="reference-form">
      <Flex direction="column" gap="2">
        <label htmlFor="verify-reference">
          <Text size="2" weight="bold" as="div">
            شماره مرجع را وارد کنید
          </Text>
          <Text size="2" weight="bold" as="div" lang="en" dir="ltr" data-latin="">
            Enter the reference you hold
          </Text>
        </label>
        <Flex gap="2" wrap="wrap">
          <Box flexGrow="1" minWidth="200px">
            <TextField.Root
              id="verify-reference"
              size="3"
              dir="ltr"
              autoComplete="off"
              spellCheck={false}
              placeholder="N0012345678"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          </Box>
          <Button size="3" type="submit" variant="soft" loading={busy}>
            سنجش <span lang="en">(Compare)</span>
          </Button>
        </Flex>
        {answer && (
          <Callout.Root color={answer.matches ? 'green' : 'red'} role="status" data-testid="reference-answer">
            <Callout.Text data-testid="reference-answer-fa">
              {answer.matches ? 'شماره مرجع با این رسید مطابقت دارد.' : 'شماره مرجع با این رسید مطابقت ندارد.'}
              {answer.state === 'refunded' && ' این درخواست انجام نشد و مبلغ آن بازگردانده شد.'}
            </Callout.Text>
            <Callout.Text lang="en" dir="ltr" data-testid="reference-answer-en">
              {answer.matches ? 'Matches: this is the reference of this receipt.' : 'Does not match this receipt.'}
              {answer.state === 'refunded' && ' This request was refunded.'}
            </Callout.Text>
          </Callout.Root>
        )}
        {failure && (
          <Text size="2" color="red" role="alert" data-testid="reference-failure">
            {failure}
          </Text>
        )}
      </Flex>
    </form>
  );
}

function CodeForm({ initial = '' }: { initial?: string }) {
  const navigate = useNavigate();
  const [typed, setTyped] = useState(initial);
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = normalizeReceiptCode(typed);
    if (!code) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    void navigate(pathOf('verifyReceipt', { code: formatReceiptCode(code) }));
  };
  return (
    <form onSubmit={submit} noValidate data-testid="verify-form">
      <Flex direction="column" gap="2">
        <label htmlFor="verify-code">
          <Text size="2" weight="bold">
            کد بررسی رسید <span lang="en">(Verification code)</span>
          </Text>
        </label>
        <Flex gap="2" wrap="wrap">
          <Box flexGrow="1" minWidth="220px">
            <TextField.Root
              id="verify-code"
              size="3"
              dir="ltr"
              autoComplete="off"
              spellCheck={false}
              placeholder="XXXX-XXXX-XXXX-XXXX"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? 'verify-code-error' : undefined}
            />
          </Box>
          <Button size="3" type="submit">
            <MagnifyingGlassIcon /> بررسی <span lang="en">(Check)</span>
          </Button>
        </Flex>
        {invalid && (
          <Text size="2" color="red" id="verify-code-error" role="alert">
            کد ۱۶ نویسه‌ای چاپ‌شده روی رسید را وارد کنید.{' '}
            <span lang="en" dir="ltr" data-latin="">
              Enter the 16-character code printed on the receipt.
            </span>
          </Text>
        )}
      </Flex>
    </form>
  );
}

function Result({ code }: { code: string }) {
  const { data, isPending, isError, error, refetch, isFetching } = useQuery(receiptVerificationQuery(code));
  if (isPending) {
    return (
      <Flex direction="column" gap="2" aria-busy="true" data-testid="verify-loading">
        <Text size="2" color="gray">
          در حال بررسی رسید… <span lang="en">Checking the receipt…</span>
        </Text>
        <Skeleton height="320px" />
      </Flex>
    );
  }
  if (isError) {
    const status = error instanceof ApiError ? error.status : 0;
    if (status === 404) {
      return (
        <Callout.Root color="red" role="alert" data-testid="verify-not-found">
          <Callout.Icon>
            <ExclamationTriangleIcon />
          </Callout.Icon>
          <Callout.Text>
            {NOT_FOUND_FA}. کد را دوباره با رسید مقایسه کنید؛ رسیدی که کدش یافت نشود، از ارزپی نیست.
          </Callout.Text>
          <Callout.Text lang="en" dir="ltr">
            No receipt has this code. Compare the code with the receipt again: a receipt whose code is not found was not
            issued by Arzpay.
          </Callout.Text>
        </Callout.Root>
      );
    }
    if (status === 429) {
      return (
        <Callout.Root color="amber" role="alert" data-testid="verify-rate-limited">
          <Callout.Icon>
            <ExclamationTriangleIcon />
          </Callout.Icon>
          <Callout.Text>{error.message}</Callout.Text>
          <Callout.Text lang="en" dir="ltr">
            Too many receipts were checked from this address. Please wait a few minutes and try again.
          </Callout.Text>
        </Callout.Root>
      );
    }
    return (
      <LoadError error={error} fallback="بررسی رسید ممکن نشد." onRetry={() => void refetch()} retrying={isFetching} />
    );
  }
  return (
    <Card size="3" className="verify-result" data-testid="verify-result">
      <Flex direction="column" gap="5">
        <PersianReceipt r={data} />
        <EnglishReceipt r={data} />
        {data.kind === 'request' && <ReferenceCheck code={data.code} />}
      </Flex>
    </Card>
  );
}

export default function VerifyPage() {
  const { code } = useParams();
  const typed = code?.trim() ?? '';
  return (
    <Flex direction="column" gap="4" style={{ maxWidth: 720, marginInline: 'auto', width: '100%' }}>
      <Flex direction="column" gap="1">
        <Heading as="h1" size="6">
          بررسی رسید
        </Heading>
        <Text size="2" color="gray">
          درستی رسیدی را که ارزپی صادر کرده، با کد چاپ‌شده روی آن بررسی کنید.
        </Text>
        <Text size="2" color="gray" lang="en" dir="ltr" as="p" style={{ margin: 0 }}>
          Receipt check: confirm that a receipt issued by Arzpay is genuine, using the code printed on it.
        </Text>
      </Flex>
      {typed ? (
        <>
          <Result key={typed} code={typed} />
          <Text size="2">
            <Link to={pathOf('verifyReceiptForm')}>بررسی رسیدی دیگر</Link>{' '}
            <span lang="en" dir="ltr">
              (<Link to={pathOf('verifyReceiptForm')}>check another receipt</Link>)
            </span>
          </Text>
        </>
      ) : (
        <CodeForm />
      )}
      <Flex direction="column" gap="1">
        <Text size="1" color="gray">
          این صفحه هیچ شماره تماس، کد ملی یا شماره کارتی نشان نمی‌دهد و نام پرداخت‌کننده را تنها با حرف اول آن.
        </Text>
        <Text size="1" color="gray" lang="en" dir="ltr" as="p" style={{ margin: 0 }}>
          This page never shows a phone number, national ID or card number, and the payer&apos;s name only by its
          initials.
        </Text>
      </Flex>
    </Flex>
  );
}
