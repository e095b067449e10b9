import { Card, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { type CalendarKind, type DateFormatName, formatDate } from '../../../shared/calendar';
import { formatNumber, formatPhone, formatRial, toPersianDigits } from '../../../shared/format';
import { calendarAtom } from '../../lib/calendar';
import { DateText } from '../../components/date/DateText';

const FORMATS: DateFormatName[] = ['date', 'slashDate', 'weekdayDate', 'dateTime'];
const CALENDARS: Array<[CalendarKind, string]> = [
  ['fa', 'شمسی (fa)'],
  ['en', 'میلادی (en)'],
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
        <div className="table-scroll">
          <Table.Root data-testid="testaki-dates">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>قالب</Table.ColumnHeaderCell>
                {CALENDARS.map(([kind, title]) => (
                  <Table.ColumnHeaderCell key={kind}>{title}</Table.ColumnHeaderCell>
                ))}
                <Table.ColumnHeaderCell className="hide-mobile">تقویم انتخاب‌شده</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {FORMATS.map((format) => (
                <Table.Row key={format}>
                  <Table.RowHeaderCell>
                    <span className="ltr">{format}</span>
                  </Table.RowHeaderCell>
                  {CALENDARS.map(([kind]) => (
                    <Table.Cell key={kind} data-testid={`testaki-${format}-${kind}`}>
                      <span className="ltr nowrap">{formatDate(now, format, kind)}</span>
                    </Table.Cell>
                  ))}
                  <Table.Cell className="hide-mobile">
                    <DateText value={now} format={format} />
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </div>
        <Text as="p" size="1" color="gray" mt="2">
          تقویم انتخاب‌شده در منو: {calendar === 'fa' ? 'شمسی' : 'میلادی'}
        </Text>
      </Card>
      <Card size="2">
        <Heading as="h2" size="4" mb="3">
          اعداد
        </Heading>
        <Table.Root>
          <Table.Body>
            <Table.Row>
              <Table.RowHeaderCell>formatNumber</Table.RowHeaderCell>
              <Table.Cell>
                <span className="ltr">{formatNumber(1234567890)}</span>
              </Table.Cell>
            </Table.Row>
            <Table.Row>
              <Table.RowHeaderCell>formatRial</Table.RowHeaderCell>
              <Table.Cell>{formatRial(1035000)}</Table.Cell>
            </Table.Row>
            <Table.Row>
              <Table.RowHeaderCell>formatPhone</Table.RowHeaderCell>
              <Table.Cell>
                <span className="ltr">{formatPhone('09123456789')}</span>
              </Table.Cell>
            </Table.Row>
            <Table.Row>
              <Table.RowHeaderCell>toPersianDigits</Table.RowHeaderCell>
              <Table.Cell>{toPersianDigits('1405/09/01')}</Table.Cell>
            </Table.Row>
          </Table.Body>
        </Table.Root>
      </Card>
    </Flex>
  );
}
