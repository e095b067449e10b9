/**
 * A working calendar as staff check it before publishing (decision 041): each weekday's hours and the year's
 * official holidays, each on its day in the reader's calendar.
 */
import { Flex, Text } from '@radix-ui/themes';
import type { WorkingCalendar } from '../../../../generated/schemas/workingCalendar';
import { toPersianDigits } from '../../../../shared/format';
import { DateText } from '../../../components/date/DateText';

const WEEKDAYS = [
  ['saturday', 'شنبه'],
  ['sunday', 'یکشنبه'],
  ['monday', 'دوشنبه'],
  ['tuesday', 'سه‌شنبه'],
  ['wednesday', 'چهارشنبه'],
  ['thursday', 'پنجشنبه'],
  ['friday', 'جمعه'],
] as const;

export function CalendarPreview({ document }: { document: Record<string, unknown> }) {
  const calendar = document as unknown as WorkingCalendar;
  return (
    <Flex direction="column" gap="2" data-testid="calendar-preview">
      <Text weight="bold">{calendar.title}</Text>
      {WEEKDAYS.map(([day, title]) => {
        const hours = calendar.week[day];
        return (
          <Text size="2" key={day}>
            {title}: {hours ? toPersianDigits(`${hours.from} تا ${hours.to}`) : 'تعطیل'}
          </Text>
        );
      })}
      <Text weight="bold">تعطیلات رسمی ({toPersianDigits(calendar.holidays.length)} روز)</Text>
      {calendar.holidays.map((h) => (
        <Text size="2" key={h.date}>
          <DateText value={h.date} format="longDate" />: {h.title}
        </Text>
      ))}
    </Flex>
  );
}
