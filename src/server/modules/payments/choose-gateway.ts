/**
 * The gateway PAYMENT_GATEWAY selects. Both speak ZarinPal's protocol (zarinpal.ts): `zarinpal` the real one,
 * `sandbox` the test bank this server serves under /sandbox-bank (modules/sandbox-bank), or the one at
 * SANDBOX_BANK_URL.
 */
import type { AppConfig } from '../../config';
import type { PaymentGateway } from './payment-gateway';
import { ZarinpalGateway } from './zarinpal';

/**
 * The name the sandbox gateway records on its payments and collections: what it collects is test money (decision
 * 023), marked so in the staff's lists and exports.
 */
export const SANDBOX_GATEWAY = 'sandbox';

/** The merchant code we present to the sandbox bank (it accepts any code of ZarinPal's form). */
export const SANDBOX_MERCHANT_ID = '00000000-0000-0000-0000-000000000000';

/**
 * `ownBaseUrl` is where this server can be called server to server (the loopback address and the port it
 * listens on), asked at each payment because the port is known only once it listens.
 */
export function createPaymentGateway(config: Pick<AppConfig, 'payments'>, ownBaseUrl: () => string): PaymentGateway {
  const { payments } = config;
  if (payments.gateway === 'zarinpal') {
    if (!payments.zarinpal) throw new Error('PAYMENT_GATEWAY=zarinpal without its settings');
    return new ZarinpalGateway({
      name: 'zarinpal',
      title: 'زرین‌پال',
      baseUrl: payments.zarinpal.baseUrl,
      merchantId: payments.zarinpal.merchantId,
      // ZarinPal reports no card holder: every gateway payment names a verified card (decision 024).
      requiresNamedCard: true,
    });
  }
  const external = payments.sandboxBankUrl;
  const own = () => `${ownBaseUrl()}/sandbox-bank`;
  return new ZarinpalGateway({
    name: SANDBOX_GATEWAY,
    title: 'درگاه آزمایشی',
    baseUrl: external ? `${external}/sandbox-bank` : own,
    // The bank this server serves is where the browser already is: at PUBLIC_URL when set, otherwise a path the
    // browser resolves against whatever address it reached the site at (a phone on the network included).
    ...(external
      ? {}
      : { startPayBaseUrl: payments.publicUrl ? `${payments.publicUrl}/sandbox-bank` : '/sandbox-bank' }),
    merchantId: SANDBOX_MERCHANT_ID,
    // In zarinpal mode the sandbox bank behaves as ZarinPal does: no holder, the named card only.
    sendNationalCode: payments.sandboxBankMode === 'holder',
    requiresNamedCard: payments.sandboxBankMode === 'zarinpal',
  });
}
