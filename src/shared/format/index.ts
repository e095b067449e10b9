/**
 * Display formatting, the one place a number becomes text a person reads: Persian digits (۰–۹), the Persian
 * thousands separator (٬ U+066C) and decimal point (٫ U+066B), rial amounts, phone grouping. `groupNumber` keeps
 * Latin digits and en-US commas for what is typed or exported (an input's text, a spreadsheet cell).
 */
import { toEnglishDigits, toPersianDigits, writtenInPersian } from '../digits';

export { toPersianDigits };

/** Thousands separators in a run of Latin digits: '1234567' -> '1,234,567'. */
const groupDigits = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * A decimal's digits rounded half away from zero to two decimals and grouped, as `Intl.NumberFormat('en-US',
 * { maximumFractionDigits: 2 })` writes it, without it: its first construction loads the runtime's locale data, which
 * took 25–150 ms of a slow phone's start when the module was evaluated.
 */
function groupDecimal(negative: boolean, whole: string, fraction: string): string {
  let hundredths = BigInt((whole || '0') + fraction.slice(0, 2).padEnd(2, '0'));
  if ((fraction[2] ?? '0') >= '5') hundredths += 1n;
  if (hundredths === 0n) return '0';
  const text = hundredths.toString().padStart(3, '0');
  const decimals = text.slice(-2).replace(/0+$/, '');
  return `${negative ? '-' : ''}${groupDigits(text.slice(0, -2))}${decimals && `.${decimals}`}`;
}

/**
 * en-US grouping with at most two decimals (rounded): 1234567 -> '1,234,567'. Strings may use any digits,
 * existing separators and '٫' as the point, and are formatted exactly (no float rounding); '' if not a number.
 * For inputs and exports; what a person reads goes through formatNumber.
 */
export function groupNumber(n: number | bigint | string): string {
  if (typeof n === 'bigint') return n < 0n ? `-${groupDigits((-n).toString())}` : groupDigits(n.toString());
  if (typeof n === 'number') {
    if (!Number.isFinite(n)) return '';
    // Intl writes a number's shortest decimal (the digits String gives), rounded: the same digits here, with an
    // exponent (1e21, 5e-7) written out.
    const [mantissa = '', exponent = '0'] = String(Math.abs(n)).split('e');
    const [int = '', frac = ''] = mantissa.split('.');
    const digits = int + frac;
    const point = int.length + Number(exponent);
    const whole = point <= 0 ? '0' : digits.slice(0, point).padEnd(point, '0');
    const fraction = point <= 0 ? '0'.repeat(-point) + digits : digits.slice(point);
    return groupDecimal(n < 0, whole, fraction);
  }
  const text = toEnglishDigits(n.trim())
    .replace(/[,٬\s]/g, '')
    .replace('٫', '.');
  const match = /^([-+]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || !/\d/.test(text)) return '';
  return groupDecimal(match[1] === '-', match[2]!, match[3] ?? '');
}

/** Latin grouped text ('-1,234.5') in Persian: digits ۰–۹, separator ٬, point ٫ ('-۱٬۲۳۴٫۵'). */
export const persianNumerals = (latin: string): string => toPersianDigits(latin.replace(/,/g, '٬').replace('.', '٫'));

/**
 * An amount's text in a field, grouped, in the digits the person typed it in (Persian digits with ٬ and ٫, or Latin
 * with ',' and '.'); Persian when nothing was typed. '' if not a number.
 */
export function groupNumberAsTyped(n: number | bigint | string, typed = ''): string {
  const latin = groupNumber(n);
  return writtenInPersian(typed) ? persianNumerals(latin) : latin;
}

/**
 * An amount's text as it is typed, grouped at once: '1234567' -> '1,234,567', '۱۲۳۴۵' -> '۱۲٬۳۴۵', in the digits
 * typed; text that is not whole digits (a letter, a sign) is left as typed, for the field's rule to name.
 */
export function groupWhileTyping(typed: string): string {
  const digits = toEnglishDigits(typed).replace(/[,،٬\s]/g, '');
  if (!/^\d+$/.test(digits)) return typed;
  return groupNumberAsTyped(digits.replace(/^0+(?=\d)/, ''), typed);
}

/** A number as a person reads it: 1234567 -> '۱٬۲۳۴٬۵۶۷' (same input rules as groupNumber); '' if not a number. */
export function formatNumber(n: number | bigint | string): string {
  return persianNumerals(groupNumber(n));
}

/** formatNumber plus the rial unit ('۱٬۰۳۵٬۰۰۰ ریال'); '' when n is not a number. */
export function formatRial(n: number | bigint | string): string {
  const amount = formatNumber(n);
  return amount && `${amount} ریال`;
}

/**
 * The toman equivalent of a rial amount (one toman is ten rial), exact: 1035005 -> '۱۰۳٬۵۰۰٫۵ تومان'. Customers
 * think in toman while every price and ledger figure is rial; '' when n is not a whole number of rial.
 */
export function formatToman(n: number | bigint | string): string {
  const text = typeof n === 'string' ? toEnglishDigits(n.trim()).replace(/[,٬\s]/g, '') : String(n);
  const match = /^([-+]?)(\d+)$/.exec(text);
  if (!match) return '';
  const [, sign, digits] = match as unknown as [string, string, string];
  const whole = digits.slice(0, -1) || '0';
  const tenth = digits.slice(-1);
  const toman = formatNumber(`${sign}${whole}${tenth === '0' ? '' : `.${tenth}`}`);
  return toman && `${toman} تومان`;
}

/** Groups a phone number in Latin digits: the rest, the 3 digits before the last 4, the last 4 ('0912 345 6789'). */
export function groupPhone(s: string): string {
  const text = toEnglishDigits(String(s).trim());
  const sign = text.startsWith('+') ? '+' : '';
  const digits = text.replace(/\D/g, '');
  if (digits.length <= 4) return sign + digits;
  const last4 = digits.slice(-4);
  const before = digits.slice(0, -4);
  if (before.length <= 3) return `${sign}${before} ${last4}`;
  return `${sign}${before.slice(0, -3)} ${before.slice(-3)} ${last4}`;
}

/** A phone number as a person reads it: groupPhone in Persian digits ('۰۹۱۲ ۳۴۵ ۶۷۸۹'). */
export function formatPhone(s: string): string {
  return toPersianDigits(groupPhone(s));
}

/**
 * A file's size as a person reads it: «۸۵۰ بایت», «۱۲ کیلوبایت», «۱٫۴ مگابایت» (1024-based, one decimal above a
 * kilobyte only where it says something).
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${formatNumber(Math.round(bytes))} بایت`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${formatNumber(kb < 10 ? Math.round(kb * 10) / 10 : Math.round(kb))} کیلوبایت`;
  const mb = kb / 1024;
  return `${formatNumber(mb < 10 ? Math.round(mb * 10) / 10 : Math.round(mb))} مگابایت`;
}
