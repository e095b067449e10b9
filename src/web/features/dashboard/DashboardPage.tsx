import { ReloadIcon } from '@radix-ui/react-icons';
import { Box, Button, Callout, Card, Flex, Heading, Skeleton, Table, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { formatRial } from '../../../shared/format';
import { digMessage } from '../../lib/api-client';
import { CategoryCards } from '../catalogue/CategoryCards';
import { currenciesAtom } from '../catalogue/currencies-query';
import { DateText } from '../shell/DateText';

function Rates() {
  const { data, isPending, isError, error, refetch } = useAtomValue(currenciesAtom);
  if (isPending) {
    return (
      <Flex direction="column" gap="2" aria-label="در حال بارگذاری نرخ‌ها">
        {[1, 2, 3].map((i) => (
          <Skeleton key={i} height="36px" />
        ))}
      </Flex>
    );
  }
  if (isError) {
    return (
      <Callout.Root color="red">
        <Callout.Text>{digMessage(error) ?? 'دریافت نرخ ارزها ممکن نشد.'}</Callout.Text>
        <Button variant="soft" color="red" onClick={() => refetch()} mt="2">
          <ReloadIcon /> تلاش دوباره
        </Button>
      </Callout.Root>
    );
  }
  if (data.items.length === 0) return <Text color="gray">هنوز ارزی ثبت نشده است.</Text>;
  return (
    <div className="table-scroll">
      <Table.Root variant="surface" data-testid="rates-table">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>ارز</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>نرخ</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell className="hide-mobile">به‌روزرسانی</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {data.items.map((c) => (
            <Table.Row key={c.id} data-testid={`rate-${c.code}`}>
              <Table.RowHeaderCell>
                <Flex direction="column">
                  <Text weight="medium">{c.title}</Text>
                  <Text size="1" color="gray">
                    {c.code}
                  </Text>
                </Flex>
              </Table.RowHeaderCell>
              <Table.Cell>
                <Text className="ltr" weight="bold" data-testid="rate-value">
                  {formatRial(c.rate)}
                </Text>
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
        <Heading size="7" mb="2">
          پرداخت ارزی، با ریال
        </Heading>
        <Text as="p" size="3" style={{ opacity: 0.92, lineHeight: 1.9 }}>
          هزینه اپلیکیشن و دیپازیت دانشگاه، ثبت‌نام آزمون‌های بین‌المللی، وقت سفارت و شارژ گوگل ادز را به ریال بپردازید؛
          قیمت نهایی پیش از پرداخت روشن است.
        </Text>
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
