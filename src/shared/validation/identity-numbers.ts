/**
 * The two numbers a person signs in with, apart from the other field rules (index.ts) so the sign-in form loads
 * without the calendar the date rules need. Both accept Persian and Arabic-Indic digits as well as ASCII.
 */
import { toEnglishDigits } from '../digits';
import { canonicalMobile } from '../mobile';

/** An Iranian mobile number in any spelling canonicalMobile accepts (spaces, dashes, +98, 0098, any digits). */
export function isValidMobile(s: string): boolean {
  return canonicalMobile(s) !== null;
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
