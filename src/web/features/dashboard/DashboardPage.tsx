import { Box, Button, Card, Flex, Heading, Skeleton, Table, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { CategoryCards } from '../../components/CategoryCards';
import { currenciesAtom } from '../../lib/queries/currencies';
import { DateText } from '../../components/date/DateText';
import { LoadError } from '../../components/states/LoadError';
import { RialText } from '../../components/RialText';

function Rates() {
  const { data, isPending, isError, error, refetch, isFetching } = useAtomValue(currenciesAtom);
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
    <div className="table-scroll">
      <Table.Root variant="surface" data-testid="rates-table">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>ارز</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>نرخ هر واحد</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell className="hide-mobile">به‌روزرسانی</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {data.items.map((c) => (
            <Table.Row key={c.id} data-testid={`rate-${c.code}`} align="center">
              <Table.RowHeaderCell>
                <Flex direction="column">
                  <Text weight="medium">{c.title}</Text>
                  <Text size="1" color="gray" className="ltr">
                    {c.code}
                  </Text>
                </Flex>
              </Table.RowHeaderCell>
              <Table.Cell>
                <Flex direction="column">
                  <Text weight="bold">
                    <RialText value={c.rate} testId="rate-value" />
                  </Text>
                  {/* On a phone the update time sits under the rate instead of in its own column. */}
                  <Text size="1" color="gray" className="only-mobile" aria-hidden>
                    <DateText value={c.rateUpdatedAt} format="dateTime" />
                  </Text>
                </Flex>
              </Table.Cell>
              <Table.Cell className="hide-mobile" data-testid="rate-updated">
                <DateText value={c.rateUpdatedAt} format="dateTime" />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </div>
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
