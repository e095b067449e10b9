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
