/**
 * A bank payment gateway (PSP) as the payments module sees it: open a payment for an amount and a callback URL,
 * send the payer's browser to the gateway, and afterwards ask the gateway, server to server, what really happened.
 * The callback's query only names a payment; `verify` decides. Both the sandbox bank and ZarinPal are reached
 * through this interface (docs/decisions/010-payments-and-gateways.md).
 */

export interface CreatePaymentInput {
  /** Rial, a positive integer. */
  amount: number;
  /** Absolute URL the gateway sends the payer's browser back to (with `Authority` and `Status` in its query). */
  callbackUrl: string;
  /** Shown on the gateway's page (Persian). */
  description: string;
  /** What the gateway may show or prefill: the payer's mobile and national code. */
  payer: { mobileNo: string | null; nationalCode: string | null };
  /**
   * The customer's verified card the payment must be made with (16 digits): the gateway's page takes no other
   * (ZarinPal's metadata.card_pan). Absent when no card is named.
   */
  cardPan?: string;
}

export interface CreatedPayment {
  /** The gateway's identifier of the payment. */
  authority: string;
  /** Where the payer's browser goes to pay. */
  redirectUrl: string;
}

export type VerifyResult =
  | {
      paid: true;
      /** Rial the gateway says it collected (compared with what we asked). */
      amount: number;
      /** The bank's reference for the payment. */
      referenceId: string;
      /** The paying card, masked as the gateway reports it (e.g. 603799******1234). */
      cardNo: string | null;
      /** SHA-256 of the paying card's number, upper-case hex, when the gateway reports it (ZarinPal's card_hash). */
      cardHash: string | null;
      /** The card holder's national code when the gateway reports it; null when it does not. */
      holderNationalCode: string | null;
      /** True when the gateway had verified this payment before (ZarinPal code 101). */
      alreadyVerified: boolean;
    }
  | { paid: false; code: string };

export interface PaymentGateway {
  /** Short name stored with each payment (`sandbox`, `zarinpal`). */
  readonly name: string;
  /** Persian name shown on receipts. */
  readonly title: string;
  /**
   * Whether this gateway reports no card holder, so a gateway payment must name one of the customer's verified cards
   * and verify's card is checked against it (ZarinPal, the sandbox bank in zarinpal mode; decision 024).
   */
  readonly requiresNamedCard: boolean;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  verify(input: { authority: string; amount: number }): Promise<VerifyResult>;
}

/** The gateway could not be reached or answered with an error: nothing moved; the customer may try again. */
export class GatewayUnavailableError extends Error {}
