/**
 * Who staff answer and how urgent (decision 033): the customer's name and mobile (Persian digits) and the request's
 * deadline with the time left, at the top of the staff request dialog and the fulfilment dialog.
 */
import { Flex, Text } from '@radix-ui/themes';
import { formatPhone } from '../../../shared/format';
import { DeadlineCell } from '../../components/deadline/DeadlineCell';
import { useNow } from '../../lib/useNow';

export function CustomerAndDeadline({
  customer,
  deadlineAt,
  deadlineAtRisk,
}: {
  customer: { fullName: string; mobileNo: string | null };
  deadlineAt: string | null;
  deadlineAtRisk: boolean;
}) {
  const now = useNow(60_000);
  return (
    <>
      <Text size="2" data-testid="request-customer-name">
        مشتری: <b>{customer.fullName || '—'}</b>
      </Text>
      {customer.mobileNo && (
        <Text size="2">
          موبایل:{' '}
          <span className="ltr" data-testid="request-customer-mobile">
            {formatPhone(customer.mobileNo)}
          </span>
        </Text>
      )}
      {deadlineAt && (
        <Flex gap="1" align="center" data-testid="request-deadline">
          <Text size="2">مهلت:</Text>
          <DeadlineCell value={deadlineAt} atRisk={deadlineAtRisk} now={now} inline />
        </Flex>
      )}
    </>
  );
}
