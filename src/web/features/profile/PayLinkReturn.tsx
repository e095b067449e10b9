/**
 * The way back to a payment link (decision 028): a payer sent from /pay/:token to verify their profile finds it
 * here, after saving and after staff approve, until they are back on the link.
 */
import { Button, Callout } from '@radix-ui/themes';
import { Link } from 'react-router-dom';
import { PAY_LINK_RETURN_KEY } from '../../lib/payment-links';

export function PayLinkReturn() {
  const path = localStorage.getItem(PAY_LINK_RETURN_KEY);
  if (!path?.startsWith('/pay/')) return null;
  return (
    <Callout.Root
      color="blue"
      data-testid="pay-link-return"
      style={{ maxWidth: 'min(800px, 90vw)', marginInline: 'auto' }}
    >
      <Callout.Text>
        پرداختی که برای کس دیگری شروع کرده بودید منتظر شماست؛ پس از تایید پروفایل، از همین‌جا به آن برگردید.{' '}
        <Button asChild size="1" variant="soft">
          <Link to={path} data-testid="back-to-pay-link">
            بازگشت به پیوند پرداخت
          </Link>
        </Button>
      </Callout.Text>
    </Callout.Root>
  );
}
