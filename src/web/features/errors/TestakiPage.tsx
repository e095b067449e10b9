import { Card, Heading, Table } from '@radix-ui/themes';
import type { DateFormatName } from '../../../shared/calendar';
import { formatNumber, formatPhone, toPersianDigits } from '../../../shared/format';
import { DateText } from '../shell/DateText';

const FORMATS: DateFormatName[] = ['date', 'slashDate', 'weekdayDate', 'dateTime'];

/** A check page: every date format in the chosen calendar, and the number formats. */
export default function TestakiPage() {
  const now = new Date();
  return (
    <Card size="3">
      <Heading size="4" mb="3">
        صفحه آزمایشی قالب‌ها
      </Heading>
      <Table.Root>
        <Table.Body>
          {FORMATS.map((f) => (
            <Table.Row key={f}>
              <Table.RowHeaderCell>{f}</Table.RowHeaderCell>
              <Table.Cell>
                <DateText value={now} format={f} />
              </Table.Cell>
            </Table.Row>
          ))}
          <Table.Row>
            <Table.RowHeaderCell>number</Table.RowHeaderCell>
            <Table.Cell className="ltr">{formatNumber(1234567890)}</Table.Cell>
          </Table.Row>
          <Table.Row>
            <Table.RowHeaderCell>phone</Table.RowHeaderCell>
            <Table.Cell className="ltr">{formatPhone('09123456789')}</Table.Cell>
          </Table.Row>
          <Table.Row>
            <Table.RowHeaderCell>digits</Table.RowHeaderCell>
            <Table.Cell>{toPersianDigits('1405/09/01')}</Table.Cell>
          </Table.Row>
        </Table.Body>
      </Table.Root>
    </Card>
  );
}
