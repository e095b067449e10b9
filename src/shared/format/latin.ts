/**
 * The one list of what keeps Latin digits on a Persian screen. Everything a person reads is written in Persian
 * digits (formatNumber, formatRial, formatPhone, displayDate); these are the exceptions:
 *
 * - what a person types: input, textarea and select elements (they accept Persian, Arabic-Indic and Latin
 *   digits, and show them as typed);
 * - elements marked with the attribute below, for text that is Latin by nature and is read or copied character by
 *   character: IBANs (sheba), card and account numbers, bank and gateway references and tracking codes, e-mail
 *   addresses, URLs and user names, a customer's typed values shown back verbatim (a request's fields), and the
  official Latin names of forms and visas inside Persian text (F-1, I-901; web's `WithLatinNames`).
 * - the change-password dialog, English as SPEC section 2 gives it.
 *
 * Mark such text with the web's `<Latin>` component (src/web/components/Latin.tsx) or the attribute itself; the
 * e2e digit walk (tests/e2e/persian-digits.test.ts) skips exactly LATIN_EXEMPT and fails on any other Latin digit.
 */
export const LATIN_ATTRIBUTE = 'data-latin';

/** The CSS selector of elements (and their descendants) whose text may keep Latin digits. */
export const LATIN_EXEMPT = `input, textarea, select, script, style, noscript, [${LATIN_ATTRIBUTE}]`;
