/**
 * The ledger's transaction types by name (docs/money.md): each type has one English name and the generated `Tx` maps it
 * (and each alias) to SPEC's stored code, covering every type once.
 */
import { describe, expect, it } from 'vitest';
import { transactionTypes, Tx } from '../../src/server/modules/ledger/types';

describe('Tx, the transaction types by name', () => {
  it('names every type, each name once, and maps it to the stored code', () => {
    const names = transactionTypes.map((t) => t.name);
    expect(new Set(names).size).toBe(transactionTypes.length);
    for (const t of transactionTypes) expect(Tx[t.name as keyof typeof Tx]).toBe(t.type);
    expect(new Set(Object.values(Tx))).toEqual(new Set(transactionTypes.map((t) => t.type)));
  });

  it('gives the refused withdrawal a name of its own, stored as the upward correction SPEC provides', () => {
    expect(Tx.returnRefusedWithdrawal).toBe('transaction_K');
    expect(Tx.correctWalletUp).toBe('transaction_K');
    expect(Tx.spendReservation).toBe('transaction_D');
  });
});
