/** Display formatting: en-US thousands separators, rial amounts, phone grouping, Persian digits. */
import { toEnglishDigits, toPersianDigits } from '../digits';

export { toPersianDigits };

const grouping = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function formatNumber(n: number | bigint | string): string {
  if (typeof n === 'bigint') return grouping.format(n);
  const value = typeof n === 'number' ? n : Number(toEnglishDigits(n).replace(/,/g, '').trim());
  return Number.isFinite(value) ? grouping.format(value) : '';
}

export const formatRial = (n: number | bigint | string) => `${formatNumber(n)} ریال`;

/** Groups a phone number for reading: the rest, the 3 digits before the last 4, the last 4. */
export function formatPhone(s: string): string {
  const digits = toEnglishDigits(s).replace(/\D/g, '');
  if (digits.length <= 4) return digits;
  const last4 = digits.slice(-4);
  const before = digits.slice(0, -4);
  if (before.length <= 3) return `${before} ${last4}`;
  return `${before.slice(0, -3)} ${before.slice(-3)} ${last4}`;
}
