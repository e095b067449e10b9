import { describe, expect, it } from 'vitest';
import { canonicalMobile } from '../../src/shared/mobile';

const CANONICAL = '09121234567';

describe('canonicalMobile', () => {
  it.each([
    ['09121234567'],
    [' 09121234567'],
    ['09121234567 \n'],
    ['0912 123 4567'],
    ['0912-123-4567'],
    ['(0912) 123-4567'],
    ['0912\u00A0123\u00A04567'], // no-break spaces
    ['0912\u200C123\u200C4567'], // zero-width non-joiner
    ['\u200F0912\u2009123\u20094567\u200E'], // bidi marks and thin spaces
    ['0912\u2013123\u20144567'], // en and em dashes
    ['0912\u2212123\u22124567'], // minus signs
    ['\uFF080912\uFF09 1234567'], // full-width parentheses
    ['+989121234567'],
    ['+98 912 123 4567'],
    ['00989121234567'],
    ['0098 (912) 123-4567'],
    ['989121234567'],
    ['9121234567'],
    ['۰۹۱۲۱۲۳۴۵۶۷'], // Persian digits
    ['٠٩١٢١٢٣٤٥٦٧'], // Arabic-Indic digits
    ['+۹۸ ۹۱۲ ۱۲۳ ۴۵۶۷'],
    ['۰۰۹۸۹۱۲۱۲۳۴۵۶۷'],
    ['۰۹12-1۲۳-4567'], // mixed scripts
  ])('maps %j to 09121234567', (input) => {
    expect(canonicalMobile(input)).toBe(CANONICAL);
  });

  it.each([
    [''],
    ['   '],
    ['0912123456'], // ten digits with the 0
    ['091212345678'], // twelve
    ['08121234567'], // a landline prefix
    ['912123456'], // nine digits
    ['+9809121234567'], // country code and the trunk 0 both
    ['+99121234567'],
    ['98 09121234567'],
    ['0912123456x'],
    ['0912.123.4567'], // dots are not among the separators
    ['+ 98 9121234567+'],
    ['0912_123_4567'],
    ['1'.repeat(100)],
  ])('refuses %j', (input) => {
    expect(canonicalMobile(input)).toBeNull();
  });

  it('refuses what is not a string and very long text', () => {
    expect(canonicalMobile(null)).toBeNull();
    expect(canonicalMobile(9121234567)).toBeNull();
    expect(canonicalMobile(`${' '.repeat(60)}09121234567`)).toBeNull();
  });

  it('is idempotent', () => {
    expect(canonicalMobile(canonicalMobile('+98 912 123 4567')!)).toBe(CANONICAL);
  });
});
