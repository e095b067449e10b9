/**
 * An audit entry's change as staff read it (docs/operations.md, the audit trail): one line per changed field, «field: before ← after»
 * in Persian (src/shared/audit). Each value is isolated in its own direction (a Latin code stays whole inside the
 * right-to-left line) and wraps only between words (a word longer than the cell, such as a file address, alone
 * breaks).
 */
import { Flex, Text } from '@radix-ui/themes';
import { type AuditChange, auditChanges } from '../../../shared/audit/changes';
import type { CalendarKind } from '../../../shared/calendar';
import { LATIN_ATTRIBUTE } from '../../../shared/format/latin';

function Value({ text, testId }: { text: string | null; testId: string }) {
  if (text === null)
    return (
      <Text color="gray" data-testid={testId}>
        —
      </Text>
    );
  // A value with Latin letters is kept as written (an IBAN, a file address, a code: auditValueText), Latin by nature.
  const latin = /[A-Za-z]/.test(text) ? { [LATIN_ATTRIBUTE]: '' } : {};
  return (
    <bdi dir="auto" data-testid={testId} style={{ overflowWrap: 'anywhere', wordBreak: 'normal' }} {...latin}>
      {text}
    </bdi>
  );
}

export function AuditChangesView({ changes }: { changes: AuditChange[] }) {
  if (changes.length === 0) return <Text color="gray">—</Text>;
  return (
    <Flex direction="column" gap="1" data-testid="audit-changes" asChild>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {changes.map((change) => (
          <li key={change.field} data-testid="audit-change" data-field={change.field}>
            <Text size="2">
              <Text color="gray" data-testid="audit-change-field">
                {change.title}:
              </Text>{' '}
              {change.before !== null && (
                <>
                  <Value text={change.before} testId="audit-change-before" /> ←{' '}
                </>
              )}
              <Value text={change.after} testId="audit-change-after" />
            </Text>
          </li>
        ))}
      </ul>
    </Flex>
  );
}

/** The change as one line of text, for a spreadsheet cell. */
export function auditChangesText(before: unknown, after: unknown, calendar: CalendarKind): string {
  return auditChanges(before, after, calendar)
    .map((c) => `${c.title}: ${c.before === null ? '' : `${c.before} ← `}${c.after ?? '—'}`)
    .join('؛ ');
}

export { auditChanges };
