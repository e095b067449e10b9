/**
 * /pay/:token — someone else's request, paid through its payment link (decision 028). Only what the payer needs: the
 * service, the price with its breakdown, until when the link holds and the requester's masked name. A guest is asked
 * to log in right here (the page stays, so the payer comes back to the link); a payer whose profile is not verified
 * is sent to verify it first; then one button pays from the payer's wallet or, for the rest, at the bank with a card
 * of the payer's own. A paid, cancelled, expired or revoked link says which.
 */
import { Button, Callout, Card, Flex, Heading, Link as RadixLink, Skeleton, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { formatRial } from '../../../shared/format';
import { DateText } from '../../components/date/DateText';
import { PayCardChoice } from '../../components/payments/PayCardChoice';
import { Amount } from '../../components/RialText';
import { LoadError } from '../../components/states/LoadError';
import { SignInPrompt } from '../../components/states/SignInPrompt';
import { type PaymentLinkView, paymentLinkQuery, payResultPath, usePayPaymentLink } from '../../lib/payment-links';
import { userCardsQuery } from '../../lib/queries/cards';
import { pathOf } from '../../lib/routes';
import { userAtom } from '../../lib/session';

export default function PayLinkPage() {
  const { token = '' } = useParams();
  const user = useAtomValue(userAtom);
  return (
    <Flex direction="column" gap="3" style={{ maxWidth: 640 }}>
      <Heading size="6">پرداخت توسط دیگری</Heading>
      {user ? (
        <LinkBody token={token} verified={user.approvedLevel >= 1} />
      ) : (
        <>
          <Text size="2" color="gray">
            کسی از شما خواسته است درخواستی را در ارزپی برایش پرداخت کنید. برای دیدن مبلغ و پرداخت، با شماره موبایل
            خودتان وارد شوید.
          </Text>
          <SignInPrompt />
        </>
      )}
    </Flex>
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
            <Callout.Root color="orange" role="alert" data-testid="pay-link-verify">
              <Callout.Text>
                برای پرداخت، پروفایل شما باید تایید شده باشد (همان شرطی که برای پرداخت درخواست‌های خودتان لازم است).{' '}
                <RadixLink asChild>
                  <Link to={pathOf('myProfile')}>تکمیل و تایید پروفایل</Link>
                </RadixLink>
                ؛ پس از تایید، دوباره همین پیوند را باز کنید.
              </Callout.Text>
            </Callout.Root>
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

function Summary({ link }: { link: PaymentLinkView }) {
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
      <div className="price-row">
        <Text size="2" weight="bold">
          مبلغ کل
        </Text>
        <Text size="3" weight="bold" data-testid="pay-link-price">
          <Amount value={link.expectedPrice} />
        </Text>
      </div>
      {link.state === 'open' && (
        <Text size="1" color="gray">
          این پیوند تا <DateText value={link.expiresAt} /> معتبر است.
        </Text>
      )}
    </Flex>
  );
}

function PayButtons({ token, link }: { token: string; link: PaymentLinkView }) {
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
