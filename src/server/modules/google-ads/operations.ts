/**
 * Account operations at Google, behind one interface (docs/decisions/018-google-ads-operations.md). The flow
 * (requests, tasks, ledger) calls these and never knows how they are carried out.
 *
 * Today the only implementation is `manual`: Google's API is out of our reach, so staff make the account or the
 * charge in Google's console and record what they did (the new account's customer id, the charge's reference); the
 * operation checks and returns that record. A Google Ads API implementation would make the account under the MCC
 * (CustomerService.CreateCustomerClient) or the charge itself and return Google's answer, ignoring `recorded`.
 */
import { toEnglishDigits } from '../../../shared/digits';
import { HttpError } from '../../http/errors';

export interface CreateAccountInput {
  mcc: { id: number; googleCustomerId: string };
  currencyCode: string;
  title: string;
  standardUsers: string[];
  readonlyUsers: string[];
  /** What staff did by hand: the new account's customer id as they typed it. */
  recorded: { googleCustomerId: string };
}

export interface ChargeAccountInput {
  account: { id: number; googleCustomerId: string };
  currencyCode: string;
  /** Hundredths of the account's currency. */
  amountMinor: number;
  /** What staff did by hand: the charge's reference. */
  recorded: { chargeReference: string };
}

export interface GoogleAdsOperations {
  /** Shown to staff, so the dialogs say whether they act in Google's console themselves. */
  readonly kind: 'manual';
  createAccount(input: CreateAccountInput): Promise<{ googleCustomerId: string }>;
  chargeAccount(input: ChargeAccountInput): Promise<{ chargeReference: string }>;
}

/**
 * Google's customer id as 123-456-7890, from ten digits typed with or without dashes or spaces (Persian digits
 * too); null when it is not ten digits.
 */
export function canonicalCustomerId(text: string): string | null {
  const digits = toEnglishDigits(text).replace(/[\s\-–_]/g, '');
  if (!/^\d{10}$/.test(digits)) return null;
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** Staff act in Google's console and record the result; the operation checks it and hands it back. */
export const manualGoogleAdsOperations: GoogleAdsOperations = {
  kind: 'manual',
  async createAccount(input) {
    const googleCustomerId = canonicalCustomerId(input.recorded.googleCustomerId);
    if (!googleCustomerId) throw HttpError.of(422, 'googleAds.customerId.invalid');
    return { googleCustomerId };
  },
  async chargeAccount(input) {
    const chargeReference = input.recorded.chargeReference.trim();
    if (!chargeReference) throw HttpError.of(400, 'googleAds.chargeReference.required');
    return { chargeReference };
  },
};
