import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import type { CalendarKind } from '../../../shared/calendar';
import { formatNumber, formatPhone, formatRial, groupNumber, toPersianDigits } from '../../../shared/format';
import { type DisplayDateFormat, displayDate, relativeTime } from '../../../shared/format/dates';
import { Latin } from '../../components/Latin';
import { type Column, TableView } from '../../components/data-table/TableView';
import { DateText } from '../../components/date/DateText';
import { calendarAtom } from '../../lib/calendar';

const FORMATS: DisplayDateFormat[] = ['date', 'slashDate', 'weekdayDate', 'dateTime', 'longDate', 'longDateTime'];
const CALENDARS: Array<[CalendarKind, string]> = [
  ['fa', 'شمسی (fa)'],
  ['en', 'میلادی (en)'],
];

/** Each date format in both calendars, and in the calendar chosen in the menu. */
const dateColumns = (now: Date): Array<Column<DisplayDateFormat>> => [
  { key: 'format', title: 'قالب', rowHeader: true, cell: (format) => <Latin>{format}</Latin> },
  ...CALENDARS.map(([kind, title]): Column<DisplayDateFormat> => ({
    key: kind,
    title,
    testId: (format) => `testaki-${format}-${kind}`,
    cell: (format) => <span className="ltr nowrap">{displayDate(now, format, kind)}</span>,
  })),
  {
    key: 'chosen',
    title: 'تقویم انتخاب‌شده',
    hideOnMobile: true,
    cell: (format) => <DateText value={now} format={format} />,
  },
];

interface NumberSample {
  name: string;
  value: ReactNode;
}

const NUMBER_SAMPLES: NumberSample[] = [
  { name: 'formatNumber', value: <span className="ltr">{formatNumber(1234567890)}</span> },
  { name: 'formatRial', value: formatRial(1035000) },
  { name: 'formatPhone', value: <span className="ltr">{formatPhone('09123456789')}</span> },
  { name: 'toPersianDigits', value: toPersianDigits('1405/09/01') },
  { name: 'relativeTime', value: relativeTime(Date.now() - 5 * 60_000) },
  { name: 'groupNumber (inputs, exports)', value: <Latin>{groupNumber(1234567890)}</Latin> },
];

const NUMBER_COLUMNS: Array<Column<NumberSample>> = [
  { key: 'name', title: 'تابع', rowHeader: true, cell: (sample) => sample.name },
  { key: 'value', title: 'نمونه', cell: (sample) => sample.value },
];

/** A check page: every date format in both calendars, the chosen calendar, and the number formats. */
export default function TestakiPage() {
  const calendar = useAtomValue(calendarAtom);
  const now = new Date();
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6">
        صفحه آزمایشی قالب‌ها
      </Heading>
      <Card size="2">
        <Heading as="h2" size="4" mb="3">
          تاریخ‌ها
        </Heading>
        <TableView testId="testaki-dates" columns={dateColumns(now)} rows={FORMATS} rowKey={(format) => format} />
        <Text as="p" size="1" color="gray" mt="2">
          تقویم انتخاب‌شده در منو: {calendar === 'fa' ? 'شمسی' : 'میلادی'}
        </Text>
      </Card>
      <Card size="2">
        <Heading as="h2" size="4" mb="3">
          اعداد
        </Heading>
        <TableView columns={NUMBER_COLUMNS} rows={NUMBER_SAMPLES} rowKey={(sample) => sample.name} />
      </Card>
    </Flex>
  );
}
