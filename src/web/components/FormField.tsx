/**
 * One labelled field for the hand-built forms (log-in, change password, bank accounts, withdrawals, staff
 * decisions): the label above the control, then a help line and an error line the control points to. The control
 * is the child; it takes the field's `id` and `aria-describedby={describedBy(id, …)}` (a select that is not an
 * input takes `aria-labelledby={labelId(id)}` instead). The schema-driven forms draw theirs through the rjsf theme.
 */
import { Flex, Text } from '@radix-ui/themes';
import type { ReactNode } from 'react';

export const labelId = (id: string) => `${id}-label`;
export const helpId = (id: string) => `${id}-help`;
export const errorId = (id: string) => `${id}-error`;

/** The ids of the lines under a field that it should announce: its help, then its error when there is one. */
export function describedBy(id: string, { help, error }: { help?: boolean; error?: unknown }): string | undefined {
  const ids = [help ? helpId(id) : null, error ? errorId(id) : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

export function FormField({
  id,
  label,
  help,
  helpColor = 'gray',
  helpTestId,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  /** A line under the control: what to type, or what was understood from it. */
  help?: ReactNode;
  helpColor?: 'gray' | 'green' | 'red';
  helpTestId?: string;
  /** Shown in red and announced; nothing when null. */
  error?: string | null | undefined;
  children: ReactNode;
}) {
  return (
    <Flex direction="column" gap="1">
      <Text as="label" size="2" weight="medium" htmlFor={id} id={labelId(id)}>
        {label}
      </Text>
      {children}
      {help !== undefined && (
        <Text size="2" color={helpColor} id={helpId(id)} data-testid={helpTestId}>
          {help}
        </Text>
      )}
      {/* The error line's space is kept while there is none, so an error appearing moves nothing under a tap. */}
      <div className="error-slot">
        {error && (
          <Text as="div" size="1" color="red" role="alert" id={errorId(id)}>
            {error}
          </Text>
        )}
      </div>
    </Flex>
  );
}
