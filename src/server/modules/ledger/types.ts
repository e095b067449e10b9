/**
 * The ledger's account kinds and transaction types (schemas/ledger/transactionTypes.json), and the one function
 * that turns a type's legs and named amounts into entries. Pure: no database.
 */
import catalogue from '../../../../schemas/ledger/transactionTypes.json' with { type: 'json' };
import type {
  AccountKind,
  AccountKindDefinition,
  AmountName,
  TransactionType,
} from '../../../generated/schemas/transactionTypes';
import { HttpError } from '../../http/errors';

import type { TransactionTypeId } from '../../../generated/ledger';

export type { AccountKind, AmountName, TransactionType, TransactionTypeId };
/** Each transaction type by what it does (`Tx.spendReservation`), generated from the catalogue's names. */
export { Tx } from '../../../generated/ledger';
export type Amounts = Partial<Record<AmountName, number>>;

export const accountKinds = catalogue.accountKinds as AccountKindDefinition[];
export const transactionTypes = catalogue.transactionTypes as TransactionType[];

export const CUSTOMER_KINDS = accountKinds.filter((k) => k.owner === 'customer').map((k) => k.kind);
export const SYSTEM_KINDS = accountKinds.filter((k) => k.owner === 'system').map((k) => k.kind);
export const isCustomerKind = (kind: AccountKind) => CUSTOMER_KINDS.includes(kind);

/**
 * The largest amount one leg of a posting may carry, in rial (10^15, a thousand trillion). The ledger keeps every
 * balance as a JavaScript safe integer (below 2^53 ≈ 9.007 × 10^15); with amounts no larger than this, an account
 * takes at least nine of the largest before it nears that limit, and a posting that would carry any account past it
 * is refused with `amount.tooLarge` (422) rather than rounded. The contract's money inputs (payOffline's amount, a
 * withdrawal, uafCprDone's real price) have this maximum (tests/unit/contract-integer-bounds.test.ts).
 */
export const LARGEST_AMOUNT = 1_000_000_000_000_000;

/** The types a customer sees in their transaction list. */
export const VISIBLE_TYPES = transactionTypes.filter((t) => t.customerVisible).map((t) => t.type);

export function transactionTypeOf(type: string): TransactionType {
  const found = transactionTypes.find((t) => t.type === type);
  if (!found) throw new Error(`unknown ledger transaction type ${type}`);
  return found;
}

/** A type whose legs do not sum to zero: a bug in the catalogue or the caller, never the customer's doing. */
export class UnbalancedTransactionError extends Error {}

/**
 * The signed amount per account kind that `type` moves for `amounts` (legs on one kind are added up; kinds that
 * net to zero are left out). Amounts must be integers from 0 to LARGEST_AMOUNT; the result must sum to zero.
 */
export function entriesOf(type: TransactionType, amounts: Amounts): Map<AccountKind, number> {
  const byKind = new Map<AccountKind, number>();
  for (const leg of type.legs) {
    const value = amounts[leg.amount];
    if (value === undefined || !Number.isSafeInteger(value) || value < 0)
      throw HttpError.of(422, 'ledger.invalidAmount');
    if (value > LARGEST_AMOUNT) throw HttpError.of(422, 'amount.tooLarge');
    const next = (byKind.get(leg.account) ?? 0) + leg.sign * value;
    if (!Number.isSafeInteger(next)) throw HttpError.of(422, 'amount.tooLarge');
    byKind.set(leg.account, next);
  }
  let total = 0;
  for (const [kind, value] of byKind) {
    if (value === 0) byKind.delete(kind);
    total += value;
  }
  if (total !== 0) throw new UnbalancedTransactionError(`${type.type}: legs sum to ${total}, not zero`);
  if (byKind.size === 0) throw HttpError.of(422, 'ledger.emptyTransaction');
  return byKind;
}
