/**
 * The one form in which a bank's tracking code is compared: a deposit is recorded once whatever way staff type its
 * code. Compatibility forms folded (NFKC: full-width letters and digits), letters lower-cased, Persian and
 * Arabic-Indic digits made Latin, and spaces, invisible joiners and dashes removed: `TRK-12 34`, `trk1234` and
 * `ﾠtrk۱۲۳۴` are one code. Shared by payments (recording a deposit) and the reconciliation (matching a bank
 * statement's line to it).
 *
 * Migration 023 computes the same form in SQL for the codes stored before it (see its header); change both together.
 */
import { toEnglishDigits } from './digits';

/** Whitespace, zero-width characters and every dash (hyphen, non-breaking hyphen, en and em dashes, minus sign). */
const SEPARATORS = /[\s\u200b-\u200f\u2060\ufeff\-\u2010-\u2015\u2212]/g;

export function canonicalTrackingCode(code: string): string {
  return toEnglishDigits(code.normalize('NFKC')).toLowerCase().replace(SEPARATORS, '');
}
