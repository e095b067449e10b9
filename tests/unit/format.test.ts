import { describe, expect, it } from 'vitest';
import { toEnglishDigits, toPersianDigits } from '../../src/shared/digits';
import { formatNumber, formatPhone, formatRial, toPersianDigits as reexported } from '../../src/shared/format';

describe('formatNumber', () => {
  it('uses en-US thousands separators', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1000)).toBe('1,000');
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber('1234567')).toBe('1,234,567');
    expect(formatNumber(12345678901234567890n)).toBe('12,345,678,901,234,567,890');
  });

  it('takes strings in any digit script, with or without separators', () => {
    expect(formatNumber('۱۲۳۴۵۶۷')).toBe('1,234,567');
    expect(formatNumber('١٢٣٤٥٦٧')).toBe('1,234,567');
    expect(formatNumber('1,234,567')).toBe('1,234,567');
    expect(formatNumber(' ۱۲۳۴٫۵ ')).toBe('1,234.5');
  });

  it('keeps the minus sign and at most two decimals', () => {
    expect(formatNumber(-1500.5)).toBe('-1,500.5');
    expect(formatNumber('-1500')).toBe('-1,500');
    expect(formatNumber(1234.567)).toBe('1,234.57');
    expect(formatNumber('1234.5')).toBe('1,234.5');
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber('-0.001')).toBe('0');
  });

  it('formats long numeric strings exactly', () => {
    expect(formatNumber('98765432109876543210')).toBe('98,765,432,109,876,543,210');
    expect(formatNumber('-12345678901234567890.125')).toBe('-12,345,678,901,234,567,890.13');
  });

  it('returns an empty string for what is not a number', () => {
    expect(formatNumber('abc')).toBe('');
    expect(formatNumber('')).toBe('');
    expect(formatNumber('1-2')).toBe('');
    expect(formatNumber(Number.NaN)).toBe('');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('');
  });
});

describe('formatRial', () => {
  it('adds the unit', () => {
    expect(formatRial(1035000)).toBe('1,035,000 ریال');
    expect(formatRial('۵۰۰۰')).toBe('5,000 ریال');
    expect(formatRial(0n)).toBe('0 ریال');
    expect(formatRial('abc')).toBe('');
  });
});

describe('formatPhone', () => {
  it('groups phone numbers as the rest, three, and the last four', () => {
    expect(formatPhone('09123456789')).toBe('0912 345 6789');
    expect(formatPhone('۰۹۱۲۳۴۵۶۷۸۹')).toBe('0912 345 6789');
    expect(formatPhone('0912 345 6789')).toBe('0912 345 6789');
    expect(formatPhone('02188776655')).toBe('0218 877 6655');
    expect(formatPhone('+989123456789')).toBe('+98912 345 6789');
  });

  it('degrades gracefully for short input', () => {
    expect(formatPhone('12345678')).toBe('1 234 5678');
    expect(formatPhone('1234567')).toBe('123 4567');
    expect(formatPhone('12345')).toBe('1 2345');
    expect(formatPhone('1234')).toBe('1234');
    expect(formatPhone('123')).toBe('123');
    expect(formatPhone('')).toBe('');
  });
});

describe('digits', () => {
  it('converts Persian and Arabic-Indic digits to ASCII and leaves the rest', () => {
    expect(toEnglishDigits('۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789');
    expect(toEnglishDigits('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789');
    expect(toEnglishDigits('کد ۱۲۳-abc-٤٥٦')).toBe('کد 123-abc-456');
  });

  it('converts ASCII digits to Persian ones', () => {
    expect(toPersianDigits('1405/09/01')).toBe('۱۴۰۵/۰۹/۰۱');
    expect(toPersianDigits(42)).toBe('۴۲');
    expect(toPersianDigits(-1.5)).toBe('-۱.۵');
    expect(toPersianDigits(12345678901234567890n)).toBe('۱۲۳۴۵۶۷۸۹۰۱۲۳۴۵۶۷۸۹۰');
    expect(toPersianDigits(formatNumber(1234567))).toBe('۱,۲۳۴,۵۶۷');
    expect(reexported).toBe(toPersianDigits);
  });
});
