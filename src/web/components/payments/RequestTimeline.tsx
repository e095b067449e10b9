/**
 * A request's timeline (SPEC §4, states and transitions): every step it took, oldest first, in words («پرداخت شد»، «کارشناس درخواست را
 * برداشت»، …), when (relative while recent, the Jalali or Gregorian date and time as the reader chose otherwise) and
 * who acted as a role (staff's view also names the staff member), then what comes next with its usual wait. The
 * words come from the server (src/shared/request-steps.ts), the same description its notifications come from.
 * Shared by the customer's request page and the staff requests page.
 */
import { Box, Flex, Heading, Text } from '@radix-ui/themes';
import type { components } from '../../../generated/api';
import { DateText } from '../date/DateText';

type Timeline = components['schemas']['RequestTimeline'];
type Step = Timeline['steps'][number];

/** A step's mark: green when done, red when it ended the request badly, blue otherwise. */
const MARKS: Partial<Record<Step['kind'], string>> = {
  done: 'var(--green-9)',
  failed: 'var(--red-9)',
  refunded: 'var(--orange-9)',
  invalidated: 'var(--gray-9)',
  cancelled: 'var(--gray-9)',
};

export function RequestTimeline({ timeline }: { timeline: Timeline }) {
  return (
    <Box data-testid="request-timeline">
      <Heading size="3" as="h3" mb="2">
        مراحل درخواست
      </Heading>
      <ol style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' }}>
        {timeline.steps.map((step, i) => (
          <TimelineStep key={`${step.kind}-${step.at}`} step={step} last={i === timeline.steps.length - 1} />
        ))}
        {timeline.next && (
          <li style={{ display: 'flex', gap: 10 }} data-testid="timeline-next">
            <Dot color="var(--gray-7)" hollow />
            <Flex direction="column" gap="1" pb="1">
              <Text size="2" color="gray">
                مرحلهٔ بعد: {timeline.next.text}
              </Text>
              {timeline.next.usualWait && (
                <Text size="1" color="gray" data-testid="timeline-usual-wait">
                  {timeline.next.usualWait}
                </Text>
              )}
            </Flex>
          </li>
        )}
      </ol>
    </Box>
  );
}

function TimelineStep({ step, last }: { step: Step; last: boolean }) {
  return (
    <li style={{ display: 'flex', gap: 10 }} data-testid="timeline-step" data-kind={step.kind}>
      <Flex direction="column" align="center" style={{ flex: 'none' }}>
        <Dot color={MARKS[step.kind] ?? 'var(--accent-9)'} />
        {!last && <span style={{ flex: 1, width: 2, background: 'var(--gray-6)', minHeight: 16 }} />}
      </Flex>
      <Flex direction="column" gap="1" pb="3" style={{ minWidth: 0 }}>
        <Text size="2" weight="medium" style={{ overflowWrap: 'anywhere' }}>
          {step.words}
        </Text>
        <Flex gap="2" wrap="wrap" align="center">
          <Text size="1" color="gray">
            <DateText value={step.at} format="longDateTime" relative />
          </Text>
          <Text size="1" color="gray" aria-hidden>
            ·
          </Text>
          <Text size="1" color="gray" data-testid="timeline-actor">
            {step.actorTitle}
            {step.actorName ? ` (${step.actorName})` : ''}
          </Text>
        </Flex>
      </Flex>
    </li>
  );
}

function Dot({ color, hollow = false }: { color: string; hollow?: boolean }) {
  return (
    <span
      aria-hidden
      style={{
        flex: 'none',
        width: 12,
        height: 12,
        marginTop: 4,
        borderRadius: '50%',
        border: `2px solid ${color}`,
        background: hollow ? 'transparent' : color,
      }}
    />
  );
}
