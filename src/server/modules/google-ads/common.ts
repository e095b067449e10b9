/**
 * Google Ads (decision 018): the only writer of `google_mcc_accounts`, `google_ads_account_requests`,
 * `google_ads_accounts` and `google_ads_charges`, one idea a file: account requests, manager (MCC) panels,
 * accounts, charges, the make-account task, and the recharge's use case (charge-done.ts). Here: what they share
 * (the contract's shapes, the make-account task's type, dates as ISO text).
 */
import type { Kysely } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';

export type Db = Kysely<Database>;
export type GoogleAdsAccountRequestDto = components['schemas']['GoogleAdsAccountRequest'];
export type GoogleAdsAccountDto = components['schemas']['GoogleAdsAccount'];
export type StaffGoogleAdsAccountDto = components['schemas']['StaffGoogleAdsAccount'];
export type GoogleMccAccountDto = components['schemas']['GoogleMccAccount'];
export type GoogleMccAccountSearch = components['schemas']['GoogleMccAccountSearch'];
export type GoogleAdsAccountSearch = components['schemas']['GoogleAdsAccountSearch'];

export const MAKE_ACCOUNT_TASK = 'makeGoogleAdsAccountTask';
/** How many of an account's charges the customer's list carries (newest first). */
export const CHARGES_SHOWN = 20;

export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
