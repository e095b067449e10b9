import { Flex, Heading, Text } from '@radix-ui/themes';
import type { ReactNode } from 'react';

/**
 * A list with nothing in it yet: what will appear there and the next step, instead of a bare "no data". Pages give
 * it to their DataTable as `empty`.
 */
export function EmptyState({
  title,
  children,
  action,
  testId,
  compact = false,
}: {
  title: string;
  /** What will appear here, and when. */
  children: ReactNode;
  /** The next step: a button or a link. */
  action?: ReactNode;
  testId?: string;
  /** Beside a form that is itself the next step: no picture, less room. */
  compact?: boolean;
}) {
  return (
    <Flex
      direction="column"
      align="center"
      gap="2"
      py={compact ? '3' : '5'}
      px="3"
      data-testid={testId ?? 'empty-state'}
    >
      {!compact && <img src="/img/empty.svg" alt="" width={72} height={72} />}
      <Heading as="h3" size="3" align="center">
        {title}
      </Heading>
      <Text as="p" size="2" color="gray" align="center" style={{ maxWidth: 420 }}>
        {children}
      </Text>
      {action && <Flex mt="2">{action}</Flex>}
    </Flex>
  );
}
