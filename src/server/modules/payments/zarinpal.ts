/**
 * ZarinPal's REST API v4 (https://www.zarinpal.com/docs/paymentGateway/connectToGateway) as a PaymentGateway:
 *   POST {base}/pg/v4/payment/request.json  {merchant_id, amount, currency: 'IRR', callback_url, description,
 *        metadata: {mobile, card_pan}}       → {data: {code: 100, message, authority, fee_type, fee}, errors: []}
 *        (card_pan: "payment with a specified card": the gateway's page takes only that card)
 *   the payer's browser goes to              {startPayBase}/pg/StartPay/{authority}
 *   and comes back to callback_url with      ?Authority=…&Status=OK|NOK
 *   POST {base}/pg/v4/payment/verify.json   {merchant_id, amount, authority}
 *                                            → {data: {code: 100 | 101, ref_id, card_pan, card_hash, fee_type, fee,
 *                                               message}, errors: []}
 * A refusal comes as {data: [], errors: {code: -9 | -50 | -51 | …, message, validations}} with a 4xx status.
 *
 * The same code talks to our sandbox bank (modules/sandbox-bank), which speaks this protocol with two additions:
 * the request's metadata may carry the payer's `national_code` (to prefill its page), and verify's data carries
 * `holder_national_code`, the card holder the bank knows. Real ZarinPal reports no holder; we say null. The card
 * rule then rests on the named card: verify's card_hash (SHA-256 of the 16-digit number, upper-case hex) and masked
 * card_pan must be the named card's (decision 024).
 */
import type { CreatedPayment, CreatePaymentInput, PaymentGateway, VerifyResult } from './payment-gateway';
import { GatewayUnavailableError } from './payment-gateway';

export interface ZarinpalOptions {
  /** Short name stored with each payment (`zarinpal`, `sandbox`). */
  name: string;
  /** Persian name shown on receipts. */
  title: string;
  /**
   * Where the API is reached, server to server (https://payment.zarinpal.com); a function is asked at each call
   * (this server's own address is known only once it listens).
   */
  baseUrl: string | (() => string);
  /**
   * Where the payer's browser is sent, when it differs from baseUrl (the sandbox bank is called on the loopback
   * address but browsed at the site's public address).
   */
  startPayBaseUrl?: string;
  /** The merchant's 36-character code. */
  merchantId: string;
  /** Send the payer's national code in the request's metadata (our sandbox bank only; ZarinPal has no such field). */
  sendNationalCode?: boolean;
  /** Whether a gateway payment must name a verified card (no holder reported): see PaymentGateway. */
  requiresNamedCard: boolean;
  /** Milliseconds each call may take before the gateway counts as unavailable (default 10 s). */
  timeoutMs?: number;
}

/** The gateway answered but refused to open the payment (a ZarinPal error code such as -9, -10, -12). */
export class GatewayRefusedError extends GatewayUnavailableError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`payment gateway refused the payment (${code}): ${message}`);
  }
}

interface ZarinpalAnswer {
  status: number;
  data: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class ZarinpalGateway implements PaymentGateway {
  readonly name: string;
  readonly title: string;
  readonly requiresNamedCard: boolean;
  private readonly baseUrl: () => string;
  private readonly startPayBaseUrl: () => string;
  private readonly merchantId: string;
  private readonly sendNationalCode: boolean;
  private readonly timeoutMs: number;

  constructor(options: ZarinpalOptions) {
    this.name = options.name;
    this.title = options.title;
    this.requiresNamedCard = options.requiresNamedCard;
    const base = options.baseUrl;
    this.baseUrl = () => (typeof base === 'string' ? base : base()).replace(/\/+$/, '');
    const startPay = options.startPayBaseUrl;
    this.startPayBaseUrl = startPay === undefined ? this.baseUrl : () => startPay.replace(/\/+$/, '');
    this.merchantId = options.merchantId;
    this.sendNationalCode = options.sendNationalCode ?? false;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    const metadata: Record<string, string> = {};
    if (input.payer.mobileNo) metadata.mobile = input.payer.mobileNo;
    if (this.sendNationalCode && input.payer.nationalCode) metadata.national_code = input.payer.nationalCode;
    if (input.cardPan) metadata.card_pan = input.cardPan;
    const answer = await this.call('/pg/v4/payment/request.json', {
      merchant_id: this.merchantId,
      amount: input.amount,
      currency: 'IRR',
      callback_url: input.callbackUrl,
      description: input.description,
      metadata,
    });
    if (answer.error) throw new GatewayRefusedError(answer.error.code, answer.error.message);
    const authority = answer.data?.authority;
    if (answer.data?.code !== 100 || typeof authority !== 'string' || !/^[A-Za-z0-9]{1,64}$/.test(authority)) {
      throw new GatewayRefusedError(String(answer.data?.code ?? 'none'), 'no authority in the answer');
    }
    return { authority, redirectUrl: `${this.startPayBaseUrl()}/pg/StartPay/${authority}` };
  }

  async verify(input: { authority: string; amount: number }): Promise<VerifyResult> {
    const answer = await this.call('/pg/v4/payment/verify.json', {
      merchant_id: this.merchantId,
      amount: input.amount,
      authority: input.authority,
    });
    if (answer.error) return { paid: false, code: answer.error.code };
    const data = answer.data;
    const code = data?.code;
    if (!data || (code !== 100 && code !== 101)) return { paid: false, code: String(code ?? 'none') };
    const refId = data.ref_id;
    if ((typeof refId !== 'number' && typeof refId !== 'string') || String(refId) === '') {
      throw new GatewayUnavailableError(`payment gateway verified ${input.authority} without a ref_id`);
    }
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
    return {
      paid: true,
      // ZarinPal compares the amount itself (-50 when it differs); a success is for the amount asked.
      amount: input.amount,
      referenceId: String(refId),
      cardNo: text(data.card_pan),
      cardHash: text(data.card_hash)?.toUpperCase() ?? null,
      holderNationalCode: text(data.holder_national_code),
      alreadyVerified: code === 101,
    };
  }

  /** POSTs JSON; a 2xx or 4xx with ZarinPal's envelope is an answer, anything else means the gateway is unavailable. */
  private async call(path: string, body: Record<string, unknown>): Promise<ZarinpalAnswer> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.baseUrl() + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      throw new GatewayUnavailableError(`payment gateway ${this.name} unreachable: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const status = response.status;
    if (status >= 500 || status < 200 || (status >= 300 && status < 400)) {
      throw new GatewayUnavailableError(`payment gateway ${this.name} answered ${status}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new GatewayUnavailableError(`payment gateway ${this.name} answered ${status} without JSON`);
    }
    if (!isRecord(parsed)) throw new GatewayUnavailableError(`payment gateway ${this.name} answered ${status} oddly`);
    const errors = parsed.errors;
    if (isRecord(errors) && (typeof errors.code === 'number' || typeof errors.code === 'string')) {
      return {
        status,
        data: null,
        error: { code: String(errors.code), message: typeof errors.message === 'string' ? errors.message : '' },
      };
    }
    if (status >= 400 || !isRecord(parsed.data)) {
      throw new GatewayUnavailableError(`payment gateway ${this.name} answered ${status} without data or errors`);
    }
    return { status, data: parsed.data, error: null };
  }
}
