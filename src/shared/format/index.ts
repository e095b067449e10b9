/** Display formatting: en-US thousands separators, rial amounts, phone grouping, Persian digits. */
import { toEnglishDigits, toPersianDigits } from '../digits';

export { toPersianDigits };

const grouping = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/**
 * en-US grouping with at most two decimals (rounded): 1234567 -> '1,234,567'. Strings may use any digits,
 * existing separators and '٫' as the point, and are formatted exactly (no float rounding); '' if not a number.
 */
export function formatNumber(n: number | bigint | string): string {
  let out: string;
  if (typeof n === 'string') {
    const text = toEnglishDigits(n.trim())
      .replace(/[,٬\s]/g, '')
      .replace('٫', '.');
    if (!/^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(text)) return '';
    out = grouping.format(text as `${number}`);
  } else {
    if (typeof n === 'number' && !Number.isFinite(n)) return '';
    out = grouping.format(n);
  }
  return out === '-0' ? '0' : out;
}

/** formatNumber plus the rial unit; '' when n is not a number. */
export function formatRial(n: number | bigint | string): string {
  const amount = formatNumber(n);
  return amount && `${amount} ریال`;
}

/** Groups a phone number for reading: the rest, the 3 digits before the last 4, the last 4 ('0912 345 6789'). */
export function formatPhone(s: string): string {
  const text = toEnglishDigits(String(s).trim());
  const sign = text.startsWith('+') ? '+' : '';
  const digits = text.replace(/\D/g, '');
  if (digits.length <= 4) return sign + digits;
  const last4 = digits.slice(-4);
  const before = digits.slice(0, -4);
  if (before.length <= 3) return `${sign}${before} ${last4}`;
  return `${sign}${before.slice(0, -3)} ${before.slice(-3)} ${last4}`;
}
