/**
 * One currency's panel under the home page's rates (decision 029): its chart for 30 days, 90 days or a year, the same
 * numbers as a table (a toggle; the chart's canvas is hidden from screen readers), and the signed-in customer's rate
 * alerts on it. Loaded lazily by the dashboard when a customer asks for a chart, with uPlot inside.
 */
import { Button, Callout, Flex, Heading, SegmentedControl, Skeleton, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { formatNumber, toPersianDigits } from '../../../shared/format';
import { type Column, TableView } from '../../components/data-table/TableView';
import { DateText } from '../../components/date/DateText';
import { RialText } from '../../components/RialText';
import { LoadError } from '../../components/states/LoadError';
import type { Currency } from '../../lib/queries/currencies';
import { RATE_RANGES, type RateRange, rateHistoryQuery } from '../../lib/queries/rates';
import { RateAlerts } from './RateAlerts';
import { RateChart, type RateSeries } from './RateChart';

const RANGE_LABEL: Record<RateRange, string> = { 30: '۳۰ روز', 90: '۹۰ روز', 365: 'یک سال' };

interface Row {
  at: string;
  rate: number;
}

const TABLE_COLUMNS: Array<Column<Row>> = [
  { key: 'at', title: 'تاریخ ثبت نرخ', rowHeader: true, cell: (r) => <DateText value={r.at} format="dateTime" /> },
  { key: 'rate', title: 'نرخ هر واحد', cell: (r) => <RialText value={r.rate} /> },
];

export default function RatePanel({ currency, onClose }: { currency: Currency; onClose: () => void }) {
  const [days, setDays] = useState<RateRange>(30);
  const [showTable, setShowTable] = useState(false);
  const headingId = useId();
  const tableId = useId();
  const history = useQuery(rateHistoryQuery(currency.code, days));

  const series = useMemo<RateSeries | null>(() => {
    const h = history.data;
    if (!h) return null;
    const times: number[] = [];
    const rates: number[] = [];
    const saves: number[] = [];
    if (h.openingRate) {
      times.push(Date.parse(h.from) / 1000);
      rates.push(h.openingRate.rate);
    }
    for (const p of h.points) {
      saves.push(times.length);
      times.push(Date.parse(p.at) / 1000);
      rates.push(p.rate);
    }
    if (rates.length === 0) return null;
    // The last rate holds until now.
    times.push(Date.parse(h.to) / 1000);
    rates.push(rates.at(-1)!);
    return { times, rates, saves, from: Date.parse(h.from) / 1000, to: Date.parse(h.to) / 1000 };
  }, [history.data]);

  const rows = useMemo<Row[]>(() => {
    const h = history.data;
    if (!h) return [];
    const all = [...(h.openingRate ? [h.openingRate] : []), ...h.points];
    return all.reverse();
  }, [history.data]);

  const summary = series
    ? `نمودار نرخ ${currency.title} در ${RANGE_LABEL[days]} گذشته: کمترین ${formatNumber(Math.min(...series.rates))} و بیشترین ${formatNumber(Math.max(...series.rates))} ریال، اکنون ${formatNumber(series.rates.at(-1)!)} ریال. جدول اعداد پایین‌تر است.`
    : '';

  return (
    <section aria-labelledby={headingId} className="rate-panel" data-testid="rate-panel">
      <Flex direction="column" gap="3">
        <Flex align="center" justify="between" gap="2" wrap="wrap">
          <Heading as="h3" size="4" id={headingId}>
            نمودار نرخ {currency.title}
          </Heading>
          <Button variant="ghost" onClick={onClose} data-testid="rate-panel-close">
            بستن
          </Button>
        </Flex>
        <SegmentedControl.Root
          value={String(days)}
          onValueChange={(v) => setDays(Number(v) as RateRange)}
          aria-label="بازهٔ نمودار"
          data-testid="rate-range"
        >
          {RATE_RANGES.map((r) => (
            <SegmentedControl.Item key={r} value={String(r)}>
              {RANGE_LABEL[r]}
            </SegmentedControl.Item>
          ))}
        </SegmentedControl.Root>
        {history.isPending && <Skeleton height="240px" role="status" aria-label="در حال بارگذاری نمودار" />}
        {history.isError && (
          <LoadError
            error={history.error}
            fallback="دریافت تاریخچهٔ نرخ ممکن نشد."
            onRetry={() => void history.refetch()}
            retrying={history.isFetching}
          />
        )}
        {history.isSuccess && !series && (
          <Callout.Root color="gray">
            <Callout.Text>در این بازه نرخی برای {currency.title} ثبت نشده است.</Callout.Text>
          </Callout.Root>
        )}
        {series && (
          <>
            <RateChart series={series} days={days} label={summary} />
            <Text size="1" color="gray">
              نرخ هر واحد به ریال؛ {toPersianDigits(history.data!.points.length)} تغییر در {RANGE_LABEL[days]} گذشته.
            </Text>
            <Flex>
              <Button
                variant="soft"
                aria-expanded={showTable}
                aria-controls={tableId}
                onClick={() => setShowTable((v) => !v)}
                data-testid="rate-table-toggle"
              >
                {showTable ? 'پنهان کردن جدول نرخ‌ها' : 'نمایش جدول نرخ‌ها'}
              </Button>
            </Flex>
            <div id={tableId} hidden={!showTable}>
              {showTable && (
                <TableView
                  testId="rate-history-table"
                  variant="surface"
                  columns={TABLE_COLUMNS}
                  rows={rows}
                  rowKey={(r) => `${r.at}-${r.rate}`}
                />
              )}
            </div>
          </>
        )}
        <RateAlerts currency={currency} />
      </Flex>
    </section>
  );
}
