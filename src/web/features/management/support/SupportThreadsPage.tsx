/**
 * «گفتگوهای در انتظار پاسخ», /management/support-threads: the conversations whose customer wrote last, oldest wait
 * first, with how long each has waited; each opens its request (with its conversation) on the requests page.
 * purchase.message refreshes it.
 */
import { Badge, Card, Flex, Heading, Link as RadixLink, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../../../shared/format';
import { type Column, TableView } from '../../../components/data-table/TableView';
import { DateText } from '../../../components/date/DateText';
import { type SupportThreads, supportThreadsQuery } from '../../../lib/queries/conversations';
import { pathOf } from '../../../lib/routes';
import { durationText, waitColor } from './wait-text';

type Thread = SupportThreads['items'][number];

const columns: Array<Column<Thread>> = [
  {
    key: 'id',
    title: 'درخواست',
    cell: (t) => (
      <RadixLink asChild>
        <Link
          to={`${pathOf('requests')}?open=${t.purchaseId}`}
          aria-label={`گفتگوی درخواست شماره ${formatNumber(t.purchaseId)}`}
          data-testid={`support-thread-${t.purchaseId}`}
        >
          <span className="ltr">{formatNumber(t.purchaseId)}</span>
        </Link>
      </RadixLink>
    ),
  },
  { key: 'customer', title: 'مشتری', cell: (t) => t.customerName },
  { key: 'desk', title: 'خدمت', cell: (t) => t.deskTitle, hideOnMobile: true },
  {
    key: 'message',
    title: 'آخرین پیام',
    cell: (t) => (
      <Text size="2" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {t.lastMessage.length > 80 ? `${t.lastMessage.slice(0, 80)}…` : t.lastMessage}
      </Text>
    ),
  },
  {
    key: 'since',
    title: 'از',
    cell: (t) => <DateText value={t.waitingSince} format="dateTime" />,
    hideOnMobile: true,
  },
  {
    key: 'waited',
    title: 'در انتظار',
    cell: (t) => <Badge color={waitColor(t.waitingSeconds)}>{durationText(t.waitingSeconds)}</Badge>,
  },
];

export default function SupportThreadsPage() {
  const threads = useQuery(supportThreadsQuery);
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">گفتگوهای در انتظار پاسخ</Heading>
      <Text size="2" color="gray">
        گفتگوهایی که آخرین پیامشان از مشتری است، از قدیمی‌ترین انتظار.
        {threads.data ? ` (${formatNumber(threads.data.total)} گفتگو)` : ''}
      </Text>
      <Card size="2">
        <TableView
          columns={columns}
          rows={threads.data?.items ?? []}
          rowKey={(t) => t.purchaseId}
          loading={threads.isPending}
          error={threads.isError ? threads.error : undefined}
          emptyText="گفتگویی در انتظار پاسخ نیست"
          testId="support-threads"
        />
      </Card>
    </Flex>
  );
}
