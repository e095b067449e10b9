/** The receipt verification code (src/shared/receipt-code.ts): 80 bits in Crockford base32, typed back leniently. */
import { describe, expect, it } from 'vitest';
import {
  RECEIPT_CODE_ALPHABET,
  encodeReceiptCode,
  formatReceiptCode,
  normalizeReceiptCode,
} from '../../src/shared/receipt-code';

describe('receipt codes', () => {
  it('encodes 10 bytes as 16 characters of the alphabet, every bit counted', () => {
    expect(encodeReceiptCode(new Uint8Array(10))).toBe('0000000000000000');
    expect(encodeReceiptCode(new Uint8Array(10).fill(255))).toBe('ZZZZZZZZZZZZZZZZ');
    expect(encodeReceiptCode(Uint8Array.from([0x08, 0x86, 0x42, 0x98, 0xe8, 0x4a, 0x96, 0xc6, 0xb9, 0xf0]))).toBe(
      '123456789ABCDEFG',
    );
    expect(() => encodeReceiptCode(new Uint8Array(9))).toThrow();
    expect(RECEIPT_CODE_ALPHABET).toHaveLength(32);
    expect(RECEIPT_CODE_ALPHABET).not.toMatch(/[ILOU]/);
  });

  it('prints in groups of four and reads back what a person types', () => {
    expect(formatReceiptCode('7K3MQ9TX2B4N8WZC')).toBe('7K3M-Q9TX-2B4N-8WZC');
    for (const typed of [
      '7K3M-Q9TX-2B4N-8WZC',
      '7k3m q9tx 2b4n 8wzc',
      ' 7K3MQ9TX2B4N8WZC ',
      '۷K۳M-Q۹TX-۲B۴N-۸WZC',
      '٧K٣M-Q٩TX-٢B٤N-٨WZC',
    ]) {
      expect(normalizeReceiptCode(typed)).toBe('7K3MQ9TX2B4N8WZC');
    }
    // Look-alike letters read as the digits they resemble.
    expect(normalizeReceiptCode('OOII-LLoo-il00-1111')).toBe('0011110011001111');
    // Too short, too long, or a letter outside the alphabet (U): not a code.
    expect(normalizeReceiptCode('7K3M-Q9TX-2B4N-8WZ')).toBeNull();
    expect(normalizeReceiptCode('7K3M-Q9TX-2B4N-8WZCC')).toBeNull();
    expect(normalizeReceiptCode('7K3M-Q9TX-2B4N-8WZU')).toBeNull();
    expect(normalizeReceiptCode('')).toBeNull();
  });
});
