/**
 * Whole numbers in Persian words, as a receipt or a cheque writes an amount: groups of three digits joined
 * with « و », each followed by its scale (هزار، میلیون، میلیارد، …): 1250000 → «یک میلیون و دویست و پنجاه هزار».
 * Exact for every integer (bigint, or a safe-integer number); a group of zero is left out.
 */

const ONES = ['', 'یک', 'دو', 'سه', 'چهار', 'پنج', 'شش', 'هفت', 'هشت', 'نه'];
const TEENS = ['ده', 'یازده', 'دوازده', 'سیزده', 'چهارده', 'پانزده', 'شانزده', 'هفده', 'هجده', 'نوزده'];
const TENS = ['', '', 'بیست', 'سی', 'چهل', 'پنجاه', 'شصت', 'هفتاد', 'هشتاد', 'نود'];
const HUNDREDS = ['', 'صد', 'دویست', 'سیصد', 'چهارصد', 'پانصد', 'ششصد', 'هفتصد', 'هشتصد', 'نهصد'];
/** 10^(3i): the short scale Iranian banks use (10^9 میلیارد, 10^12 تریلیون). */
const SCALES = ['', 'هزار', 'میلیون', 'میلیارد', 'تریلیون', 'تریلیارد', 'کوادریلیون', 'کوادریلیارد'];

const AND = ' و ';

/** 1..999 in words. */
function belowThousand(n: number): string {
  const parts: string[] = [];
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds) parts.push(HUNDREDS[hundreds]!);
  if (rest >= 10 && rest < 20) parts.push(TEENS[rest - 10]!);
  else {
    const tens = Math.floor(rest / 10);
    const ones = rest % 10;
    if (tens) parts.push(TENS[tens]!);
    if (ones) parts.push(ONES[ones]!);
  }
  return parts.join(AND);
}

/** An integer in Persian words: 0 → «صفر», -5 → «منفی پنج». Throws for a fraction or an unsafe number. */
export function numberToPersianWords(value: number | bigint): string {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new RangeError('numberToPersianWords takes a safe integer');
  }
  let n = BigInt(value);
  if (n === 0n) return 'صفر';
  const negative = n < 0n;
  if (negative) n = -n;
  const groups: string[] = [];
  for (let scale = 0; n > 0n; scale++, n /= 1000n) {
    const group = Number(n % 1000n);
    if (group === 0) continue;
    if (scale >= SCALES.length) throw new RangeError('number too large for Persian words');
    groups.unshift(scale === 0 ? belowThousand(group) : `${belowThousand(group)} ${SCALES[scale]}`);
  }
  return (negative ? 'منفی ' : '') + groups.join(AND);
}

/** An amount in rial in words with its unit: 1500 → «یک هزار و پانصد ریال». */
export function rialInWords(value: number | bigint): string {
  return `${numberToPersianWords(value)} ریال`;
}
