/**
 * The countdown to a request's deadline (decision 033: the date its form marks `x-deadline`, such as the day an exam's
 * registration closes or an embassy appointment): «۳ روز و ۴ ساعت تا مهلت» with the date in the customer's
 * calendar, moving while the page is open. Nothing for a request without one or already finished.
 */
import { ClockIcon } from '@radix-ui/react-icons';
import { Callout } from '@radix-ui/themes';
import { timeLeftText } from '../../../shared/deadline';
import { DateText } from '../../components/date/DateText';
import { useNow } from '../../lib/useNow';

export function DeadlineCountdown({ purchase }: { purchase: { deadlineAt: string | null; stateIsFinal: boolean } }) {
  const now = useNow(60_000);
  if (!purchase.deadlineAt || purchase.stateIsFinal) return null;
  const left = new Date(purchase.deadlineAt).getTime() - now;
  return (
    <Callout.Root size="1" color={left > 0 ? 'blue' : 'red'} data-testid="deadline-countdown">
      <Callout.Icon>
        <ClockIcon />
      </Callout.Icon>
      <Callout.Text>
        {left > 0 ? `${timeLeftText(left)} تا مهلت` : 'مهلت گذشته است'} (
        <DateText value={purchase.deadlineAt} format="longDate" />)
      </Callout.Text>
    </Callout.Root>
  );
}
