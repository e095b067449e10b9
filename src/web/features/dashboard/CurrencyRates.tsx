/** The home page's rates table with each currency's chart panel: loaded after the first screen (DashboardPage). */
import { Button, Flex, Skeleton, Text } from '@radix-ui/themes';
import { lazy, Suspense, useMemo, useState } from 'react';
import { type Column, TableView } from '../../components/data-table/TableView';
import { DateText } from '../../components/date/DateText';
import { RialText } from '../../components/RialText';
import type { Currency } from '../../lib/queries/currencies';

// The chart and uPlot load only when a customer asks for a currency's chart: the first page does not carry them.
const RatePanel = lazy(() => import('./RatePanel'));

const RATE_COLUMNS: Array<Column<Currency>> = [
  {
    key: 'currency',
    title: 'ارز',
    rowHeader: true,
    cell: (c) => (
      <Flex direction="column">
        <Text weight="medium">{c.title}</Text>
        <Text size="1" color="gray" className="ltr">
          {c.code}
        </Text>
      </Flex>
    ),
  },
  {
    key: 'rate',
    title: 'نرخ هر واحد',
    cell: (c) => (
      <Flex direction="column">
        <Text weight="bold">
          <RialText value={c.rate} testId="rate-value" />
        </Text>
        {/* On a phone the update time sits under the rate instead of in its own column. */}
        <Text size="1" color="gray" className="only-mobile" aria-hidden>
          <DateText value={c.rateUpdatedAt} format="dateTime" />
        </Text>
      </Flex>
    ),
  },
  {
    key: 'updated',
    title: 'به‌روزرسانی',
    hideOnMobile: true,
    testId: () => 'rate-updated',
    cell: (c) => <DateText value={c.rateUpdatedAt} format="dateTime" />,
  },
];

function chartColumn(open: Currency | null, toggle: (c: Currency) => void): Column<Currency> {
  return {
    key: 'chart',
    title: 'نمودار',
    cell: (c) => (
      <Button
        size="1"
        variant={open?.id === c.id ? 'solid' : 'soft'}
        aria-expanded={open?.id === c.id}
        aria-controls="rate-panel"
        aria-label={`نمودار و هشدار نرخ ${c.title}`}
        onClick={() => toggle(c)}
        data-testid={`rate-chart-${c.code}`}
      >
        نمودار
      </Button>
    ),
  };
}

export default function RatesTable({ items }: { items: Currency[] }) {
  const [openId, setOpenId] = useState<number | null>(null);
  // The open currency follows the list, so a live rate change reaches the panel.
  const open = items.find((c) => c.id === openId) ?? null;
  const columns = useMemo(
    () => [...RATE_COLUMNS, chartColumn(open, (c) => setOpenId((id) => (id === c.id ? null : c.id)))],
    [open],
  );
  return (
    <Flex direction="column" gap="4">
      <TableView
        testId="rates-table"
        variant="surface"
        columns={columns}
        rows={items}
        rowKey={(c) => c.id}
        rowProps={(c) => ({ 'data-testid': `rate-${c.code}`, align: 'center' })}
      />
      <div id="rate-panel">
        {open && (
          <Suspense fallback={<Skeleton height="240px" role="status" aria-label="در حال بارگذاری نمودار" />}>
            <RatePanel currency={open} onClose={() => setOpenId(null)} />
          </Suspense>
        )}
      </div>
    </Flex>
  );
}
