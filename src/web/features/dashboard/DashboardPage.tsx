import { Box, Button, Card, Flex, Heading, Skeleton, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useDeferredValue, useEffect } from 'react';
import { Link } from 'react-router-dom';
import { CategoryCards } from '../../components/CategoryCards';
import { LoadError } from '../../components/states/LoadError';
import { currenciesAtom } from '../../lib/queries/currencies';
import { FeaturedDesks } from './FeaturedDesks';

// The rates table (the table, dates in the Jalali calendar) is drawn once the rates have come, never in the
// prerendered page: it loads after the first screen, beside the rates.
const loadRatesTable = () => import('./CurrencyRates');
const RatesTable = lazy(loadRatesTable);

function RatesSkeleton() {
  return (
    <Flex direction="column" gap="2" role="status" aria-label="در حال بارگذاری نرخ ارزها">
      {[1, 2, 3, 4].map((i) => (
        <Skeleton key={i} height="44px" />
      ))}
    </Flex>
  );
}

function Rates() {
  // Deferred: when the rates come, the table is drawn in slices a slow phone answers input between, not in one task.
  const { data, isPending, isError, error, refetch, isFetching } = useDeferredValue(useAtomValue(currenciesAtom));
  // Fetched beside the rates, so the table is not a round trip behind them.
  useEffect(() => void loadRatesTable().catch(() => undefined), []);
  if (isPending) return <RatesSkeleton />;
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
    <Suspense fallback={<RatesSkeleton />}>
      <RatesTable items={data.items} />
    </Suspense>
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
