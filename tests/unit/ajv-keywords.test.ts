import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { currentJalaliYear } from '../../src/shared/calendar';
import { addSharedKeywords, sharedFormatNames } from '../../src/shared/validation/ajv-keywords';

const schema = {
  type: 'object',
  properties: {
    mobileNo: { type: 'string', format: 'mobile' },
    nationalCode: { type: 'string', format: 'nationalCode' },
    username: { type: 'string', format: 'mobileOrNationalCode' },
    firstName: { type: 'string', format: 'persianText' },
    birthDate: { type: 'string', format: 'jalaliDate' },
    emails: { type: 'string', format: 'emailList' },
    count: { type: 'string', format: 'integerString' },
    amount: { type: 'number', numberRange: { min: 0, max: 100, inclusive: false } },
    amountText: { type: 'string', numberRange: { min: 0, max: 100, inclusive: false } },
    percent: { numberRange: { min: 0, max: 100 } },
  },
};

describe('addSharedKeywords', () => {
  it('registers every shared format and is idempotent', () => {
    const ajv = new Ajv2020();
    expect(addSharedKeywords(ajv)).toBe(ajv);
    expect(() => addSharedKeywords(ajv)).not.toThrow();
    expect(sharedFormatNames).toEqual(
      expect.arrayContaining(['mobile', 'nationalCode', 'persianText', 'jalaliDate', 'emailList', 'integerString']),
    );
    for (const name of sharedFormatNames) expect(ajv.formats[name], name).toBeDefined();
    expect(ajv.getKeyword('numberRange')).toBeTruthy();
  });

  it('works beside ajv-formats, and with the draft-07 Ajv class', () => {
    const schema = {
      type: 'object',
      properties: { e: { type: 'string', format: 'email' }, m: { type: 'string', format: 'mobile' } },
    };
    for (const ajv of [addSharedKeywords(addFormats(new Ajv2020())), addSharedKeywords(addFormats(new Ajv()))]) {
      const validate = ajv.compile(schema);
      expect(validate({ e: 'a@b.co', m: '09123456789' })).toBe(true);
      expect(validate({ m: '0912' })).toBe(false);
      expect(validate({ e: 'a@' })).toBe(false);
    }
  });
});

describe('shared rules through a real Ajv2020 schema', () => {
  const warnings: unknown[] = [];
  const ajv = addSharedKeywords(
    new Ajv2020({ logger: { log: () => {}, warn: (...a) => warnings.push(a), error: () => {} } }),
  );
  addSharedKeywords(ajv);
  const validate = ajv.compile(schema);

  it('compiles without strict-mode warnings', () => {
    expect(warnings).toEqual([]);
  });

  it('accepts valid data, Persian digits included', () => {
    const year = currentJalaliYear();
    expect(
      validate({
        mobileNo: '۰۹۱۲۳۴۵۶۷۸۹',
        nationalCode: '0499370899',
        username: '0013542419',
        firstName: 'علی‌رضا',
        birthDate: '۱۳۷۰/۰۶/۳۱',
        emails: 'a@b.co، c@d.io',
        count: '-۱۲',
        amount: 50,
        amountText: '۹۹٫۵',
        percent: '۱۰۰',
      }),
      JSON.stringify(validate.errors),
    ).toBe(true);
    expect(validate({ username: '09123456789', birthDate: `${year}/01/01` })).toBe(true);
  });

  it('refuses each invalid field with a format or numberRange error', () => {
    const year = currentJalaliYear();
    const cases: [string, unknown, string][] = [
      ['mobileNo', '0912', 'format'],
      ['nationalCode', '1111111111', 'format'],
      ['nationalCode', '0499370898', 'format'],
      ['username', 'ali', 'format'],
      ['firstName', 'Ali', 'format'],
      ['birthDate', '1404/12/30', 'format'],
      ['birthDate', '1370/07/31', 'format'],
      ['birthDate', '1299/01/01', 'format'],
      ['birthDate', `${year + 1}/01/01`, 'format'],
      ['emails', 'a@b.co,,', 'format'],
      ['count', '1.5', 'format'],
      ['amount', 0, 'numberRange'],
      ['amount', 100, 'numberRange'],
      ['amountText', '100', 'numberRange'],
      ['amountText', '۰', 'numberRange'],
      ['amountText', 'abc', 'numberRange'],
      ['amountText', '', 'numberRange'],
      ['percent', 100.5, 'numberRange'],
    ];
    for (const [field, value, keyword] of cases) {
      expect(validate({ [field]: value }), `${field}=${String(value)}`).toBe(false);
      expect(validate.errors?.[0]?.keyword).toBe(keyword);
      expect(validate.errors?.[0]?.instancePath).toBe(`/${field}`);
    }
  });

  it('leaves non-numeric types to the type keyword and checks inclusive bounds', () => {
    expect(validate({ percent: 0 })).toBe(true);
    expect(validate({ percent: 100 })).toBe(true);
    expect(validate({ percent: true })).toBe(true);
    expect(validate({ amount: true })).toBe(false);
    expect(validate.errors?.[0]?.keyword).toBe('type');
  });

  it('refuses a malformed numberRange in a schema', () => {
    expect(() => ajv.compile({ numberRange: { min: 0 } })).toThrow();
    expect(() => ajv.compile({ numberRange: { min: 0, max: '9' } })).toThrow();
  });
});
