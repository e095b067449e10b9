/**
 * A receipt's verification code (decision 027): 16 characters of Crockford's base32 (80 random bits), shown in four
 * groups of four (`7K3M-Q9TX-…`). What a reader types back is normalised the same way on both sides: spaces,
 * dashes and case do not matter, Persian and Arabic-Indic digits are digits, and the letters Crockford leaves out
 * read as the digits they look like (O → 0, I and L → 1).
 */
import { toEnglishDigits } from './digits';

/** Crockford's base32: no I, L, O or U. */
export const RECEIPT_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const RECEIPT_CODE_LENGTH = 16;
/** 16 characters × 5 bits. */
export const RECEIPT_CODE_BYTES = 10;

/** The code of 10 random bytes (the caller draws them: this file does no I/O). */
export function encodeReceiptCode(bytes: Uint8Array): string {
  if (bytes.length !== RECEIPT_CODE_BYTES) throw new Error(`a receipt code takes ${RECEIPT_CODE_BYTES} bytes`);
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += RECEIPT_CODE_ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

/** What was typed, in the stored form; null when it cannot be a code (wrong length or a letter outside the alphabet). */
export function normalizeReceiptCode(typed: string): string | null {
  const text = toEnglishDigits(typed)
    .toUpperCase()
    .replace(/[\s\-\u2010-\u2015\u200c\u200f\u200e_.]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (text.length !== RECEIPT_CODE_LENGTH) return null;
  for (const c of text) if (!RECEIPT_CODE_ALPHABET.includes(c)) return null;
  return text;
}

/** The code in groups of four, as printed: `7K3M-Q9TX-2B4N-8WZC`. */
export function formatReceiptCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}
