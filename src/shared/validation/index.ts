/**
 * Field rules as pure predicates, shared by the forms and the server (see ajv-keywords.ts).
 * Every string predicate accepts Persian and Arabic-Indic digits as well as ASCII.
 */
import { currentJalaliYear, jalaliMonthLength, parseJalali } from '../calendar';
import { toEnglishDigits } from '../digits';
export { isValidMobile, isValidNationalCode } from './identity-numbers';

const normalize = (s: string) => toEnglishDigits(String(s).trim());

// Arabic-script letters used in Persian and Arabic (with پ چ ژ ک گ ی ۀ); diacritics (harakat, superscript
// alef) sit in a class of their own so no class mixes letters with combining marks.
const PERSIAN_LETTER = /[\u0621-\u063A\u0641-\u064A\u067E\u0686\u0698\u06A9\u06AF\u06C0\u06CC]/u;
const PERSIAN_TEXT =
  /^(?:[\u0621-\u063A\u0641-\u064A\u067E\u0686\u0698\u06A9\u06AF\u06C0\u06CC\u200C\s]|[\u064B-\u065F\u0670])+$/u;

/** Persian/Arabic letters (diacritics and the zero-width non-joiner allowed) and whitespace; at least one letter. */
export function isPersianText(s: string): boolean {
  const text = String(s);
  return PERSIAN_TEXT.test(text) && PERSIAN_LETTER.test(text);
}

/** yyyy/m/d in the Jalali calendar: a year from 1300 to the current one, and a day that exists. */
export function isValidJalaliDate(s: string, now: Date = new Date()): boolean {
  const parts = parseJalali(s);
  if (!parts) return false;
  const { year, month, day } = parts;
  if (year < 1300 || year > currentJalaliYear(now)) return false;
  return day >= 1 && day <= jalaliMonthLength(year, month);
}

// The dot-atom form (no leading, trailing or doubled dots) and a host name with a dot.
const EMAIL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** Comma-separated e-mail addresses (the Persian comma ، counts too); no empty items. */
export function isValidEmailList(s: string): boolean {
  return String(s)
    .split(/[,،]/)
    .map((item) => item.trim())
    .every((item) => item.length > 0 && item.length <= 254 && EMAIL.test(item));
}

/** An optional minus and digits; a number must be a (safe or not) integer. */
export function isInteger(s: string | number): boolean {
  if (typeof s === 'number') return Number.isInteger(s);
  return /^-?\d+$/.test(normalize(s));
}

/** A number, or a decimal string (any digits, '.' or '٫' as the point), within [min, max] or (min, max). */
export function isInRange(
  n: number | string,
  min: number,
  max: number,
  options: { inclusive?: boolean } = {},
): boolean {
  let value = n;
  if (typeof value === 'string') {
    const text = normalize(value).replace('٫', '.');
    if (!/^-?(?:\d+(?:\.\d*)?|\.\d+)$/.test(text)) return false;
    value = Number(text);
  }
  if (typeof value !== 'number' || Number.isNaN(value)) return false;
  return options.inclusive === false ? value > min && value < max : value >= min && value <= max;
}
