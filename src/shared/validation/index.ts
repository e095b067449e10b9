/**
 * Field rules as pure predicates, shared by the forms and the server (see ajv-keywords.ts).
 * Every string predicate accepts Persian and Arabic-Indic digits as well as ASCII.
 */
import { currentJalaliYear, jalaliMonthLength, parseJalali } from '../calendar';
import { toEnglishDigits } from '../digits';

/** 09 followed by nine digits. */
export function isValidMobile(s: string): boolean {
  return /^09\d{9}$/.test(toEnglishDigits(String(s).trim()));
}

/** Iranian national ID: ten digits, not all the same, with the standard mod-11 check digit. */
export function isValidNationalCode(s: string): boolean {
  const code = toEnglishDigits(String(s).trim());
  if (!/^\d{10}$/.test(code) || /^(\d)\1{9}$/.test(code)) return false;
  const digits = [...code].map(Number);
  const sum = digits.slice(0, 9).reduce((acc, d, i) => acc + d * (10 - i), 0);
  const remainder = sum % 11;
  const check = digits[9];
  return remainder < 2 ? check === remainder : check === 11 - remainder;
}

/** Persian/Arabic letters (with diacritics and the zero-width non-joiner) and whitespace only. */
export function isPersianText(s: string): boolean {
  const text = String(s);
  return (
    text.trim().length > 0 &&
    // Letters, whitespace and ZWNJ; diacritics (harakat, superscript alef) in a class of their own.
    /^(?:[\u0621-\u063A\u0641-\u064A\u067E\u0686\u0698\u06A9\u06AF\u06CC\u06C0\u0622\u200C\s]|[\u064B-\u0652\u0670])+$/u.test(
      text,
    )
  );
}

/** yyyy/mm/dd in the Jalali calendar: year from 1300 to the current one, a day that exists. */
export function isValidJalaliDate(s: string, now: Date = new Date()): boolean {
  const parts = parseJalali(String(s));
  if (!parts) return false;
  const { year, month, day } = parts;
  if (year < 1300 || year > currentJalaliYear(now)) return false;
  if (month < 1 || month > 12) return false;
  return day >= 1 && day <= jalaliMonthLength(year, month);
}

const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Comma-separated e-mail addresses (the Persian comma counts); no empty items. */
export function isValidEmailList(s: string): boolean {
  const items = String(s)
    .split(/[,،]/)
    .map((item) => item.trim());
  return items.length > 0 && items.every((item) => item.length > 0 && item.length <= 254 && EMAIL.test(item));
}

export function isInteger(s: string | number): boolean {
  if (typeof s === 'number') return Number.isInteger(s);
  return /^-?\d+$/.test(toEnglishDigits(String(s).trim()));
}

export function isInRange(
  n: number | string,
  min: number,
  max: number,
  options: { inclusive?: boolean } = {},
): boolean {
  const value = typeof n === 'number' ? n : Number(toEnglishDigits(String(n).trim()));
  if (!Number.isFinite(value)) return false;
  return options.inclusive === false ? value > min && value < max : value >= min && value <= max;
}
