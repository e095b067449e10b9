/** Digit normalisation: customers type Persian (۰–۹) or Arabic-Indic (٠–٩) digits as often as ASCII. */
const PERSIAN_ZERO = 0x06f0;
const ARABIC_ZERO = 0x0660;

export function toEnglishDigits(s: string): string {
  return s.replace(/[\u06F0-\u06F9\u0660-\u0669]/g, (d) => {
    const code = d.charCodeAt(0);
    return String(code - (code >= PERSIAN_ZERO ? PERSIAN_ZERO : ARABIC_ZERO));
  });
}

export function toPersianDigits(s: string | number | bigint): string {
  return String(s).replace(/\d/g, (d) => String.fromCharCode(PERSIAN_ZERO + Number(d)));
}

/**
 * Whether what a person typed is written in Persian (or Arabic-Indic) digits: true unless it has Latin digits and
 * none of those. A field that rewrites its text (grouping an amount, completing a date) keeps the digits the person
 * typed in; a value shown that nobody typed (stored, or an empty field's first text) is Persian.
 */
export function writtenInPersian(typed: string): boolean {
  return !/[0-9]/.test(typed) || /[\u06F0-\u06F9\u0660-\u0669]/.test(typed);
}

/** Latin-digit text in the digits of what was typed (see writtenInPersian). */
export function digitsAsTyped(latin: string, typed: string): string {
  return writtenInPersian(typed) ? toPersianDigits(latin) : latin;
}
