/**
 * The foreign references a desk may declare (its catalogue file's `foreignReference.format`): the number the
 * merchant abroad gave for a payment (a SEVIS I-901 receipt number, …), as staff type it at fulfilment and as a
 * reader types it on the verify page; and the identifiers a customer types in a desk's form (`passportNumber`,
 * `latinName`, `etsOrderNumber`). One rule for the staff dialog, the server and the catalogue's forms (the shared ajv
 * formats), with its Persian message; Persian digits and spaces are accepted where digits are, and what is stored and
 * compared is the canonical form.
 */
import { canonicalTrackingCode } from '../tracking-code';
import { toEnglishDigits } from '../digits';

/** SEVIS I-901 receipt number: the letter N and ten digits (N0012345678); Persian digits and spaces are accepted. */
const SEVIS_ID = /^N\d{10}$/;
/** An Iranian passport's number: one Latin letter and eight digits (K12345678). */
const PASSPORT_NUMBER = /^[A-Z]\d{8}$/;
/** An ETS order number (TOEFL, GRE) as ETS's receipt prints it: eight to sixteen digits. */
const ETS_ORDER_NUMBER = /^\d{8,16}$/;
/** A name as in the passport, in Latin letters: words of letters, with spaces, dots, apostrophes and hyphens. */
const LATIN_NAME = /^[A-Za-z][A-Za-z .'-]*$/;

/** Typed text in the form a code is compared in: NFKC, Latin digits, no spaces or dashes, upper case. */
const compactCode = (typed: string) =>
  toEnglishDigits(typed.normalize('NFKC'))
    .replace(/[\s\u200b-\u200f\u2060\ufeff\-\u2010-\u2015\u2212]/g, '')
    .toUpperCase();

/** A name in the form it is printed: NFKC, invisible marks gone, runs of spaces one space, trimmed. */
const tidyName = (typed: string) =>
  typed
    .normalize('NFKC')
    .replace(/[\u200b-\u200f\u2060\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

export const FOREIGN_REFERENCE_FORMATS = {
  sevisId: {
    canonical: compactCode,
    test: (canonical: string) => SEVIS_ID.test(canonical),
    message: 'reference.format.sevisId',
  },
  passportNumber: {
    canonical: compactCode,
    test: (canonical: string) => PASSPORT_NUMBER.test(canonical),
    message: 'reference.format.passportNumber',
  },
  etsOrderNumber: {
    canonical: compactCode,
    test: (canonical: string) => ETS_ORDER_NUMBER.test(canonical),
    message: 'reference.format.etsOrderNumber',
  },
  latinName: {
    canonical: tidyName,
    test: (canonical: string) => LATIN_NAME.test(canonical),
    message: 'reference.format.latinName',
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

/** Whether `name` is one of the typed identifier formats. */
export const isForeignReferenceFormat = (name: unknown): name is ForeignReferenceFormat =>
  typeof name === 'string' && Object.hasOwn(FOREIGN_REFERENCE_FORMATS, name);

/**
 * The fields as the server keeps them: each top-level field whose schema declares a typed identifier format holds
 * that format's canonical form (`k ۱۲۳۴۵۶۷۸` → K12345678) when it is well-formed; anything else is left for the
 * validator to refuse.
 */
export function canonicalIdentifierFields(
  properties: Record<string, unknown> | undefined,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...fields };
  for (const [name, property] of Object.entries(properties ?? {})) {
    const format = (property as { format?: unknown } | null)?.format;
    const typed = out[name];
    if (!isForeignReferenceFormat(format) || typeof typed !== 'string') continue;
    const canonical = canonicalForeignReference(format, typed);
    if (canonical !== null) out[name] = canonical;
  }
  return out;
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
