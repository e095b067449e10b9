/** Paying, cancelling and following requests, the receipt of a collection, and the gateway's callback. */
import type { FastifyRequest } from 'fastify';
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { ok, tooManyRequestsFor } from '../../http/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { msg } from '../../http/messages';
import type { PaymentDeps } from './context';
import { cancel, pay } from './paying';
import { fetchCollection, fetchPurchase } from './purchase-views';
import { checkReceiptReference, verifyReceipt } from './receipt-verification';
import { fetchProofLetter } from './proof-letter';
import { settleCallback } from './settlement';
import {
  createPaymentLink,
  fetchPaymentLink,
  payPaymentLink,
  previewPaymentLink,
  revokePaymentLink,
} from './payment-links';

/**
 * The address the gateway sends the payer back to: PUBLIC_URL when the operator set it (behind a proxy, the
 * address customers use), otherwise the one this request came to.
 */
export type SiteUrl = (request: FastifyRequest) => string;

export function paymentHandlers(
  payments: PaymentDeps,
  siteUrl: SiteUrl,
): Pick<
  Handlers,
  | 'payPurchase'
  | 'cancelPurchase'
  | 'fetchPurchase'
  | 'fetchProofLetter'
  | 'fetchCollection'
  | 'paymentCallback'
  | 'createPaymentLink'
  | 'revokePaymentLink'
  | 'fetchPaymentLink'
  | 'previewPaymentLink'
  | 'payPaymentLink'
> {
  return {
    createPaymentLink: async ({ body, principal }) =>
      ok(await createPaymentLink(payments, principal!, body), msg('paymentLink.created')),

    revokePaymentLink: async ({ body, principal }) =>
      ok(await revokePaymentLink(payments, principal!, body.purchase), msg('paymentLink.revoked')),

    fetchPaymentLink: async ({ body, principal }) => ok(await fetchPaymentLink(payments, principal!, body.token)),
    previewPaymentLink: async ({ body }) => ok(await previewPaymentLink(payments, body.token)),

    payPaymentLink: async ({ body, principal, request }) => {
      const key = request.headers['idempotency-key'];
      const data = await payPaymentLink(
        payments,
        principal!,
        body,
        typeof key === 'string' ? key : undefined,
        siteUrl(request),
      );
      return ok(data, msg(data.gatewayUrl === null ? 'paymentLink.paid' : 'payment.redirecting'));
    },

    payPurchase: async ({ body, principal, request }) => {
      const key = request.headers['idempotency-key'];
      const { data } = await pay(
        payments,
        principal!,
        body,
        typeof key === 'string' ? key : undefined,
        siteUrl(request),
      );
      return ok(data, msg(data.gatewayUrl === null ? 'purchase.paidFromWallet' : 'payment.redirecting'));
    },

    cancelPurchase: async ({ body, principal }) =>
      ok(await cancel(payments, principal!, body.purchase), msg('purchase.cancelled')),

    fetchPurchase: async ({ body, principal }) => ok(await fetchPurchase(payments, principal!, body.purchase)),
    fetchProofLetter: async ({ body, principal }) => ok(await fetchProofLetter(payments, principal!, body.purchase)),

    fetchCollection: async ({ body, principal }) => ok(await fetchCollection(payments, principal!, body.collection)),

    paymentCallback: async ({ params, query, reply }) => {
      const { purchaseId, outcome, viaLink } = await settleCallback(payments, params.callbackToken ?? '', {
        Authority: query.Authority,
        Status: query.Status,
      });
      if (viaLink) {
        // Someone paying another's request through a payment link cannot open that request: their own result page,
        // with the receipt of their payment (the collection is theirs; decision 028).
        const target = new URLSearchParams();
        if (outcome !== null) target.set('payment', outcome);
        if (outcome === 'success') {
          const collection = await payments.db
            .selectFrom('collections as c')
            .innerJoin('onlineProformas as o', 'o.id', 'c.onlineProformaId')
            .select('c.id')
            .where('o.callbackToken', '=', params.callbackToken ?? '')
            .executeTakeFirst();
          if (collection) target.set('receipt', String(collection.id));
        }
        const query = target.toString();
        await reply.redirect(`/pay-result${query ? `?${query}` : ''}`, 303);
        return undefined as never;
      }
      const target = new URLSearchParams();
      if (purchaseId !== null) target.set('purchase', String(purchaseId));
      if (outcome !== null) target.set('payment', outcome);
      const search = target.size > 0 ? `?${target}` : '';
      await reply.redirect(`/request/myRequests${search}`, 303);
      return undefined as never;
    },
  };
}

/**
 * The public check of a receipt by its code. Every lookup counts against the caller's address (shared through Redis
 * when configured), found or not, so guessing codes costs a wait long before it could find one.
 */
export function receiptVerificationHandlers(deps: {
  db: DB;
  deskTitle: (desk: string) => string;
  rateLimiter: RateLimiter;
  limits: { perIp: number; windowSeconds: number };
}): Pick<Handlers, 'verifyReceipt' | 'checkReceiptReference'> {
  // A reference check is a lookup like a code's: one counter per address for both, so neither guesses more.
  const count = async (ip: string) => {
    const hit = await deps.rateLimiter.hit(`receipt-verify:ip:${ip}`, deps.limits.perIp, deps.limits.windowSeconds);
    if (!hit.allowed) throw tooManyRequestsFor('receipt.verify.tooMany', hit.retryAfterSeconds);
  };
  return {
    verifyReceipt: async ({ body, request }) => {
      await count(request.ip);
      return ok(await verifyReceipt(deps.db, body.code, deps.deskTitle));
    },
    checkReceiptReference: async ({ body, request }) => {
      await count(request.ip);
      return ok(await checkReceiptReference(deps.db, body.code, body.reference));
    },
  };
}
