/**
 * Bank accounts and withdrawals as the pages show them: the Persian state of a withdrawal and of an account's
 * ownership with their colours, the IBAN readable left to right, and the rows' derived fields for the tables.
 */
import type { components } from '../../generated/api';
import { formatIban } from '../../shared/iban';

export type BankAccount = components['schemas']['UserBankAccount'];
export type Withdrawal = components['schemas']['Withdrawal'];

export const WITHDRAWAL_STATES: Record<Withdrawal['state'], { title: string; color: string }> = {
  requested: { title: 'در انتظار واریز', color: '#fb8c00' },
  done: { title: 'واریز شد', color: '#43a047' },
  refused: { title: 'رد شد؛ به کیف پول بازگشت', color: '#e53935' },
};

export function ownershipOf(approved: BankAccount['ownershipApproved']): { title: string; color: string } {
  if (approved === 1) return { title: 'تایید شده', color: '#43a047' };
  if (approved === 0) return { title: 'رد شده', color: '#e53935' };
  return { title: 'در انتظار بررسی', color: '#757575' };
}

/** U+2066/U+2069 isolate the IBAN left to right inside Persian text. */
export const ibanText = (iban: string) => `\u2066${formatIban(iban)}\u2069`;

type Row = Record<string, unknown>;

export const decorateWithdrawals = (items: Row[]): Row[] =>
  items.map((row) => {
    const state = WITHDRAWAL_STATES[row.state as Withdrawal['state']] ?? { title: String(row.state), color: '#757575' };
    return { ...row, stateTitle: state.title, stateColor: state.color, ibanText: ibanText(String(row.iban)) };
  });

export const decorateBankAccounts = (items: Row[]): Row[] =>
  items.map((row) => {
    const state = ownershipOf(row.ownershipApproved as BankAccount['ownershipApproved']);
    return { ...row, ownershipTitle: state.title, ownershipColor: state.color, ibanText: ibanText(String(row.iban)) };
  });
