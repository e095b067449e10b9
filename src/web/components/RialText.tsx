import { useAtomValue } from 'jotai';
import { formatNumber, formatToman } from '../../shared/format';
import { showTomanAtom } from '../lib/amount-unit';

/**
 * An amount in rial: Persian digits and separator, isolated left to right, the unit after them in Persian order.
 * With `toman`, the toman equivalent follows in its own element when the customer chose to see it (the drawer's
 * switch), so the rial text a test or a screen reader reads stays the same.
 */
export function RialText({
  value,
  testId,
  toman = false,
}: {
  value: number | bigint | string;
  testId?: string;
  toman?: boolean;
}) {
  const rial = (
    <span data-testid={testId} style={{ whiteSpace: 'nowrap' }}>
      <bdi dir="ltr">{formatNumber(value)}</bdi> ریال
    </span>
  );
  if (!toman) return rial;
  return (
    <>
      {rial}
      <TomanEquivalent value={value} testId={testId && `${testId}-toman`} />
    </>
  );
}

/**
 * '(معادل ۱۰۳٬۵۰۰ تومان)', smaller and grey, on its own line when the space is narrow; nothing when the customer
 * switched the toman off.
 */
export function TomanEquivalent({ value, testId }: { value: number | bigint | string; testId?: string }) {
  const showToman = useAtomValue(showTomanAtom);
  const toman = formatToman(value);
  if (!showToman || !toman) return null;
  return (
    <span className="toman-equivalent" data-testid={testId}>
      (معادل {toman})
    </span>
  );
}
