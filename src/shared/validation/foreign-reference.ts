/**
 * The foreign references a desk may declare (its catalogue file's `foreignReference.format`): the number the
 * merchant abroad gave for a payment (a SEVIS I-901 receipt number, …), as staff type it at fulfilment and as a
 * reader types it on the verify page. One rule for the staff dialog, the server and the catalogue's forms (the
 * shared ajv formats), with its Persian message; what is stored and compared is the canonical form.
 */
import { canonicalTrackingCode } from '../tracking-code';
import { toEnglishDigits } from '../digits';

/** SEVIS I-901 receipt number: the letter N and ten digits (N0012345678); Persian digits and spaces are accepted. */
const SEVIS_ID = /^N\d{10}$/;

export const FOREIGN_REFERENCE_FORMATS = {
  sevisId: {
    canonical: (typed: string) =>
      toEnglishDigits(typed.normalize('NFKC'))
        .replace(/[\s\u200b-\u200f\u2060\ufeff\-\u2010-\u2015\u2212]/g, '')
        .toUpperCase(),
    test: (canonical: string) => SEVIS_ID.test(canonical),
    message: 'reference.format.sevisId',
  },
} as const;

export type ForeignReferenceFormat = keyof typeof FOREIGN_REFERENCE_FORMATS;
export const foreignReferenceFormats = Object.keys(FOREIGN_REFERENCE_FORMATS) as ForeignReferenceFormat[];

/** Whether `typed` is a well-formed reference of `format`. */
export function isForeignReference(format: ForeignReferenceFormat, typed: string): boolean {
  const rule = FOREIGN_REFERENCE_FORMATS[format];
  return rule.test(rule.canonical(String(typed)));
}

/**
 * The reference as stored: its format's canonical form (N0012345678), or for a desk without a format the text
 * trimmed. Null when it breaks its format.
 */
export function canonicalForeignReference(format: ForeignReferenceFormat | undefined, typed: string): string | null {
  if (!format) return typed.trim();
  const rule = FOREIGN_REFERENCE_FORMATS[format];
  const canonical = rule.canonical(typed);
  return rule.test(canonical) ? canonical : null;
}

/** The key in schemas/messages/fa.json of the Persian message a malformed reference of `format` gets. */
export const foreignReferenceMessage = (format: ForeignReferenceFormat): string =>
  FOREIGN_REFERENCE_FORMATS[format].message;

/**
 * Whether a reference a reader typed is the one stored: both in the tracking codes' compared form (NFKC, case,
 * Persian digits, spaces and dashes), so `n 001-234 ۵۶۷۸` matches N0012345678.
 */
export const sameForeignReference = (typed: string, stored: string): boolean =>
  canonicalTrackingCode(typed) !== '' && canonicalTrackingCode(typed) === canonicalTrackingCode(stored);
