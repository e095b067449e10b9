/**
 * /pay-result — where a payer who paid someone else's request through a payment link lands: after their wallet paid
 * it, or back from the bank (`?payment=<outcome>` of the gateway's callback). The request is not theirs to open, so
 * this page says what happened to their money, and links the receipt of a payment that went through.
 */
import { Button, Callout, Flex, Heading, Text } from '@radix-ui/themes';
import { Link, useSearchParams } from 'react-router-dom';
import { pathOf } from '../../lib/routes';

const OUTCOMES: Record<string, { color: 'green' | 'orange' | 'red' | 'blue'; title: string; text: string }> = {
  success: {
    color: 'green',
    title: 'پرداخت انجام شد',
    text: 'درخواست پرداخت شد و مبلغ آن از حساب شما برای انجام درخواست رزرو شد. درخواست‌کننده باخبر می‌شود. اگر درخواست انجام نشود یا مبلغی از آن بماند، به کیف پول شما برمی‌گردد.',
  },
  walletCredited: {
    color: 'orange',
    title: 'مبلغ به کیف پول شما واریز شد، اما درخواست با آن پرداخت نشد.',
    text: 'در این فاصله پیوند باطل شده بود یا درخواست پرداخت یا لغو شده بود. مبلغ در کیف پول شما می‌ماند؛ می‌توانید آن را برداشت کنید.',
  },
  cancelled: {
    color: 'blue',
    title: 'پرداخت را در درگاه بانک لغو کردید.',
    text: 'چیزی از کارت یا کیف پول شما برداشته نشد. می‌توانید دوباره پیوند را باز کنید و پرداخت کنید.',
  },
  failed: {
    color: 'red',
    title: 'پرداخت ناموفق بود.',
    text: 'درخواست پرداخت نشد. اگر مبلغی از کارت شما کسر شده باشد، حداکثر ظرف سه روز کاری به همان کارت بازمی‌گردد.',
  },
  cardMismatch: {
    color: 'red',
    title: 'کارت پرداخت‌کننده به نام شما نبود.',
    text: 'پرداخت با کارت شخص دیگر پذیرفته نمی‌شود: درخواست پرداخت نشد و مبلغ فقط به همان کارت، حداکثر ظرف سه روز کاری، بازمی‌گردد. با کارت بانکی به نام خودتان دوباره پرداخت کنید.',
  },
  pending: {
    color: 'blue',
    title: 'نتیجه پرداخت هنوز از بانک نرسیده است.',
    text: 'به محض اعلام بانک، پرداخت ثبت می‌شود؛ لازم نیست دوباره پرداخت کنید.',
  },
};

export default function PayResultPage() {
  const [params] = useSearchParams();
  const outcome = OUTCOMES[params.get('payment') ?? ''] ?? null;
  // The payer's receipt of this payment (the bank's return names it): theirs to keep and show.
  const receiptParam = params.get('receipt');
  const receipt = receiptParam && /^\d+$/.test(receiptParam) ? receiptParam : null;
  return (
    <Flex direction="column" gap="3" style={{ maxWidth: 640 }}>
      <Heading size="6">{outcome?.title ?? 'نتیجه پرداخت'}</Heading>
      {outcome ? (
        <Callout.Root color={outcome.color} role="status" data-testid="pay-result">
          <Callout.Text>{outcome.text}</Callout.Text>
        </Callout.Root>
      ) : (
        <Text>نتیجه‌ای برای نمایش نیست.</Text>
      )}
      <Flex gap="2" wrap="wrap">
        {receipt && (
          <Button asChild>
            <Link to={`/request/receipts/${receipt}`} data-testid="pay-result-receipt">
              رسید پرداخت
            </Link>
          </Button>
        )}
        <Button asChild variant="soft">
          <Link to={pathOf('myWallet')}>موجودی مالی من</Link>
        </Button>
      </Flex>
    </Flex>
  );
}
