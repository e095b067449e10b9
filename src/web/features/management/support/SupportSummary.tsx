/**
 * The staff home's conversation figures, for staff who answer conversations (viewRequests): how many wait for an
 * answer (linking to the queue), and the median and 90th-percentile time to staff's first answer over 7 days.
 */
import { Badge, Card, Flex, Heading, Link as RadixLink, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../../../shared/format';
import { supportThreadsQuery } from '../../../lib/queries/conversations';
import { pathOf } from '../../../lib/routes';
import { durationText } from './wait-text';

const figure = (seconds: number | null | undefined) =>
  seconds === null || seconds === undefined ? '—' : durationText(seconds);

export function SupportSummary() {
  const { data } = useQuery(supportThreadsQuery);
  return (
    <Card size="2" data-testid="support-summary">
      <Flex direction="column" gap="2">
        <Heading size="4" as="h2">
          گفتگو با مشتریان
        </Heading>
        <RadixLink asChild size="2" weight="medium">
          <Link to={pathOf('supportThreads')} data-testid="support-waiting">
            گفتگوهای در انتظار پاسخ:{' '}
            <Badge color={(data?.total ?? 0) > 0 ? 'orange' : 'gray'}>{formatNumber(data?.total ?? 0)}</Badge>
          </Link>
        </RadixLink>
        <Text size="2" data-testid="support-median">
          میانهٔ زمان اولین پاسخ (۷ روز گذشته): {figure(data?.medianFirstAnswerSeconds)}
        </Text>
        <Text size="2" data-testid="support-p90">
          صدک ۹۰ زمان اولین پاسخ: {figure(data?.p90FirstAnswerSeconds)}
        </Text>
        <Text size="1" color="gray">
          بر پایهٔ {formatNumber(data?.answeredLastWeek ?? 0)} پاسخ در ۷ روز گذشته
        </Text>
      </Flex>
    </Card>
  );
}
