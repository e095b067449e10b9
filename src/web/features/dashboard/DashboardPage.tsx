import { Box, Button, Card, Flex, Heading, Skeleton, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { CategoryCards } from '../../components/CategoryCards';
import { type Column, TableView } from '../../components/data-table/TableView';
import { DateText } from '../../components/date/DateText';
import { RialText } from '../../components/RialText';
import { LoadError } from '../../components/states/LoadError';
import { type Currency, currenciesAtom } from '../../lib/queries/currencies';
import { FeaturedDesks } from './FeaturedDesks';

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

function Rates() {
  const { data, isPending, isError, error, refetch, isFetching } = useAtomValue(currenciesAtom);
  const [openId, setOpenId] = useState<number | null>(null);
  // The open currency follows the list, so a live rate change reaches the panel.
  const open = data?.items.find((c) => c.id === openId) ?? null;
  const columns = useMemo(
    () => [...RATE_COLUMNS, chartColumn(open, (c) => setOpenId((id) => (id === c.id ? null : c.id)))],
    [open],
  );
  if (isPending) {
    return (
      <Flex direction="column" gap="2" role="status" aria-label="در حال بارگذاری نرخ ارزها">
        {[1, 2, 3, 4].map((i) => (
          <Skeleton key={i} height="44px" />
        ))}
      </Flex>
    );
  }
  if (isError) {
    return (
      <LoadError
        error={error}
        fallback="دریافت نرخ ارزها ممکن نشد."
        onRetry={() => void refetch()}
        retrying={isFetching}
        testId="rates-error"
      />
    );
  }
  if (data.items.length === 0) {
    return (
      <Text as="p" color="gray" data-testid="rates-empty">
        هنوز نرخی برای ارزها ثبت نشده است.
      </Text>
    );
  }
  return (
    <Flex direction="column" gap="4">
      <TableView
        testId="rates-table"
        variant="surface"
        columns={columns}
        rows={data.items}
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

export default function DashboardPage() {
  return (
    <Flex direction="column" gap="5">
      <Box className="hero">
        <Heading as="h1" size="7" mb="2">
          پرداخت ارزی، با ریال
        </Heading>
        <Text as="p" size="3" style={{ opacity: 0.92, lineHeight: 1.9 }}>
          هزینه اپلیکیشن و دیپازیت دانشگاه، ثبت‌نام آزمون‌های بین‌المللی، وقت سفارت و شارژ گوگل ادز را به ریال بپردازید؛
          قیمت نهایی پیش از پرداخت روشن است.
        </Text>
        <Flex gap="3" mt="4" wrap="wrap">
          <Button asChild size="3" variant="solid" highContrast className="hero-cta">
            <Link to="/services">مشاهده خدمات</Link>
          </Button>
          <Button asChild size="3" variant="outline" className="hero-secondary">
            <Link to="/request/termsAndConditions">قوانین و مقررات</Link>
          </Button>
        </Flex>
      </Box>
      <FeaturedDesks />
      <section aria-labelledby="services-heading">
        <Heading id="services-heading" size="5" mb="3">
          خدمات
        </Heading>
        <CategoryCards />
      </section>
      <section aria-labelledby="rates-heading">
        <Card size="2">
          <Heading id="rates-heading" size="5" mb="3">
            نرخ ارز
          </Heading>
          <Rates />
        </Card>
      </section>
    </Flex>
  );
}
