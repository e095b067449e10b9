/**
 * System parameters as people read and type them (docs/architecture.md, settings): the one conversion between stored values
 * and rial, percent, seconds and whole currency units, and the checks against each definition.
 */
import { describe, expect, it } from 'vitest';
import defaults from '../../schemas/config/systemParameters.json' with { type: 'json' };
import {
  checkParameter,
  describeParameter,
  displayParameter,
  inputParameter,
  type ParameterDefinition,
  parseParameter,
} from '../../src/shared/system-parameters';

const definitions = defaults.parameters as Array<ParameterDefinition & { value: number }>;
const def = (key: string) => definitions.find((d) => d.key === key)!;

describe('display', () => {
  it('shows rial with thousands separators and foreign cents in whole currency units', () => {
    expect(describeParameter('rial', 500000)).toBe('۵۰۰٬۰۰۰ ریال');
    expect(describeParameter('currencyCents', 100)).toBe('۱ واحد ارز');
    expect(displayParameter('currencyCents', 1000050)).toBe('۱۰٬۰۰۰٫۵');
    expect(describeParameter('percent', 2.5)).toBe('۲٫۵ درصد');
    expect(describeParameter('seconds', 86400)).toBe('۸۶٬۴۰۰ ثانیه');
    expect(inputParameter('rial', 500000)).toBe('500,000');
    expect(inputParameter('currencyCents', 1000050)).toBe('10,000.5');
  });
});

describe('typing', () => {
  it('reads any digits and separators back to the stored value', () => {
    expect(parseParameter('rial', '۷۵۰,۰۰۰')).toBe(750000);
    expect(parseParameter('rial', ' 1,000,000 ')).toBe(1000000);
    expect(parseParameter('currencyCents', '12.34')).toBe(1234);
    expect(parseParameter('currencyCents', '0.29')).toBe(29);
    expect(parseParameter('currencyCents', '۱۰٫۵')).toBe(1050);
    expect(parseParameter('percent', '2.5')).toBe(2.5);
    expect(parseParameter('seconds', '300')).toBe(300);
  });

  it('gives null for what is not a non-negative number', () => {
    for (const text of ['', 'abc', '-5', '1.2.3', '1e5', '.']) expect(parseParameter('rial', text), text).toBeNull();
  });

  it('round-trips every default through display and typing', () => {
    for (const d of definitions) {
      expect(parseParameter(d.unit, displayParameter(d.unit, Number(d.value))), d.key).toBe(d.value);
      expect(parseParameter(d.unit, inputParameter(d.unit, Number(d.value))), d.key).toBe(d.value);
    }
  });
});

describe('checks', () => {
  it('accepts every default and names what is wrong in Persian terms', () => {
    for (const d of definitions) expect(checkParameter(d, Number(d.value)), d.key).toBeNull();
    expect(checkParameter(def('fixedFee'), parseParameter('rial', '12.5')!)).toEqual({
      key: 'systemParameter.notInteger',
      params: { title: 'کارمزد ثابت' },
    });
    expect(checkParameter(def('minAmount'), parseParameter('currencyCents', '1.234')!)?.key).toBe(
      'systemParameter.tooPrecise',
    );
    expect(checkParameter(def('feePercent'), 2.555)?.key).toBe('systemParameter.tooPrecise');
    expect(checkParameter(def('feePercent'), 101)).toEqual({
      key: 'systemParameter.outOfRange',
      params: { title: 'کارمزد خدمات', min: '۰ درصد', max: '۱۰۰ درصد' },
    });
    expect(checkParameter(def('minAmount'), 0)?.key).toBe('systemParameter.outOfRange');
  });
});
