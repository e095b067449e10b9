/**
 * One spelling per Iranian mobile number, so a number typed with spaces, dashes, Persian digits or a
 * country code is the same account, the same rate-limit key and the same row as `09xxxxxxxxx`.
 * The server canonicalises before every limit, lookup and insert; the forms validate with the same rule.
 */
import { toEnglishDigits } from './digits';

/** Longer input is refused before any regular expression runs over it. */
const MAX_INPUT_LENGTH = 64;

/**
 * What people put between digits: any Unicode space (NBSP, thin and ideographic spaces), format characters
 * (ZWNJ, ZWJ, LRM/RLM and other bidi marks that copying from RTL text brings along), dashes of every kind
 * (and the minus sign), and parentheses (ASCII and full-width).
 */
const SEPARATORS = /[\s\p{Zs}\p{Cf}\p{Pd}\u2212()\uFF08\uFF09]/gu;

/** +98, 0098, 98 or 0 before 9 and nine digits; nothing before a bare 9xxxxxxxxx. */
const SHAPE = /^(?:\+98|0098|98|0)?(9\d{9})$/;

/** `09` and nine ASCII digits, or null when the text is not an Iranian mobile number in any spelling. */
export function canonicalMobile(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > MAX_INPUT_LENGTH) return null;
  const compact = toEnglishDigits(input).replace(SEPARATORS, '');
  const match = SHAPE.exec(compact);
  return match ? `0${match[1]}` : null;
}
