import { describe, expect, it } from 'vitest';
import { numberToPersianWords, rialInWords } from '../../src/shared/format/persian-words';

describe('numberToPersianWords', () => {
  it('says zero, units, teens and tens', () => {
    expect(numberToPersianWords(0)).toBe('صفر');
    expect(numberToPersianWords(1)).toBe('یک');
    expect(numberToPersianWords(9)).toBe('نه');
    expect(numberToPersianWords(10)).toBe('ده');
    expect(numberToPersianWords(11)).toBe('یازده');
    expect(numberToPersianWords(15)).toBe('پانزده');
    expect(numberToPersianWords(19)).toBe('نوزده');
    expect(numberToPersianWords(20)).toBe('بیست');
    expect(numberToPersianWords(21)).toBe('بیست و یک');
    expect(numberToPersianWords(99)).toBe('نود و نه');
  });

  it('says hundreds with their own words', () => {
    expect(numberToPersianWords(100)).toBe('صد');
    expect(numberToPersianWords(101)).toBe('صد و یک');
    expect(numberToPersianWords(200)).toBe('دویست');
    expect(numberToPersianWords(300)).toBe('سیصد');
    expect(numberToPersianWords(500)).toBe('پانصد');
    expect(numberToPersianWords(512)).toBe('پانصد و دوازده');
    expect(numberToPersianWords(999)).toBe('نهصد و نود و نه');
  });

  it('joins groups of three digits with their scales and leaves zero groups out', () => {
    expect(numberToPersianWords(1000)).toBe('یک هزار');
    expect(numberToPersianWords(1001)).toBe('یک هزار و یک');
    expect(numberToPersianWords(1500)).toBe('یک هزار و پانصد');
    expect(numberToPersianWords(1_250_000)).toBe('یک میلیون و دویست و پنجاه هزار');
    expect(numberToPersianWords(1_000_001)).toBe('یک میلیون و یک');
    expect(numberToPersianWords(2_000_000_000)).toBe('دو میلیارد');
    expect(numberToPersianWords(124_200_000)).toBe('صد و بیست و چهار میلیون و دویست هزار');
    expect(numberToPersianWords(3_000_000_000_000)).toBe('سه تریلیون');
  });

  it('is exact up to the largest safe integer and beyond with bigint', () => {
    expect(numberToPersianWords(Number.MAX_SAFE_INTEGER)).toBe(
      'نه تریلیارد و هفت تریلیون و صد و نود و نه میلیارد و دویست و پنجاه و چهار میلیون و هفتصد و چهل هزار و نهصد و نود و یک',
    );
    expect(numberToPersianWords(10n ** 18n)).toBe('یک کوادریلیون');
  });

  it('says minus for a negative number and refuses fractions and unsafe numbers', () => {
    expect(numberToPersianWords(-25)).toBe('منفی بیست و پنج');
    expect(() => numberToPersianWords(1.5)).toThrow(RangeError);
    expect(() => numberToPersianWords(Number.NaN)).toThrow(RangeError);
    expect(() => numberToPersianWords(2 ** 60)).toThrow(RangeError);
    expect(() => numberToPersianWords(10n ** 24n)).toThrow(RangeError);
  });

  it('writes a rial amount with its unit', () => {
    expect(rialInWords(1500)).toBe('یک هزار و پانصد ریال');
    expect(rialInWords(0)).toBe('صفر ریال');
  });
});
