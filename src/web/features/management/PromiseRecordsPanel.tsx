/**
 * The staff home's promise records (decision 041), for staff who see requests: each desk that promises against a
 * deadline, how many of its last settled promises were kept, how many promises are still running, and the
 * compensation the server paid for missed ones (count and rial) over the last days. Loaded lazily by the home.
 */
import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import type { components } from '../../../generated/api';
import { formatNumber } from '../../../shared/format';
import { Amount } from '../../components/RialText';
import { type Column, TableView } from '../../components/data-table/TableView';
import { api, call } from '../../lib/api-client';

type DeskRecord = components['schemas']['DeskPromiseRecord'];
interface Records {
  items: DeskRecord[];
  total: number;
  windowSize: number;
  compensationDays: number;
}

const columns: Array<Column<DeskRecord>> = [
  { key: 'desk', title: 'خدمت', cell: (r) => r.deskTitle, rowHeader: true },
  {
    key: 'kept',
    title: 'پیش از موعد انجام شد',
    cell: (r) => (r.total > 0 ? `${formatNumber(r.kept)} از ${formatNumber(r.total)}` : 'هنوز سابقه‌ای نیست'),
    testId: (r) => `promise-record-${r.desk}`,
  },
  { key: 'open', title: 'قول در جریان', cell: (r) => formatNumber(r.open), hideOnMobile: true },
  { key: 'compensated', title: 'جبران‌شده', cell: (r) => formatNumber(r.compensatedCount) },
  { key: 'compensatedRial', title: 'مبلغ جبران', cell: (r) => <Amount value={r.compensatedRial} /> },
];

export default function PromiseRecordsPanel() {
  const records = useQuery({
    queryKey: ['promiseRecords'],
    queryFn: () => call<Records>(api.POST('/api/sys/searchPromiseRecords')),
  });
  const data = records.data;
  return (
    <Card size="2" data-testid="promise-records">
      <Flex direction="column" gap="2">
        <Heading size="4" as="h2">
          قول‌های موعد هر خدمت
        </Heading>
        {data && (
          <Text size="1" color="gray">
            از {formatNumber(data.windowSize)} درخواست آخرِ قول‌داده‌شدهٔ هر خدمت که موعدشان رسیده یا به پایان رسیده‌اند؛
            جبران‌ها در {formatNumber(data.compensationDays)} روز گذشته
          </Text>
        )}
        <TableView
          columns={columns}
          rows={data?.items ?? []}
          rowKey={(r) => r.desk}
          loading={records.isPending}
          error={records.isError ? records.error : undefined}
          emptyText="هیچ خدمتی قول موعد نمی‌دهد"
          testId="promise-records-table"
        />
      </Flex>
    </Card>
  );
}
