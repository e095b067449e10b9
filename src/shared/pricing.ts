/**
 * The price of a foreign-currency payment in integer rial. The foreign amount is rounded to minor
 * units (2 decimals) once; everything after is integer arithmetic with one rounding per step.
 */
export interface PricingParameters {
  /** Service fee, percent of the gross rial price */
  feePercent: number;
  /** Fixed fee per request, rial */
  fixedFee: number;
  /** Tax on fees, percent */
  taxPercentOnFee: number;
  /** Bank/operation cost per request, rial */
  operationCost: number;
}

export interface PriceBreakdown {
  amountMinor: number;
  rate: number;
  grossPrice: number;
  fee: number;
  tax: number;
  operationCost: number;
  totalCosts: number;
  expectedPrice: number;
}

/** 12.345 → 1235 (cents): the one rounding of a foreign amount. */
export const toMinorUnits = (amount: number) => Math.round(amount * 100);

/** Decimals every amount is kept with (minor units are hundredths, whatever the currency). */
export const MINOR_UNIT_DIGITS = 2;

/**
 * The decimals an amount in `code` may have: the currency's ISO 4217 minor unit as the runtime's Intl knows it
 * (USD 2, JPY 0), at most the MINOR_UNIT_DIGITS the model keeps (so KWD's 3 become 2). Currencies carry no
 * decimals field of their own; an unknown code gets the 2 of the model.
 */
export function currencyDecimals(code: string): number {
  const key = code.trim();
  let decimals = decimalsByCode.get(key);
  if (decimals === undefined) {
    decimals = intlDecimals(key);
    // Remembered: building a NumberFormat costs more than the rest of a price inquiry. Codes are few, but a caller
    // may pass any text, so the memory stays bounded.
    if (decimalsByCode.size < 1000) decimalsByCode.set(key, decimals);
  }
  return decimals;
}

const decimalsByCode = new Map<string, number>();

function intlDecimals(code: string): number {
  try {
    const { maximumFractionDigits } = new Intl.NumberFormat('en', {
      style: 'currency',
      currency: code,
    }).resolvedOptions();
    return Math.min(MINOR_UNIT_DIGITS, maximumFractionDigits ?? MINOR_UNIT_DIGITS);
  } catch {
    return MINOR_UNIT_DIGITS;
  }
}

/** Whether `amount` is written with at most `decimals` decimals (100.01 has 2, 100.004 has 3). */
export const hasAtMostDecimals = (amount: number, decimals: number) =>
  Number.isFinite(amount) && Number(amount.toFixed(decimals)) === amount;

export function priceOf(amountMinor: number, rate: number, p: PricingParameters): PriceBreakdown {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0)
    throw new RangeError('amount must be a positive integer of minor units');
  if (!Number.isSafeInteger(rate) || rate <= 0) throw new RangeError('rate must be a positive integer of rial');
  const grossPrice = Math.round((amountMinor * rate) / 100);
  const fee = Math.round((grossPrice * p.feePercent) / 100) + p.fixedFee;
  const tax = Math.round((fee * p.taxPercentOnFee) / 100);
  const totalCosts = fee + tax + p.operationCost;
  const expectedPrice = grossPrice + totalCosts;
  if (!Number.isSafeInteger(expectedPrice)) throw new RangeError('price beyond the safe integer range');
  return { amountMinor, rate, grossPrice, fee, tax, operationCost: p.operationCost, totalCosts, expectedPrice };
}

/** What the customer still pays after their wallet: expected minus wallet, never below zero. */
export const payablePrice = (expectedPrice: number, walletBalance: number) =>
  Math.max(0, expectedPrice - walletBalance);
