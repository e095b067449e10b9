import type { ReactNode } from 'react';
import { LATIN_ATTRIBUTE } from '../../shared/format/latin';

/**
 * Text that is Latin by nature (an IBAN, a card or reference number, an e-mail, a URL; the list is in
 * shared/format/latin.ts): kept as written, isolated left to right, and exempt from the Persian digit rule.
 */
export function Latin({ children, testId }: { children: ReactNode; testId?: string | undefined }) {
  return (
    <bdi dir="ltr" className="ltr" {...{ [LATIN_ATTRIBUTE]: '' }} data-testid={testId}>
      {children}
    </bdi>
  );
}
