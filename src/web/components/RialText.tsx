import { useAtomValue } from 'jotai';
import { formatNumber, formatToman } from '../../shared/format';
import { showTomanAtom } from '../lib/amount-unit';

/**
 * The one way an amount is drawn: the number, then its unit, read right to left in Persian order («۱٬۰۳۵٬۰۰۰
 * ریال», «۲۲۰ USD», «۱٬۰۳۵٬۰۰۰ ریال / USD»), whatever the direction of what holds it (a left-to-right table cell or
 * value column included): the amount is its own right-to-left island, its number a left-to-right one inside it (so
 * a minus sign stays at its start). The text is the number, a space and the unit, so a test or a screen reader reads
 * «۱٬۰۳۵٬۰۰۰ ریال». With `toman`, the toman equivalent follows in its own element when the customer chose to see it
 * (the drawer's switch), so the rial text stays the same.
 */
export function RialText({
  value,
  testId,
  toman = false,
  unit = 'ریال',
}: {
  value: number | bigint | string;
  testId?: string | undefined;
  toman?: boolean;
  /** What follows the number: the rial by default, a currency's code, «ریال / USD» for a rate. */
  unit?: string;
}) {
  const rial = (
    <span className="amount" dir="rtl" data-testid={testId}>
      <bdi dir="ltr" className="amount-number">
        {formatNumber(value)}
      </bdi>{' '}
      <span className="amount-unit">{unit}</span>
    </span>
  );
  if (!toman) return rial;
  return (
    <>
      {rial} <TomanEquivalent value={value} testId={testId && `${testId}-toman`} />
    </>
  );
}

/** The one amount component under the name its other uses read best with (a currency amount, a rate). */
export const Amount = RialText;

/**
 * '(معادل ۱۰۳٬۵۰۰ تومان)', smaller and grey, on its own line when the space is narrow; nothing when the customer
 * switched the toman off.
 */
export function TomanEquivalent({ value, testId }: { value: number | bigint | string; testId?: string | undefined }) {
  const showToman = useAtomValue(showTomanAtom);
  const toman = formatToman(value);
  if (!showToman || !toman) return null;
  return (
    <span className="toman-equivalent" data-testid={testId}>
      (معادل {toman})
    </span>
  );
}
