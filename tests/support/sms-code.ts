import { toEnglishDigits } from '../../src/shared/digits';

/**
 * Reading the log-in code out of an SMS's text as a person does: the text says it in Persian digits (every number a
 * customer reads is), the log-in form and the API take it in either.
 */
export const isLoginCodeSms = (text: unknown): boolean => /^کد ورود/.test(String(text));

/** The code in a log-in SMS's text, in Latin digits; null for any other SMS. */
export function loginCodeIn(text: unknown): string | null {
  if (!isLoginCodeSms(text)) return null;
  const code = /([0-9۰-۹]{5})/.exec(String(text))?.[1];
  return code ? toEnglishDigits(code) : null;
}
