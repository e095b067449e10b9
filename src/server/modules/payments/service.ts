/**
 * Paying requests and receiving money, composed for the handlers: each method is a use case of its own file, given
 * the app's dependencies (PaymentDeps). The use cases own their transactions, the gateway calls and the
 * announcements; the steps inside a transaction take `trx` first (decision 007).
 *
 * - paying.ts: pay a request (wallet, or gateway for the rest), once per Idempotency-Key; cancel one.
 * - settlement.ts: a gateway payment verified and recorded once (the payer's return).
 * - offline-deposit.ts: staff record a deposit to our bank (payOffline).
 * - receiving.ts: the one path money comes in by (collection, ledger posting, the request paid).
 * - purchase-views.ts: a request's page for the customer and for staff, a collection's receipt.
 */
import type { Principal } from '../../contract/handlers';
import type { VerifyResult } from './gateway';
import {
  type CollectionReceipt,
  type OfflineCollectionInput,
  type OfflineCollectionResult,
  type PayResult,
  type PaymentDeps,
  type PaymentOutcome,
  type Purchase,
  type PurchaseDetail,
  type StaffPurchaseDetail,
} from './context';
import { payOffline } from './offline-deposit';
import { cancel, pay } from './paying';
import { fetchCollection, fetchPurchase, fetchStaffPurchase } from './purchase-views';
import { settleCallback } from './settlement';

export type {
  CollectionReceipt,
  OfflineCollectionInput,
  OfflineCollectionResult,
  PayResult,
  PaymentDeps,
  PaymentOutcome,
  PurchaseDetail,
  StaffPurchaseDetail,
  VerifyResult,
};
export { paidWithNamedCard } from './settlement';

export class PaymentService {
  constructor(private readonly deps: PaymentDeps) {}

  payOffline(principal: Principal, input: OfflineCollectionInput): Promise<OfflineCollectionResult> {
    return payOffline(this.deps, principal, input);
  }

  pay(
    principal: Principal,
    input: { purchase: number; quoteId?: string | undefined; card?: number | undefined },
    idempotencyKey: string | undefined,
    siteUrl: string,
  ): Promise<{ data: PayResult; replayed: boolean }> {
    return pay(this.deps, principal, input, idempotencyKey, siteUrl);
  }

  cancel(principal: Principal, purchaseId: number): Promise<Purchase> {
    return cancel(this.deps, principal, purchaseId);
  }

  settleCallback(
    callbackToken: string,
    query: { Authority?: string | undefined; Status?: string | undefined },
  ): Promise<{ purchaseId: number | null; outcome: PaymentOutcome | null }> {
    return settleCallback(this.deps, callbackToken, query);
  }

  fetchPurchase(principal: Principal, purchaseId: number): Promise<PurchaseDetail> {
    return fetchPurchase(this.deps, principal, purchaseId);
  }

  fetchStaffPurchase(purchaseId: number): Promise<StaffPurchaseDetail> {
    return fetchStaffPurchase(this.deps, purchaseId);
  }

  fetchCollection(principal: Principal, collectionId: number): Promise<CollectionReceipt> {
    return fetchCollection(this.deps, principal, collectionId);
  }
}
