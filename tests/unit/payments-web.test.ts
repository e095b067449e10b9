import { describe, expect, it } from 'vitest';
import type { components } from '../../src/generated/api';
import {
  isPaymentOutcome,
  ONLINE_PAYMENT_STATES,
  PAYMENT_OUTCOMES,
  STATE_CAUSES,
} from '../../src/web/features/requests/payment-outcomes';
import { ApiError } from '../../src/web/lib/api-client';
import { requestPath, retriesSamePayment } from '../../src/web/lib/payments';

const quote = { quoteId: 'q' } as components['schemas']['Quote'];

describe('retriesSamePayment (the Idempotency-Key of one intended payment)', () => {
  it('keeps the key when no answer came, the first try is still at the bank, or the server failed', () => {
    expect(retriesSamePayment(new ApiError('network', 0, null), null)).toBe(true);
    expect(retriesSamePayment(new TypeError('fetch failed'), null)).toBe(true);
    expect(retriesSamePayment(new ApiError('in progress', 409, { result: false }), null)).toBe(true);
    expect(retriesSamePayment(new ApiError('gateway down', 503, { result: false }), null)).toBe(true);
  });

  it('starts a new payment after a final refusal or an expired price', () => {
    expect(retriesSamePayment(new ApiError('already paid', 422, { result: false }), null)).toBe(false);
    expect(retriesSamePayment(new ApiError('not found', 404, { result: false }), null)).toBe(false);
    expect(retriesSamePayment(new ApiError('expired', 409, { data: { quote } }), quote)).toBe(false);
  });
});

describe('payment outcomes', () => {
  it('has a Persian title and text for every outcome the gateway callback sends, and nothing else', () => {
    const outcomes = ['success', 'walletCredited', 'cancelled', 'failed', 'cardMismatch', 'pending'];
    expect(Object.keys(PAYMENT_OUTCOMES).sort()).toEqual([...outcomes].sort());
    for (const outcome of outcomes) {
      expect(isPaymentOutcome(outcome)).toBe(true);
      expect(PAYMENT_OUTCOMES[outcome as keyof typeof PAYMENT_OUTCOMES].title).toMatch(/[\u0600-\u06ff]/);
    }
    expect(isPaymentOutcome(null)).toBe(false);
    expect(isPaymentOutcome('toString')).toBe(false);
    expect(isPaymentOutcome('paid')).toBe(false);
  });

  it("says a card mismatch's money goes back to that card within three working days (SPEC section 9)", () => {
    expect(PAYMENT_OUTCOMES.cardMismatch.text).toContain('همان کارت');
    expect(PAYMENT_OUTCOMES.cardMismatch.text).toContain('سه روز کاری');
    expect(PAYMENT_OUTCOMES.cancelled.text).toContain('هیچ مبلغی');
  });

  it('names every state of an online payment and the causes of the payment states', () => {
    const states: Array<components['schemas']['OnlinePayment']['state']> = [
      'new',
      'pending',
      'settled',
      'cancelled',
      'failed',
      'cardMismatch',
    ];
    for (const state of states) expect(ONLINE_PAYMENT_STATES[state]?.title).toBeTruthy();
    for (const cause of ['submitted', 'paidFromWallet', 'paidOnline', 'cancelledByCustomer']) {
      expect(STATE_CAUSES[cause]).toBeTruthy();
    }
  });

  it('opens a request with the outcome in the address', () => {
    expect(requestPath(7)).toBe('/request/myRequests?purchase=7');
    expect(requestPath(7, 'success')).toBe('/request/myRequests?purchase=7&payment=success');
  });
});
