/**
 * The desk's last step, once the request is made: its price with the part the wallet pays and the part left
 * to pay, and one button that pays (from the wallet, or on to the bank). The request's number is in the address,
 * so a reload comes back here; a request no longer waiting for payment says where it stands instead.
 */
import { Button, Callout, Flex, Skeleton, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { RequestPromiseNote } from '../../components/deadline/PromiseNote';
import { PayAction } from '../../components/payments/PayAction';
import { PurchasePrice } from '../../components/payments/PurchasePrice';
import { LoadError } from '../../components/states/LoadError';
import { requestPath } from '../../lib/payments';
import { purchaseDetailQuery } from '../../lib/queries/purchases';
import { toPersianDigits } from '../../../shared/digits';

export function PayStep({ purchaseId }: { purchaseId: number }) {
  const { data, isPending, isError, error, refetch, isFetching } = useQuery(purchaseDetailQuery(purchaseId));
  if (isPending) return <Skeleton height="280px" />;
  if (isError) {
    return (
      <LoadError
        error={error}
        fallback="دریافت اطلاعات درخواست ممکن نشد."
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  }
  const { purchase } = data;
  const waiting = purchase.state === 'waitingForPayment';
  return (
    <Flex direction="column" gap="3" data-testid="pay-step">
      <Callout.Root color={waiting ? 'green' : 'blue'} data-testid="pay-step-state">
        <Callout.Text>
          {waiting
            ? `درخواست شما با شماره ${toPersianDigits(purchase.id)} ثبت شد و در انتظار پرداخت است.`
            : `درخواست شماره ${toPersianDigits(purchase.id)} در وضعیت «${purchase.stateTitle}» است.`}
        </Callout.Text>
      </Callout.Root>
      <RequestPromiseNote promise={purchase.promise} />
      <PurchasePrice purchase={purchase} waiting={waiting} />
      {waiting ? (
        <>
          <PayAction purchase={purchase} />
          <Text size="2" color="gray">
            می‌توانید بعداً هم از <Link to={requestPath(purchase.id)}>درخواست‌های من</Link> پرداخت کنید.
          </Text>
        </>
      ) : (
        <Button asChild size="3" variant="soft">
          <Link to={requestPath(purchase.id)}>دیدن درخواست</Link>
        </Button>
      )}
    </Flex>
  );
}
