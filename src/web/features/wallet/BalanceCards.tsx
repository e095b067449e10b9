/** The wallet (what the customer may spend or withdraw) and the reserved amount (held for paid requests). */
import { Card, Flex, Grid, Skeleton, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { RialText } from '../../components/RialText';
import { LoadError } from '../../components/states/LoadError';
import { userBalanceQuery } from '../../lib/queries/wallet';

export function BalanceCards() {
  const { data, isPending, isError, error, refetch, isFetching } = useQuery(userBalanceQuery);
  if (isError) {
    return (
      <LoadError
        error={error}
        fallback="دریافت موجودی ممکن نشد."
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  }
  return (
    <Grid columns={{ initial: '1', xs: '2' }} gap="3">
      <Card size="2">
        <Flex direction="column" gap="1">
          <Text size="2" color="gray">
            موجودی کیف پول
          </Text>
          <Text size="5" weight="bold">
            {isPending ? (
              <Skeleton width="140px" height="28px" />
            ) : (
              <RialText value={data.balance} testId="wallet-balance" toman />
            )}
          </Text>
          <Text size="1" color="gray">
            قابل استفاده برای پرداخت درخواست‌ها
          </Text>
        </Flex>
      </Card>
      <Card size="2">
        <Flex direction="column" gap="1">
          <Text size="2" color="gray">
            مبلغ رزروشده
          </Text>
          <Text size="5" weight="bold">
            {isPending ? (
              <Skeleton width="140px" height="28px" />
            ) : (
              <RialText value={data.reserved} testId="wallet-reserved" />
            )}
          </Text>
          <Text size="1" color="gray">
            نگه‌داشته‌شده برای درخواست‌های پرداخت‌شده تا انجام آن‌ها
          </Text>
        </Flex>
      </Card>
    </Grid>
  );
}
