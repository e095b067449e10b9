/**
 * Price inquiry: the server prices every request itself from the rate it holds, and a quote fixes that price for
 * its lifetime (its signed terms, decision 016). Submission checks the quote it spends here too (`checkQuote`), and
 * re-prices the same inputs for a refusal's fresh quote.
 */
import { toPersianDigits } from '../../../shared/digits';
import {
  currencyDecimals,
  hasAtMostDecimals,
  type PriceBreakdown,
  payablePrice,
  priceOf,
  toMinorUnits,
} from '../../../shared/pricing';
import type { Principal } from '../../contract/handlers';
import { HttpError } from '../../http/errors';
import { shownUserBalance } from '../ledger';
import type { DeskForm } from '../desks';
import type { Quote, RequestDeps } from './deps';
import { deskFormOrThrow, validatePriceInputs } from './forms';
import { offeredByUs } from './offered-quote';
import { promiseOf } from './promises';
import type { QuoteTerms } from './quote-token';
import { type CheckedQuote, NO_PAYMENT_METHOD_GROUP } from './quote-spending';

async function pricingParameters(deps: RequestDeps) {
  const settings = await deps.sources.parameters();
  return {
    pricing: {
      feePercent: settings.feePercent,
      fixedFee: settings.fixedFee,
      taxPercentOnFee: settings.taxPercentOnFee,
      operationCost: settings.operationCost,
    },
    minAmount: settings.minAmount,
    maxAmount: settings.maxAmount,
    quoteLifetimeSeconds: settings.quoteLifetimeSeconds,
  };
}

/** Checks currency, payment method and limits for the desk, and returns what the price depends on. */
export async function resolvePriceInputs(
  deps: RequestDeps,
  deskForm: DeskForm,
  input: Record<string, unknown>,
  userId: number,
) {
  const { form } = deskForm;
  const { currency, paymentMethodGroupId } =
    form.pricing === 'googleAdsRecharge'
      ? await googleAdsPriceInputs(deps, input, userId)
      : await foreignAmountPriceInputs(deps, deskForm, input);
  const amount = Number(input[form.amountField]);
  const decimals = currencyDecimals(currency.code);
  if (!hasAtMostDecimals(amount, decimals)) {
    if (decimals === 0) throw HttpError.of(422, 'desk.amountWhole', { currency: currency.title });
    throw HttpError.of(422, 'desk.amountDecimals', { currency: currency.title, decimals: toPersianDigits(decimals) });
  }
  const amountMinor = toMinorUnits(amount);
  const params = await pricingParameters(deps);
  if (amountMinor < params.minAmount) throw HttpError.of(422, 'desk.amountTooSmall');
  if (amountMinor > params.maxAmount) throw HttpError.of(422, 'desk.amountTooLarge');
  return { currency, amountMinor, paymentMethodGroupId, params };
}

/** A foreign payment: a currency used for it and a payment method group of the desk's kind (cash or not). */
async function foreignAmountPriceInputs(deps: RequestDeps, deskForm: DeskForm, input: Record<string, unknown>) {
  const currency = await deps.sources.currency(Number(input.currency));
  if (!currency?.useForUafCpr) throw HttpError.of(422, 'desk.currencyNotAllowed');
  const codes = deskForm.desk.currencies;
  if (codes && !codes.includes(currency.code.trim())) throw HttpError.of(422, 'desk.currencyNotAllowed');
  const group = await deps.sources.group(Number(input.requestedPaymentMethodGroup));
  if (!group || group.isCash !== deskForm.desk.isCashService) throw HttpError.of(422, 'desk.paymentMethodNotAllowed');
  return { currency, paymentMethodGroupId: group.id };
}

/**
 * A Google Ads recharge: the customer's own active account (another customer's is 403, a suspended one 422), in
 * the account's base currency (a different `currency` sent is 422); no payment method group (0 in the quote's
 * terms, null in its row).
 */
async function googleAdsPriceInputs(deps: RequestDeps, input: Record<string, unknown>, userId: number) {
  const account = await deps.chargeableAccount(deps.db, userId, Number(input.googleAdsAccount));
  if (input.currency !== undefined && Number(input.currency) !== account.currencyId) {
    throw HttpError.of(422, 'googleAds.account.currencyMismatch');
  }
  const currency = await deps.sources.currency(account.currencyId);
  if (!currency?.useForGoogleAdsAccountCr) throw HttpError.of(422, 'desk.currencyNotAllowed');
  return { currency, paymentMethodGroupId: NO_PAYMENT_METHOD_GROUP };
}

function toQuote(
  row: { id: string; expiresAt: Date | string | number; currencyId: number } & PriceBreakdown,
  currency: { code: string; title: string },
  wallet: number,
): Quote {
  const expiresAt = new Date(row.expiresAt);
  return {
    quoteId: row.id,
    expiresAt: expiresAt.toISOString(),
    expiresInSeconds: Math.max(0, Math.round((expiresAt.getTime() - Date.now()) / 1000)),
    currency: { id: row.currencyId, code: currency.code.trim(), title: currency.title },
    amount: row.amountMinor / 100,
    rate: row.rate,
    grossPrice: row.grossPrice,
    totalCosts: row.totalCosts,
    costs: { fee: row.fee, tax: row.tax, operationCost: row.operationCost },
    expectedPrice: row.expectedPrice,
    walletBalance: wallet,
    payablePrice: payablePrice(row.expectedPrice, wallet),
  };
}

export async function priceInquiry(
  deps: RequestDeps,
  deskIdentifier: string,
  input: Record<string, unknown>,
  principal: Principal,
): Promise<Quote> {
  const deskForm = deskFormOrThrow(deps, deskIdentifier);
  validatePriceInputs(deps, deskForm, input);
  const { currency, amountMinor, paymentMethodGroupId, params } = await resolvePriceInputs(
    deps,
    deskForm,
    input,
    principal.userId,
  );
  const price = priceOf(amountMinor, currency.rate, params.pricing);
  // Nothing is written: the quote is its signed terms (decision 016); a request that spends it writes its row.
  const terms: QuoteTerms = {
    currencyId: currency.id,
    paymentMethodGroupId,
    amountMinor: price.amountMinor,
    rate: price.rate,
    fee: price.fee,
    tax: price.tax,
    operationCost: price.operationCost,
    expiresAt: Date.now() + params.quoteLifetimeSeconds * 1000,
  };
  const id = deps.signer.sign(terms, principal.userId, deskIdentifier);
  const wallet = (await shownUserBalance(deps.db, principal.userId)).balance;
  return {
    ...toQuote({ id, ...terms, ...price }, currency, wallet),
    promise: promiseOf(deps.catalogue, deskForm, input),
  };
}

/**
 * What a fee of `amountMinor` in `currencyCode` costs in rial today, priced exactly as a price inquiry prices it
 * (the same rate, parameters and `priceOf`), for an estimate (a study-abroad plan's step): no quote, no limits (an
 * estimate may be over one request's maximum). Undefined when the currency is unknown.
 */
export async function estimateFee(
  deps: RequestDeps,
  currencyCode: string,
  amountMinor: number,
): Promise<(PriceBreakdown & { currencyId: number }) | undefined> {
  const currency = await deps.sources.currencyByCode(currencyCode);
  if (!currency) return undefined;
  const { pricing } = await pricingParameters(deps);
  return { ...priceOf(amountMinor, currency.rate, pricing), currencyId: currency.id };
}

/** The most a request may ask for, in minor units (system parameter maxAmount). */
export async function maxRequestAmountMinor(deps: RequestDeps): Promise<number> {
  return (await pricingParameters(deps)).maxAmount;
}

/**
 * The quote `quoteId` as the customer's submission to `desk` may use it: its signed terms, whether it is still
 * live, and whether a request already spent it (its row exists). Undefined for a token this server did not sign
 * for this customer and desk (changed, forged, someone else's), or whose terms it never offered (decision 031).
 */
export async function checkQuote(
  deps: RequestDeps,
  quoteId: string,
  userId: number,
  desk: string,
): Promise<CheckedQuote | undefined> {
  const terms = deps.signer.verify(quoteId, userId, desk);
  if (!terms || !(await offeredByUs(deps, terms))) return undefined;
  const spent = await deps.db.selectFrom('quotes').select('spentAt').where('id', '=', quoteId).executeTakeFirst();
  return {
    id: quoteId,
    ...terms,
    live: terms.expiresAt > Date.now(),
    spentAt: spent ? (spent.spentAt ?? 'before') : null,
  };
}
