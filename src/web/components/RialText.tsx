import { formatNumber } from '../../shared/format';

/** An amount in rial: en-US thousands separators, the digits isolated left to right, the unit after them in Persian order. */
export function RialText({ value, testId }: { value: number | bigint | string; testId?: string }) {
  return (
    <span data-testid={testId} style={{ whiteSpace: 'nowrap' }}>
      <bdi dir="ltr">{formatNumber(value)}</bdi> ریال
    </span>
  );
}
