/**
 * The top of My account (/request/myAccount): the wallet and reserved amount, the customer's requests counted by
 * state (with a link to My requests) and whether their identity is verified (with a link to the profile).
 */
import { CheckCircledIcon, ExclamationTriangleIcon } from '@radix-ui/react-icons';
import { Badge, Button, Card, Flex, Heading, Skeleton, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../../shared/format';
import { purchaseCountsQuery } from '../../lib/queries/purchases';
import { pathOf } from '../../lib/routes';
import { userAtom } from '../../lib/session';
import { BalanceCards } from './BalanceCards';
import { ToneBadge } from '../../components/ToneBadge';

function RequestCounts() {
  const { data, isPending, isError } = useQuery(purchaseCountsQuery);
  if (isPending) return <Skeleton height="48px" />;
  if (isError) {
    return (
      <Text size="2" color="red">
        دریافت شمار درخواست‌ها ممکن نشد.
      </Text>
    );
  }
  if (data.total === 0) {
    return (
      <Text size="2" color="gray" data-testid="request-counts">
        هنوز درخواستی ثبت نکرده‌اید.
      </Text>
    );
  }
  return (
    <Flex gap="2" wrap="wrap" data-testid="request-counts">
      <Badge size="2" color="gray">
        همه: {formatNumber(data.total)}
      </Badge>
      {data.states
        .filter((s) => s.count > 0)
        .map((s) => (
          <ToneBadge
            key={s.state.identifier}
            size="2"
            tone={s.state.color}
            data-testid={`request-count-${s.state.identifier}`}
          >
            {s.state.title}: {formatNumber(s.count)}
          </ToneBadge>
        ))}
    </Flex>
  );
}

export function AccountSummary() {
  const user = useAtomValue(userAtom);
  if (!user) return null;
  const verified = user.approvedLevel >= 1;
  return (
    <Flex direction="column" gap="3" data-testid="account-summary">
      <BalanceCards />
      <Card size="2">
        <Flex direction="column" gap="2">
          <Flex justify="between" align="center" gap="2" wrap="wrap">
            <Heading size="3" as="h2">
              درخواست‌ها
            </Heading>
            <Button asChild size="2" variant="soft">
              <Link to={pathOf('myRequests')}>درخواست‌های من</Link>
            </Button>
          </Flex>
          <RequestCounts />
        </Flex>
      </Card>
      <Card size="2">
        <Flex justify="between" align="center" gap="2" wrap="wrap">
          <Flex direction="column" gap="1">
            <Heading size="3" as="h2">
              پروفایل
            </Heading>
            {verified ? (
              <Text size="2" color="green" data-testid="profile-status">
                <CheckCircledIcon /> هویت شما تایید شده است.
              </Text>
            ) : (
              <Text size="2" color="orange" data-testid="profile-status">
                <ExclamationTriangleIcon />{' '}
                {user.profileReviewPending
                  ? 'پروفایل شما در انتظار بررسی کارشناسان است.'
                  : 'هویت شما هنوز تایید نشده است؛ برای ثبت بیشتر درخواست‌ها پروفایل خود را تکمیل کنید.'}
              </Text>
            )}
          </Flex>
          <Button asChild size="2" variant="soft">
            <Link to={pathOf('myProfile')}>پروفایل من</Link>
          </Button>
        </Flex>
      </Card>
    </Flex>
  );
}
