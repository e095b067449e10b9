/**
 * A request's deadline where staff decide what to do first (the task queue, the staff home, the request dialogs): its
 * date in the chosen calendar, the time left, and «مهلت در خطر» when the server says it is at risk.
 */
import { Badge, Flex, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { timeLeftText } from '../../../shared/deadline';
import { displayDate } from '../../../shared/format/dates';
import { calendarAtom } from '../../lib/calendar';

export function DeadlineCell({
  value,
  atRisk,
  now,
  inline = false,
}: {
  value: string;
  atRisk: boolean;
  now: number;
  /** On one line (a dialog's header) rather than stacked (a table cell). */
  inline?: boolean;
}) {
  const calendar = useAtomValue(calendarAtom);
  const left = new Date(value).getTime() - now;
  return (
    <Flex
      direction={inline ? 'row' : 'column'}
      gap={inline ? '2' : '1'}
      align={inline ? 'center' : 'start'}
      wrap="wrap"
      data-testid="deadline"
    >
      <span className="ltr">{displayDate(value, 'slashDate', calendar)}</span>
      <Text size="1" color={atRisk ? 'red' : 'gray'} data-testid="deadline-left">
        {left > 0 ? `${timeLeftText(left)} مانده` : 'گذشته'}
      </Text>
      {atRisk && (
        <Badge color="red" data-testid="deadline-at-risk">
          مهلت در خطر
        </Badge>
      )}
    </Flex>
  );
}
