/**
 * Amounts in words for what is printed in English and Persian side by side (a finished request's proof letter):
 * whole numbers in English words, short scale (1250000 → "one million two hundred fifty thousand"), and a foreign
 * amount with its cents in either language ("three hundred fifty and 25/100 USD").
 */
import { toPersianDigits } from '../digits';
import { numberToPersianWords } from './persian-words';

const ONES = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const TEENS = [
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion', 'trillion'];

function belowThousand(n: number): string {
  const parts: string[] = [];
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds) parts.push(`${ONES[hundreds]} hundred`);
  if (rest >= 10 && rest < 20) parts.push(TEENS[rest - 10]!);
  else {
    const tens = Math.floor(rest / 10);
    const ones = rest % 10;
    if (tens && ones) parts.push(`${TENS[tens]}-${ONES[ones]}`);
    else if (tens) parts.push(TENS[tens]!);
    else if (ones) parts.push(ONES[ones]!);
  }
  return parts.join(' ');
}

/** A whole number from 0 below 10^15 in English words. */
export function numberToEnglishWords(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0 || value >= 1e15) throw new RangeError('a whole number below 10^15');
  if (value === 0) return 'zero';
  const groups: string[] = [];
  let n = value;
  for (let scale = 0; n > 0; scale++, n = Math.floor(n / 1000)) {
    const group = n % 1000;
    if (group) groups.unshift(scale === 0 ? belowThousand(group) : `${belowThousand(group)} ${SCALES[scale]}`);
  }
  return groups.join(' ');
}

/** Whole units and hundredths of a foreign amount (350.25 → [350, 25]), rounded to the cent. */
function unitsAndCents(amount: number): [number, number] {
  const cents = Math.round(amount * 100);
  return [Math.floor(cents / 100), cents % 100];
}

/** A foreign amount in English words with its currency code: 350.25, USD → "three hundred fifty and 25/100 USD". */
export function foreignAmountInEnglishWords(amount: number, currencyCode: string): string {
  const [units, cents] = unitsAndCents(amount);
  const fraction = cents ? ` and ${String(cents).padStart(2, '0')}/100` : '';
  return `${numberToEnglishWords(units)}${fraction} ${currencyCode}`;
}

/** The same in Persian words with the currency's Persian name: 350.25, دلار → «سیصد و پنجاه و ۲۵ صدم دلار». */
export function foreignAmountInPersianWords(amount: number, currencyTitle: string): string {
  const [units, cents] = unitsAndCents(amount);
  const fraction = cents ? ` و ${toPersianDigits(cents)} صدم` : '';
  return `${numberToPersianWords(units)}${fraction} ${currencyTitle}`;
}
