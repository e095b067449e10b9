/**
 * Asking, before a card is accepted as a customer's own, whether its holder is that customer: one small interface,
 * chosen by CARD_INQUIRY_DRIVER as the SMS driver is chosen by SMS_DRIVER.
 *   none (default)  no inquiry service: every new card opens a staff review task (approveUserCardTask).
 *   sandbox         answers at once, without any network: the holder is the customer, except for the documented test
 *                   cards of "another person" (SANDBOX_FOREIGN_CARDS); for SANDBOX_UNANSWERED_CARDS it behaves as a
 *                   provider that is down, so the card goes to staff. Refused in production (decision 023).
 * A real provider (a bank's or an aggregator's card-holder/national-code match) is one more implementation of
 * `CardOwnerInquiry`, selected by its own driver name and configured by its own variables (credentials, base URL),
 * exactly as `kavenegar` is for SMS. An inquiry that fails or times out is not an answer: the card goes to staff.
 */
import type { AppConfig } from '../../config';

export type CardOwnerAnswer = { holderMatches: true } | { holderMatches: false };

export interface CardOwnerInquiry {
  /** Short name recorded in the log and the audit entry (`sandbox`). */
  readonly name: string;
  /** Whether the holder of `cardNumber` (16 ASCII digits) is the person with `nationalCode`. */
  checkHolder(input: { cardNumber: string; nationalCode: string }): Promise<CardOwnerAnswer>;
}

/** The inquiry could not be made (unreachable, refused, timed out): the card is reviewed by staff instead. */
export class CardInquiryUnavailableError extends Error {}

/**
 * Test cards the sandbox inquiry says belong to someone else (Luhn-valid, of known banks). The first is also the one
 * tests and the demo use for "another person's card" at the sandbox bank.
 */
export const SANDBOX_FOREIGN_CARDS: readonly string[] = ['6219861034529007', '6104337979797972'];

/** Test cards for which the sandbox inquiry fails as an unreachable provider would: they go to staff review. */
export const SANDBOX_UNANSWERED_CARDS: readonly string[] = ['5022291012345672'];

export function sandboxCardInquiry(): CardOwnerInquiry {
  return {
    name: 'sandbox',
    async checkHolder({ cardNumber }) {
      if (SANDBOX_UNANSWERED_CARDS.includes(cardNumber)) {
        throw new CardInquiryUnavailableError('sandbox card inquiry: this test card is never answered');
      }
      return SANDBOX_FOREIGN_CARDS.includes(cardNumber) ? { holderMatches: false } : { holderMatches: true };
    },
  };
}

/** The inquiry CARD_INQUIRY_DRIVER names, or null when none is configured (staff review every card). */
export function createCardInquiry(config: Pick<AppConfig, 'cardInquiry'>): CardOwnerInquiry | null {
  return config.cardInquiry.driver === 'sandbox' ? sandboxCardInquiry() : null;
}
