import { describe, expect, it } from 'vitest';
import {
  finalTone,
  TRACE_PALETTE,
  toneTransactions,
  traceColor,
  transactionAmount,
} from '../../src/shared/transaction-tones';

describe('traceColor', () => {
  it('gives every trace code one of the 13 palette colours, the same each time', () => {
    expect(new Set(TRACE_PALETTE).size).toBe(13);
    for (const code of ['T-1', 'T-2', 'abc', '', 'ت-۱۲']) {
      expect(TRACE_PALETTE).toContain(traceColor(code));
      expect(traceColor(code)).toBe(traceColor(code));
    }
  });

  it('spreads trace codes over the whole palette', () => {
    const used = new Set(Array.from({ length: 500 }, (_, i) => traceColor(`TR${i}`)));
    expect(used.size).toBe(13);
  });
});

describe('finalTone', () => {
  it('is failed for a failed or invalidated request, a cause, or money sent back to a stranger card', () => {
    expect(finalTone({ traceCode: 't', type: 'transaction_E', stateIdentifier: 'purchaseFailed' })).toBe('failed');
    expect(finalTone({ traceCode: 't', type: 'transaction_E', stateIdentifier: 'purchaseInvalidated' })).toBe('failed');
    expect(finalTone({ traceCode: 't', type: 'transaction_J', cause: 'profileL1Rejected' })).toBe('failed');
    expect(finalTone({ traceCode: 't', type: 'transaction_H', cause: 'cardMismatch', refundedToUnsafe: true })).toBe(
      'failed',
    );
    expect(finalTone({ traceCode: 't', type: 'transaction_H', refundedToUnsafe: true })).toBe('failed');
  });

  it('is succeeded for a succeeded request, a reservation or a collection that nothing followed', () => {
    expect(finalTone({ traceCode: 't', type: 'transaction_F', stateIdentifier: 'purchaseSucceeded' })).toBe(
      'succeeded',
    );
    expect(finalTone({ traceCode: 't', type: 'transaction_C' })).toBe('succeeded');
    expect(finalTone({ traceCode: 't', type: 'transaction_A' })).toBe('succeeded');
    expect(finalTone({ traceCode: 't', type: 'transaction_B' })).toBe('succeeded');
  });

  it('is neutral for a release, a withdrawal or a correction without a state', () => {
    for (const type of ['transaction_E', 'transaction_I', 'transaction_K', 'transaction_L', 'transaction_G']) {
      expect(finalTone({ traceCode: 't', type, stateIdentifier: null, cause: null })).toBeNull();
    }
  });
});

describe('toneTransactions', () => {
  it('marks the first transaction of each trace code, reading newest first, final and the rest volatile', () => {
    const rows = toneTransactions([
      { traceCode: 'B', type: 'transaction_C' },
      { traceCode: 'A', type: 'transaction_H', cause: 'cardMismatch', refundedToUnsafe: true },
      { traceCode: 'B', type: 'transaction_A' },
      { traceCode: 'C', type: 'transaction_A' },
      { traceCode: 'A', type: 'transaction_A' },
    ]);
    expect(rows.map((r) => [r.traceCode, r.isFinal, r.tone])).toEqual([
      ['B', true, 'succeeded'],
      ['A', true, 'failed'],
      ['B', false, 'volatile'],
      ['C', true, 'succeeded'],
      ['A', false, 'volatile'],
    ]);
    expect(rows[0]!.traceColor).toBe(rows[2]!.traceColor);
    expect(rows[1]!.traceColor).toBe(traceColor('A'));
  });

  it('treats trace codes seen on a newer page as already final there', () => {
    const rows = toneTransactions([{ traceCode: 'B', type: 'transaction_A' }], ['B']);
    expect(rows[0]!.isFinal).toBe(false);
    expect(rows[0]!.tone).toBe('volatile');
  });

  it('keeps the transaction fields and gives an empty list back empty', () => {
    expect(toneTransactions([])).toEqual([]);
    const [row] = toneTransactions([{ traceCode: 'Z', type: 'transaction_I', walletAccountEffect: -5 }]);
    expect(row).toMatchObject({ traceCode: 'Z', walletAccountEffect: -5, isFinal: true, tone: null });
  });
});

describe('transactionAmount', () => {
  it('is the amount the transaction is about', () => {
    expect(transactionAmount({ collectionAmount: 500 })).toBe(500);
    expect(transactionAmount({ refundedAmount: 300 })).toBe(300);
    expect(transactionAmount({ expectedPrice: 900 })).toBe(900);
    expect(transactionAmount({ expendedAmount: 800 })).toBe(800);
    expect(transactionAmount({ walletWithdrawAmount: 70 })).toBe(70);
    expect(transactionAmount({ adjustmentAmount: 5 })).toBe(5);
  });

  it('is the refund, not the fee kept, after a user error; fee, tax and operation cost together when recognised', () => {
    expect(transactionAmount({ refundedAmount: 1000, fee: 20, tax: 2 })).toBe(1000);
    expect(transactionAmount({ fee: 20, tax: 2, operationCost: 8 })).toBe(30);
    expect(transactionAmount({ fee: 0 })).toBe(0);
  });

  it('is null when the transaction carries no amount', () => {
    expect(transactionAmount({})).toBeNull();
  });
});
