/**
 * The states a request went through, oldest first: each state's colour and title, its Jalali or Gregorian date as
 * the reader chose, why (the cause in Persian) and the reason staff gave. Shared by the customer's request page and
 * the staff requests page.
 */
import { Flex, Text } from '@radix-ui/themes';
import type { components } from '../../../generated/api';
import { DateText } from '../date/DateText';
import { STATE_CAUSES } from './state-causes';
import { ToneBadge } from '../ToneBadge';

type StateChange = components['schemas']['PurchaseStateChange'];

export function StateHistory({ history }: { history: readonly StateChange[] }) {
  return (
    <ol className="state-history" data-testid="state-history">
      {history.map((change, i) => (
        <li key={`${change.createdAt}-${i}`} style={{ borderColor: change.stateColor }}>
          <Flex gap="2" align="center" wrap="wrap">
            <ToneBadge tone={change.stateColor}>{change.stateTitle}</ToneBadge>
            <DateText value={change.createdAt} format="longDateTime" />
            {change.cause && STATE_CAUSES[change.cause] && (
              <Text size="1" color="gray">
                {STATE_CAUSES[change.cause]}
              </Text>
            )}
          </Flex>
          {change.reason && (
            <Text as="p" size="2" mt="1" data-testid="state-reason">
              دلیل: {change.reason}
            </Text>
          )}
        </li>
      ))}
    </ol>
  );
}
