import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { type CalendarKind, type DateFormatName, formatDate } from '../../../shared/calendar';
import { formatNumber, formatPhone, formatRial, toPersianDigits } from '../../../shared/format';
import { type Column, TableView } from '../../components/data-table/TableView';
import { DateText } from '../../components/date/DateText';
import { calendarAtom } from '../../lib/calendar';

const FORMATS: DateFormatName[] = ['date', 'slashDate', 'weekdayDate', 'dateTime'];
const CALENDARS: Array<[CalendarKind, string]> = [
  ['fa', 'شمسی (fa)'],
  ['en', 'میلادی (en)'],
];

/** Each date format in both calendars, and in the calendar chosen in the menu. */
const dateColumns = (now: Date): Array<Column<DateFormatName>> => [
  { key: 'format', title: 'قالب', rowHeader: true, cell: (format) => <span className="ltr">{format}</span> },
  ...CALENDARS.map(([kind, title]): Column<DateFormatName> => ({
    key: kind,
    title,
    testId: (format) => `testaki-${format}-${kind}`,
    cell: (format) => <span className="ltr nowrap">{formatDate(now, format, kind)}</span>,
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
