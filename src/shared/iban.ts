/**
 * Iranian IBAN (شماره شبا): `IR` followed by 24 digits, two of them the ISO 7064 mod-97-10 check digits; the three
 * digits after the check digits name the bank. Customers type it with spaces, dashes, Persian or Arabic-Indic
 * digits and a lower-case `ir`; `parseIban` accepts all of that and returns the canonical form (`IR` + 24 ASCII
 * digits) with the bank, or the Persian reason it is not an IBAN. Pure: the web validates as one types, the
 * server refuses with the same message.
 */
import { toEnglishDigits } from './digits';

/** Iranian banks by the three-digit code an IBAN carries after its check digits. */
export const IRANIAN_BANKS: Readonly<Record<string, string>> = {
  '010': 'بانک مرکزی',
  '011': 'بانک صنعت و معدن',
  '012': 'بانک ملت',
  '013': 'بانک رفاه کارگران',
  '014': 'بانک مسکن',
  '015': 'بانک سپه',
  '016': 'بانک کشاورزی',
  '017': 'بانک ملی ایران',
  '018': 'بانک تجارت',
  '019': 'بانک صادرات ایران',
  '020': 'بانک توسعه صادرات',
  '021': 'پست بانک',
  '022': 'بانک توسعه تعاون',
  '051': 'موسسه اعتباری توسعه',
  '053': 'بانک کارآفرین',
  '054': 'بانک پارسیان',
  '055': 'بانک اقتصاد نوین',
  '056': 'بانک سامان',
  '057': 'بانک پاسارگاد',
  '058': 'بانک سرمایه',
  '059': 'بانک سینا',
  '060': 'بانک قرض‌الحسنه مهر ایران',
  '061': 'بانک شهر',
  '062': 'بانک آینده',
  '063': 'بانک انصار',
  '064': 'بانک گردشگری',
  '065': 'بانک حکمت ایرانیان',
  '066': 'بانک دی',
  '069': 'بانک ایران زمین',
  '070': 'بانک قرض‌الحسنه رسالت',
  '073': 'موسسه اعتباری کوثر',
  '075': 'موسسه اعتباری ملل',
  '078': 'بانک خاورمیانه',
  '079': 'بانک مهر اقتصاد',
  '080': 'موسسه اعتباری نور',
};

export type IbanResult =
  { ok: true; iban: string; bankCode: string; bankName: string } | { ok: false; message: string };

export const IBAN_MESSAGES = {
  required: 'شماره شبا را وارد کنید.',
  format: 'شماره شبا باید با IR شروع شود و ۲۴ رقم پس از آن داشته باشد.',
  length: 'شماره شبا باید دقیقاً ۲۴ رقم پس از IR داشته باشد.',
  checksum: 'شماره شبا معتبر نیست؛ رقم‌های آن را دوباره بررسی کنید.',
  unknownBank: 'کد بانک این شماره شبا شناخته نیست.',
} as const;

/** Spaces of every kind, dashes and zero-width marks people paste with an IBAN. */
const SEPARATORS = /[\s\u200B-\u200F\u2066-\u2069\u00A0\-_.]/g;

/** What a customer typed, without separators, with ASCII digits and an upper-case `IR`. */
export function compactIban(input: string): string {
  return toEnglishDigits(input).replace(SEPARATORS, '').toUpperCase();
}

/** ISO 7064 mod 97-10 over an IBAN (country letters as 10–35), computed digit by digit without big numbers. */
export function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

export function parseIban(input: string): IbanResult {
  const compact = compactIban(input);
  if (compact === '') return { ok: false, message: IBAN_MESSAGES.required };
  const body = compact.startsWith('IR') ? compact.slice(2) : compact;
  if (!/^\d+$/.test(body)) return { ok: false, message: IBAN_MESSAGES.format };
  if (body.length !== 24) return { ok: false, message: IBAN_MESSAGES.length };
  const iban = `IR${body}`;
  if (ibanMod97(iban) !== 1) return { ok: false, message: IBAN_MESSAGES.checksum };
  const bankCode = body.slice(2, 5);
  const bankName = IRANIAN_BANKS[bankCode];
  if (!bankName) return { ok: false, message: IBAN_MESSAGES.unknownBank };
  return { ok: true, iban, bankCode, bankName };
}

/** The IBAN in groups of four for reading (`IR87 0570 0281 …`). */
export function formatIban(iban: string): string {
  return compactIban(iban)
    .replace(/(.{4})/g, '$1 ')
    .trim();
}
