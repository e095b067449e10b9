/**
 * System parameters as people read and type them. Definitions (Persian title, unit, bounds) live in
 * schemas/config/systemParameters.json; this is the one place that converts between the stored value and
 * what a person sees: rial and seconds as they are, percentages as they are, and foreign amounts, stored in
 * hundredths (cents), shown and typed in whole currency units.
 */
import { toEnglishDigits } from './digits';
import { formatNumber, groupNumber } from './format';

export type ParameterUnit = 'percent' | 'rial' | 'currencyCents' | 'seconds' | 'hours' | 'requests' | 'days';

export interface ParameterDefinition {
  key: string;
  title: string;
  unit: ParameterUnit;
  minimum?: number;
  maximum: number;
  notAbove?: string;
}

export const UNIT_LABEL: Record<ParameterUnit, string> = {
  percent: 'درصد',
  rial: 'ریال',
  currencyCents: 'واحد ارز',
  seconds: 'ثانیه',
  hours: 'ساعت',
  requests: 'درخواست',
  days: 'روز',
};

/** Stored units per displayed unit. */
const SCALE: Record<ParameterUnit, number> = {
  percent: 1,
  rial: 1,
  currencyCents: 100,
  seconds: 1,
  hours: 1,
  requests: 1,
  days: 1,
};
/** Decimals a person may type. */
const DECIMALS: Record<ParameterUnit, number> = {
  percent: 2,
  rial: 0,
  currencyCents: 2,
  seconds: 0,
  hours: 0,
  requests: 0,
  days: 0,
};

/** The stored value as a person reads it, in Persian digits: 1000000 cents -> '۱۰٬۰۰۰'. */
export function displayParameter(unit: ParameterUnit, stored: number): string {
  return formatNumber(stored / SCALE[unit]);
}

/** The stored value as its field's text, Latin digits with en-US separators: 1000000 cents -> '10,000'. */
export function inputParameter(unit: ParameterUnit, stored: number): string {
  return groupNumber(stored / SCALE[unit]);
}

/** displayParameter plus the unit: '۵۰۰٬۰۰۰ ریال'. */
export function describeParameter(unit: ParameterUnit, stored: number): string {
  return `${displayParameter(unit, stored)} ${UNIT_LABEL[unit]}`;
}

/**
 * What a person typed (any digits, thousands separators, '٫' or '.' as the point) as the stored value;
 * null when it is not a non-negative number. Too many decimals are left for checkParameter to name.
 */
export function parseParameter(unit: ParameterUnit, text: string): number | null {
  const clean = toEnglishDigits(text.trim())
    .replace(/[,٬\s]/g, '')
    .replace('٫', '.');
  const match = /^(\d+)(?:\.(\d*))?$/.exec(clean);
  if (!match) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  // Integer arithmetic on the digits, so 0.29 × 100 is 29, not 28.999999999999996.
  const scale = SCALE[unit];
  const places = Math.round(Math.log10(scale));
  const digits = `${match[1]}${fraction.padEnd(Math.max(places, fraction.length), '0')}`;
  const value = Number(digits) / 10 ** Math.max(0, fraction.length - places);
  return Number.isFinite(value) ? value : null;
}

export type ParameterProblem =
  | { key: 'systemParameter.notInteger' | 'systemParameter.tooPrecise'; params: { title: string } }
  | { key: 'systemParameter.outOfRange'; params: { title: string; min: string; max: string } };

/** Whether a stored value fits its definition: no more decimals than its unit stores, within the bounds. */
export function checkParameter(def: ParameterDefinition, stored: number): ParameterProblem | null {
  // Stored decimals: percentages keep the two a person may type; every other unit is stored whole.
  const storedDecimals = DECIMALS[def.unit] - Math.round(Math.log10(SCALE[def.unit]));
  const shifted = stored * 10 ** storedDecimals;
  if (Math.abs(shifted - Math.round(shifted)) > 1e-9) {
    // Named as a person types it: whole rial and seconds, two decimals of a percent or a currency unit.
    const key = DECIMALS[def.unit] === 0 ? 'systemParameter.notInteger' : 'systemParameter.tooPrecise';
    return { key, params: { title: def.title } };
  }
  const min = def.minimum ?? 0;
  if (stored < min || stored > def.maximum) {
    return {
      key: 'systemParameter.outOfRange',
      params: {
        title: def.title,
        min: describeParameter(def.unit, min),
        max: describeParameter(def.unit, def.maximum),
      },
    };
  }
  return null;
}
