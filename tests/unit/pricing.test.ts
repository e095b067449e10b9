import { describe, expect, it } from 'vitest';
import { payablePrice, priceOf, toMinorUnits } from '../../src/shared/pricing';

const params = { feePercent: 3, fixedFee: 500_000, taxPercentOnFee: 10, operationCost: 200_000 };

describe('priceOf', () => {
  it('prices 100 USD at 1,035,000 rial', () => {
    expect(priceOf(10_000, 1_035_000, params)).toEqual({
      amountMinor: 10_000,
      rate: 1_035_000,
      grossPrice: 103_500_000,
      fee: 3_105_000 + 500_000,
      tax: 360_500,
      operationCost: 200_000,
      totalCosts: 3_605_000 + 360_500 + 200_000,
      expectedPrice: 103_500_000 + 4_165_500,
    });
  });

  it('rounds the foreign amount to cents once and keeps rial integral', () => {
    expect(toMinorUnits(12.345)).toBe(1235);
    expect(toMinorUnits(0.1 + 0.2)).toBe(30);
    const p = priceOf(1235, 1_128_001, { ...params, feePercent: 2.5 });
    for (const v of Object.values(p)) expect(Number.isInteger(v)).toBe(true);
    expect(p.grossPrice).toBe(Math.round((1235 * 1_128_001) / 100));
  });

  it('refuses non-positive or fractional inputs', () => {
    expect(() => priceOf(0, 1, params)).toThrow(RangeError);
    expect(() => priceOf(10, 0, params)).toThrow(RangeError);
    expect(() => priceOf(1.5, 10, params)).toThrow(RangeError);
  });
});

describe('payablePrice', () => {
  it('subtracts the wallet and floors at zero', () => {
    expect(payablePrice(1000, 300)).toBe(700);
    expect(payablePrice(1000, 5000)).toBe(0);
    expect(payablePrice(1000, 0)).toBe(1000);
  });
});
