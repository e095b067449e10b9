/** Quote tokens (decision 016): the terms come back exactly, any change or other context verifies as nothing. */
import { describe, expect, it } from 'vitest';
import { QuoteSigner, type QuoteTerms } from '../../src/server/modules/requests/quote-token';

const signer = new QuoteSigner('test-secret');
const terms: QuoteTerms = {
  currencyId: 3,
  paymentMethodGroupId: 2,
  amountMinor: 25_000,
  rate: 1_050_000,
  fee: 7_875_000,
  tax: 787_500,
  operationCost: 500_000,
  expiresAt: Date.UTC(2026, 10, 23, 12, 0, 0, 123),
};

describe('quote tokens', () => {
  it('carry their terms for the customer and desk they were signed for', () => {
    const token = signer.sign(terms, 7, 'uafCpr');
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(signer.verify(token, 7, 'uafCpr')).toEqual(terms);
    expect(signer.sign(terms, 7, 'uafCpr')).not.toBe(token);
  });

  it('are each different for the same terms, across refills of the nonce pool', () => {
    const tokens = new Set(Array.from({ length: 3000 }, () => signer.sign(terms, 7, 'uafCpr')));
    expect(tokens.size).toBe(3000);
    for (const token of [...tokens].slice(-600)) expect(signer.verify(token, 7, 'uafCpr')).toEqual(terms);
  });

  it('verify as nothing for another customer, desk or key, or with any character changed', () => {
    const token = signer.sign(terms, 7, 'uafCpr');
    expect(signer.verify(token, 8, 'uafCpr')).toBeNull();
    expect(signer.verify(token, 7, 'foriWire')).toBeNull();
    expect(new QuoteSigner('other-secret').verify(token, 7, 'uafCpr')).toBeNull();
    for (let i = 0; i < token.length; i++) {
      const changed = `${token.slice(0, i)}${token[i] === 'A' ? 'B' : 'A'}${token.slice(i + 1)}`;
      expect(signer.verify(changed, 7, 'uafCpr')).toBeNull();
    }
    expect(signer.verify(`${token}A`, 7, 'uafCpr')).toBeNull();
    expect(signer.verify('x', 7, 'uafCpr')).toBeNull();
  });

  it("fit the contract's 100 characters for the largest price that is still a safe integer", () => {
    const huge: QuoteTerms = {
      currencyId: 2_147_483_647,
      paymentMethodGroupId: 2_147_483_647,
      amountMinor: 2 ** 26,
      rate: 2 ** 33,
      fee: 2 ** 53 - 1,
      tax: 2 ** 53 - 1,
      operationCost: 2 ** 53 - 1,
      expiresAt: Date.UTC(2100, 0, 1),
    };
    const token = signer.sign(huge, 2_147_483_647, 'uafCpr');
    expect(token.length).toBeLessThanOrEqual(100);
    expect(signer.verify(token, 2_147_483_647, 'uafCpr')).toEqual(huge);
  });
});
