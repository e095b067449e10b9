/**
 * Paying a request (api/me/payPurchase) and cancelling it (api/me/cancelPurchase), as the desk page and My requests
 * both do. Each intended payment has its own Idempotency-Key: a retry after a network error (the server may have
 * received the first try) sends the same key, so the server answers with the first result instead of paying
 * twice; once the server has answered, the next click is a new payment with a new key. A request whose quote
 * expired is answered 409 with a fresh quote; paying with its quoteId re-prices the request.
 */
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { components } from '../../generated/api';
import { ApiError, api, call, digMessage, FALLBACK_MESSAGE } from './api-client';
import { ownChangeAnswered, ownChangeStarted } from './own-changes';
import { queryClient } from './query';

export type PayPurchaseResult = components['schemas']['PayPurchaseResult'];
export type Quote = components['schemas']['Quote'];

/** The page a request opens on, with the outcome of a payment when there is one. */
export const requestPath = (purchase: number, payment?: string) =>
  `/request/myRequests?purchase=${purchase}${payment ? `&payment=${payment}` : ''}`;

/** Everything a payment or a cancel changes. */
export function invalidatePurchase(): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['table', 'myRequests'] }),
    queryClient.invalidateQueries({ queryKey: ['table', 'myTransactions'] }),
    queryClient.invalidateQueries({ queryKey: ['purchase'] }),
    queryClient.invalidateQueries({ queryKey: ['wallet'] }),
  ]);
}

/** A fresh quote the server offered with a 409 for an expired one. */
function freshQuoteOf(error: unknown): Quote | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  return (error.body as { data?: { quote?: Quote } } | null)?.data?.quote ?? null;
}

/**
 * Whether the next click repeats this payment with its key: no answer reached us (status 0: the server may have
 * taken it), the first try is still at the bank (409 without a quote), or the server failed (5xx: it frees the key).
 * Any other refusal was final for that try; the next click is a new payment.
 */
export function retriesSamePayment(error: unknown, freshQuote: Quote | null): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status >= 500 || (error.status === 409 && !freshQuote);
}

export interface PayState {
  /** A payment is on its way (stays true while the browser leaves for the bank). */
  paying: boolean;
  error: string | null;
  /** The new price offered after the request's quote expired; paying again needs the customer's confirmation. */
  freshQuote: Quote | null;
}

export function usePayPurchase(purchase: number) {
  const navigate = useNavigate();
  const key = useRef<{ key: string; quoteId: string | null; card: number | null } | null>(null);
  const inFlight = useRef(false);
  const [state, setState] = useState<PayState>({ paying: false, error: null, freshQuote: null });
  // Back from the bank with the browser's back button: the page comes back from its cache, no longer paying.
  useEffect(() => {
    const shown = (e: PageTransitionEvent) => {
      if (e.persisted) setState((s) => ({ ...s, paying: false }));
    };
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);

  /** Pays, at `quoteId`'s price when the request's own expired, with `card` (one of the customer's verified cards). */
  const pay = async (quoteId: string | null = null, card: number | null = null) => {
    if (inFlight.current) return;
    inFlight.current = true;
    // The same intended payment (same request, price and card) keeps its key until the server has answered.
    if (key.current?.quoteId !== quoteId || key.current.card !== card) {
      key.current = { key: crypto.randomUUID(), quoteId, card };
    }
    setState((s) => ({ ...s, paying: true, error: null }));
    // Its live events, arriving beside the answer, then fetch nothing the answer's refresh does not (own-changes.ts).
    ownChangeStarted(purchase);
    try {
      const result = await call<PayPurchaseResult>(
        api.POST('/api/me/payPurchase', {
          params: { header: { 'Idempotency-Key': key.current.key } },
          body: { purchase, ...(quoteId ? { quoteId } : {}), ...(card !== null ? { card } : {}) },
        }),
      );
      key.current = null;
      ownChangeAnswered(purchase, result.purchase.state);
      void invalidatePurchase();
      if (result.gatewayUrl) {
        // The bank's page: the button stays busy until the browser has left.
        window.location.assign(result.gatewayUrl);
        return;
      }
      setState({ paying: false, error: null, freshQuote: null });
      navigate(requestPath(purchase, 'success'));
    } catch (error) {
      const freshQuote = freshQuoteOf(error);
      if (!retriesSamePayment(error, freshQuote)) key.current = null;
      setState({ paying: false, error: digMessage(error) ?? FALLBACK_MESSAGE, freshQuote });
      const held = ownChangeAnswered(purchase, null);
      if (!freshQuote) void invalidatePurchase();
      else for (const queryKey of held) void queryClient.invalidateQueries({ queryKey });
    } finally {
      inFlight.current = false;
    }
  };

  return { ...state, pay, dismissQuote: () => setState((s) => ({ ...s, freshQuote: null, error: null })) };
}

export function cancelPurchase(purchase: number) {
  return call(api.POST('/api/me/cancelPurchase', { body: { purchase } }));
}
