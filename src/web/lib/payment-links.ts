/**
 * Payment links (decision 028): the requester makes, shares and revokes one for a request waiting for payment
 * (api/me/createPaymentLink, revokePaymentLink); the payer reads it (api/me/fetchPaymentLink) and pays it
 * (api/me/payPaymentLink) with an Idempotency-Key kept until the server answered, as payPurchase is paid.
 */
import { useRef, useState } from 'react';
import type { components } from '../../generated/api';
import { ApiError, api, call, digMessage, FALLBACK_MESSAGE } from './api-client';
import { queryClient } from './query';

export type PaymentLinkView = components['schemas']['PaymentLinkView'];
export type CreatedPaymentLink = components['schemas']['CreatedPaymentLink'];
export type PaymentLinkPayResult = components['schemas']['PaymentLinkPayResult'];

export const paymentLinkQuery = (token: string) => ({
  queryKey: ['paymentLink', token],
  queryFn: () => call<PaymentLinkView>(api.POST('/api/me/fetchPaymentLink', { body: { token } })),
});

export type PaymentLinkPreview = components['schemas']['PaymentLinkPreview'];

/** The link as a guest sees it, before logging in (decision 028). */
export const paymentLinkPreviewQuery = (token: string) => ({
  queryKey: ['paymentLink', 'preview', token],
  queryFn: () => call<PaymentLinkPreview>(api.POST('/api/public/previewPaymentLink', { body: { token } })),
});

/** Where the payer left a link for a detour (the profile): the profile offers the way back. */
export const PAY_LINK_RETURN_KEY = 'arzpay.payLinkReturn';

/** The page the payer lands on after paying (and the bank's callback sends them to). */
export const payResultPath = (outcome: string) => `/pay-result?payment=${outcome}`;

export async function createPaymentLink(purchase: number, hours?: number): Promise<CreatedPaymentLink> {
  const link = await call<CreatedPaymentLink>(
    api.POST('/api/me/createPaymentLink', { body: { purchase, ...(hours ? { hours } : {}) } }),
  );
  await queryClient.invalidateQueries({ queryKey: ['purchase', 'detail', purchase] });
  return link;
}

export async function revokePaymentLink(purchase: number): Promise<void> {
  await call(api.POST('/api/me/revokePaymentLink', { body: { purchase } }));
  await queryClient.invalidateQueries({ queryKey: ['purchase', 'detail', purchase] });
}

/** Pays through the link: on to the bank's page, or to the result page when the payer's wallet paid. */
export function usePayPaymentLink(token: string, onPaid: () => void) {
  const key = useRef<{ key: string; quoteId: string | null; card: number | null } | null>(null);
  const inFlight = useRef(false);
  const [state, setState] = useState<{ paying: boolean; error: string | null }>({ paying: false, error: null });

  const pay = async (quoteId: string | null, card: number | null) => {
    if (inFlight.current) return;
    inFlight.current = true;
    if (key.current?.quoteId !== quoteId || key.current.card !== card) {
      key.current = { key: crypto.randomUUID(), quoteId, card };
    }
    setState({ paying: true, error: null });
    try {
      const result = await call<PaymentLinkPayResult>(
        api.POST('/api/me/payPaymentLink', {
          params: { header: { 'Idempotency-Key': key.current.key } },
          body: { token, ...(quoteId ? { quoteId } : {}), ...(card !== null ? { card } : {}) },
        }),
      );
      key.current = null;
      void queryClient.invalidateQueries({ queryKey: ['wallet'] });
      if (result.gatewayUrl) {
        window.location.assign(result.gatewayUrl);
        return;
      }
      setState({ paying: false, error: null });
      onPaid();
    } catch (error) {
      // No answer reached us or the server failed: the next click repeats this payment with its key.
      const repeat = !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
      if (!repeat) key.current = null;
      setState({ paying: false, error: digMessage(error) ?? FALLBACK_MESSAGE });
      void queryClient.invalidateQueries({ queryKey: ['paymentLink', token] });
    } finally {
      inFlight.current = false;
    }
  };
  return { ...state, pay };
}
