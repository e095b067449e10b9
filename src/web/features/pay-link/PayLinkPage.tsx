/**
 * /pay/:token — someone else's request, paid through its payment link (decision 028). Only what the payer needs: the
 * service, the price with its breakdown, until when the link holds (and how long is left) and the requester's first
 * name and last initial. A guest sees the same before anything (previewPaymentLink, decision 028) and logs in
 * right here (the page stays, so the payer comes back to the link); a payer whose profile is not verified is sent to
 * verify it first, and the profile offers the way back to the link; then one button pays from the payer's wallet or,
 * for the rest, at the bank with a card of the payer's own. A paid, cancelled, expired or revoked link says which.
 */
import { Button, Callout, Card, Flex, Heading, Link as RadixLink, Skeleton, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { formatRial } from '../../../shared/format';
import { DateText } from '../../components/date/DateText';
import { PayCardChoice } from '../../components/payments/PayCardChoice';
import { Amount } from '../../components/RialText';
import { LoadError } from '../../components/states/LoadError';
import {
  PAY_LINK_RETURN_KEY,
  type PaymentLinkPreview,
  type PaymentLinkView,
  paymentLinkPreviewQuery,
  paymentLinkQuery,
  payResultPath,
  usePayPaymentLink,
} from '../../lib/payment-links';
import { userCardsQuery } from '../../lib/queries/cards';
import { pathOf } from '../../lib/routes';
import { loginDialogOpenAtom, userAtom } from '../../lib/session';
import { useSetAtom } from 'jotai';
import { timeLeftText } from '../../../shared/deadline';

export default function PayLinkPage() {
  const { token = '' } = useParams();
  const user = useAtomValue(userAtom);
  return (
    <Flex direction="column" gap="3" style={{ maxWidth: 640 }}>
      <Heading size="6">پرداخت توسط دیگری</Heading>
      {user ? <LinkBody token={token} verified={user.approvedLevel >= 1} /> : <GuestBody token={token} />}
    </Flex>
  );
}

/** A guest: who asks, for what and how much, before anything; then log in (or sign up) with one's own mobile. */
function GuestBody({ token }: { token: string }) {
  const openLogin = useSetAtom(loginDialogOpenAtom);
  const { data, isPending, isError, error, refetch, isFetching } = useQuery(paymentLinkPreviewQuery(token));
  if (isPending) return <Skeleton height="240px" />;
  if (isError) {
    return (
      <LoadError
        error={error}
        fallback="دریافت پیوند پرداخت ممکن نشد."
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  }
  return (
    <Card size="2" data-testid="pay-link-preview">
      <Flex direction="column" gap="3">
        <Text size="2">
          <bdi>{data.requesterName}</bdi> از شما خواسته است این درخواست را در ارزپی برایش پرداخت کنید.
        </Text>
        <Summary link={data} />
        {data.state === 'open' ? (
          <>
            <Text size="2" color="gray">
              برای پرداخت با شماره موبایل خودتان وارد شوید؛ اگر حساب ندارید، با همان شماره ساخته می‌شود و پس از ورود به
              همین صفحه برمی‌گردید.
            </Text>
            <Button size="3" onClick={() => openLogin(true)} data-testid="pay-link-login">
              ورود و پرداخت
            </Button>
          </>
        ) : (
          <Callout.Root color="orange" role="status" data-testid="pay-link-state" data-state={data.state}>
            <Callout.Text>{data.message}</Callout.Text>
          </Callout.Root>
        )}
      </Flex>
    </Card>
  );
}

function LinkBody({ token, verified }: { token: string; verified: boolean }) {
  const { data, isPending, isError, error, refetch, isFetching } = useQuery(paymentLinkQuery(token));
  if (isPending) return <Skeleton height="240px" />;
  if (isError) {
    return (
      <LoadError
        error={error}
        fallback="دریافت پیوند پرداخت ممکن نشد."
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  }
  return (
    <Card size="2" data-testid="pay-link">
      <Flex direction="column" gap="3">
        <Summary link={data} />
        {data.state === 'open' ? (
          data.ownLink ? (
            <Callout.Root color="blue" role="status">
              <Callout.Text>
                این پیوند را خودتان ساخته‌اید؛ آن را برای پرداخت‌کننده بفرستید، یا درخواست را از{' '}
                <Link to={pathOf('myRequests')}>درخواست‌های من</Link> پرداخت کنید.
              </Callout.Text>
            </Callout.Root>
          ) : verified ? (
            <PayButtons token={token} link={data} />
          ) : (
            <VerifyFirst token={token} />
          )
        ) : (
          <Callout.Root
            color={data.state === 'paidByYou' ? 'green' : 'orange'}
            role="status"
            data-testid="pay-link-state"
            data-state={data.state}
          >
            <Callout.Text>{data.message}</Callout.Text>
          </Callout.Root>
        )}
      </Flex>
    </Card>
  );
}

/** A payer who must verify their profile first: the profile offers the way back to this link (remembered here). */
function VerifyFirst({ token }: { token: string }) {
  useEffect(() => localStorage.setItem(PAY_LINK_RETURN_KEY, `/pay/${token}`), [token]);
  return (
    <Callout.Root color="orange" role="alert" data-testid="pay-link-verify">
      <Callout.Text>
        برای پرداخت، پروفایل شما باید تایید شده باشد (همان شرطی که برای پرداخت درخواست‌های خودتان لازم است).{' '}
        <RadixLink asChild>
          <Link to={pathOf('myProfile')}>تکمیل و تایید پروفایل</Link>
        </RadixLink>
        ؛ صفحهٔ پروفایل راه بازگشت به همین پیوند را نشان می‌دهد.
      </Callout.Text>
    </Callout.Root>
  );
}

function Summary({ link }: { link: PaymentLinkView | PaymentLinkPreview }) {
  const ms = Date.parse(link.expiresAt) - Date.now();
  const left = link.state === 'open' && ms > 0 ? timeLeftText(ms) : null;
  return (
    <Flex direction="column" gap="2">
      <Text size="3" weight="bold" data-testid="pay-link-title">
        {link.deskTitle}
      </Text>
      <Text size="2">
        درخواست‌کننده: <bdi data-testid="pay-link-requester">{link.requesterName}</bdi>
      </Text>
      <div className="price-row">
        <Text size="2">مبلغ ارزی</Text>
        <Text size="2">
          <Amount value={link.amount} unit={link.currencyCode} />
        </Text>
      </div>
      {'grossPrice' in link && (
        <>
          <div className="price-row">
            <Text size="2">هزینه مستقیم</Text>
            <Text size="2">
              <Amount value={link.grossPrice} />
            </Text>
          </div>
          <div className="price-row">
            <Text size="2">کارمزد، مالیات و هزینه‌های عملیات</Text>
            <Text size="2">
              <Amount value={link.totalCosts} />
            </Text>
          </div>
        </>
      )}
      <div className="price-row">
        <Text size="2" weight="bold">
          مبلغ کل
        </Text>
        <Text size="3" weight="bold" data-testid="pay-link-price">
          <Amount value={link.expectedPrice} />
        </Text>
      </div>
      {link.state === 'open' && (
        <Text size="2" color="gray" data-testid="pay-link-expiry">
          این پیوند تا <DateText value={link.expiresAt} /> معتبر است{left ? ` (${left} دیگر)` : ''}. اگر تا آن زمان
          پرداخت نکردید، از درخواست‌کننده بخواهید پیوند تازه‌ای بسازد.
        </Text>
      )}
    </Flex>
  );
}

function PayButtons({ token, link }: { token: string; link: PaymentLinkView }) {
  // Back on the link with a verified profile: the profile no longer needs to offer the way back.
  useEffect(() => localStorage.removeItem(PAY_LINK_RETURN_KEY), []);
  const navigate = useNavigate();
  const { paying, error, pay } = usePayPaymentLink(token, () => navigate(payResultPath('success')));
  const payable = Math.max(0, link.expectedPrice - link.walletBalance);
  const online = payable > 0;
  const cards = useQuery({ ...userCardsQuery, enabled: online });
  const [chosenId, setChosenId] = useState<number | null>(null);
  const verifiedCards = (cards.data?.items ?? []).filter((c) => c.state === 'verified');
  const chosen =
    verifiedCards.find((c) => c.id === chosenId) ?? (verifiedCards.length === 1 ? verifiedCards[0] : undefined);
  const cardId = online && chosen ? chosen.id : null;
  const needsChoice = online && (cards.isPending || (cards.data?.gatewayNeedsCard === true && !chosen));
  return (
    <Flex direction="column" gap="2">
      {error && (
        <Callout.Root color="red" role="alert" data-testid="pay-link-error">
          <Callout.Text>{error}</Callout.Text>
        </Callout.Root>
      )}
      <div className="price-row">
        <Text size="2">موجودی کیف پول شما</Text>
        <Text size="2">
          <Amount value={link.walletBalance} />
        </Text>
      </div>
      {online && <PayCardChoice cards={cards.data} loading={cards.isPending} chosen={chosen} onChoose={setChosenId} />}
      <Button
        size="3"
        loading={paying}
        disabled={needsChoice}
        onClick={() => void pay(link.quoteId, cardId)}
        data-testid="pay-link-pay"
      >
        {online ? `پرداخت آنلاین ${formatRial(payable)}` : 'پرداخت از کیف پول'}
      </Button>
      {online && (
        <Text size="1" color="gray">
          پرداخت فقط با کارت بانکی به نام خودتان پذیرفته می‌شود؛ برای پرداخت به صفحهٔ امن درگاه بانک می‌روید.
        </Text>
      )}
    </Flex>
  );
}
