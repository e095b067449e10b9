/**
 * Iranian bank card numbers (شماره کارت): 16 digits, the last a Luhn check digit, the first six (the BIN) naming
 * the bank (card-banks.json). Customers type them with Persian or Arabic-Indic digits, spaces and dashes;
 * `parseCardNumber` accepts all of that and returns the canonical 16 ASCII digits with the bank, or the Persian
 * reason it is not a card number. Pure: the web checks as one types, the server refuses with the same message.
 */
import { toEnglishDigits } from '../digits';
import table from './card-banks.json' with { type: 'json' };

export const CARD_BANKS: Readonly<Record<string, string>> = table.banks;

export const CARD_MESSAGES = {
  required: 'شماره کارت را وارد کنید.',
  digits: 'شماره کارت فقط رقم دارد.',
  length: 'شماره کارت باید ۱۶ رقم باشد.',
  checksum: 'شماره کارت درست نیست؛ رقم‌های آن را دوباره بررسی کنید.',
  unknownBank: 'این کارت از بانک‌های عضو شتاب نیست؛ شش رقم اول آن را بررسی کنید.',
} as const;

export type CardNumberResult =
  { ok: true; cardNumber: string; bin: string; bankName: string } | { ok: false; message: string };

/** Spaces of every kind, dashes, dots and the direction and zero-width marks pasted with a card number. */
const SEPARATORS = /[\s\u00A0\u200B-\u200F\u2066-\u2069\u2010-\u2015\-_.]/g;

/** What a customer typed, without separators and with ASCII digits. */
export function compactCardNumber(input: string): string {
  return toEnglishDigits(input).replace(SEPARATORS, '');
}

/** The Luhn (mod 10) check over a string of ASCII digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The bank that issues cards starting with these digits (the first six are read), or null. */
export function cardBankOf(digits: string): string | null {
  const bin = compactCardNumber(digits).slice(0, 6);
  return bin.length === 6 ? (CARD_BANKS[bin] ?? null) : null;
}

export function parseCardNumber(input: string): CardNumberResult {
  const compact = compactCardNumber(input);
  if (compact === '') return { ok: false, message: CARD_MESSAGES.required };
  if (!/^\d+$/.test(compact)) return { ok: false, message: CARD_MESSAGES.digits };
  if (compact.length !== 16) return { ok: false, message: CARD_MESSAGES.length };
  if (!luhnValid(compact)) return { ok: false, message: CARD_MESSAGES.checksum };
  const bin = compact.slice(0, 6);
  const bankName = CARD_BANKS[bin];
  if (!bankName) return { ok: false, message: CARD_MESSAGES.unknownBank };
  return { ok: true, cardNumber: compact, bin, bankName };
}

/** The card as banks and ZarinPal's verify report it: first six digits, six stars, last four. */
export function maskCardNumber(cardNumber: string): string {
  const compact = compactCardNumber(cardNumber);
  return `${compact.slice(0, 6)}******${compact.slice(-4)}`;
}

/** The 16 digits in groups of four for reading (`6037 9912 3456 7893`); a masked card the same way. */
export function groupCardNumber(cardNumber: string): string {
  return cardNumber.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * Whether two masked cards (or a masked card and a full number) name the same first six and last four digits.
 * Masks differ between gateways (`603799******1234`, `6037-99**-****-1234`), so only the digits at both ends count.
 */
export function sameMaskedCard(a: string, b: string): boolean {
  const ends = (s: string) => {
    const compact = compactCardNumber(s);
    return compact.length >= 10 ? `${compact.slice(0, 6)}:${compact.slice(-4)}` : null;
  };
  const left = ends(a);
  return left !== null && left === ends(b);
}
