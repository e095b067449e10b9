/** The one Ajv factory (docs/architecture.md, «Shared rules»): src/shared/validation/ajv.ts, used by the server, codegen and the web. */
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/shared/validation/ajv';
import { FORM_VALIDATOR_OPTIONS } from '../../src/shared/validation/ajv-keywords';

const schema = {
  type: 'object',
  properties: {
    mobileNo: { type: 'string', format: 'mobile', 'x-messages': { format: 'login.mobileNo.invalid' } },
    email: { type: 'string', format: 'email' },
    amount: { type: 'number', numberRange: { min: 0, max: 100 } },
  },
};

describe('createAjv', () => {
  it('knows ajv-formats, the shared formats and keywords, and x-messages, even in strict mode', () => {
    for (const ajv of [createAjv(), createAjv({ strict: true, allErrors: true })]) {
      const validate = ajv.compile(schema);
      expect(validate({ mobileNo: '۰۹۱۲۳۴۵۶۷۸۹', email: 'a@b.co', amount: 100 })).toBe(true);
      expect(validate({ mobileNo: '0912' })).toBe(false);
      expect(validate({ email: 'a@' })).toBe(false);
      expect(validate({ amount: 101 })).toBe(false);
    }
  });

  it('stops at the first error and keeps its schema by default, as the server reports one Persian message', () => {
    const validate = createAjv().compile(schema);
    expect(validate({ mobileNo: '0912', email: 'a@' })).toBe(false);
    expect(validate.errors).toHaveLength(1);
    expect(validate.errors?.[0]?.parentSchema).toMatchObject({ 'x-messages': { format: 'login.mobileNo.invalid' } });
  });

  it("gives the web's rjsf validator the same rules on its own draft-07 Ajv", () => {
    const ajv = FORM_VALIDATOR_OPTIONS.extenderFn(new Ajv({ ...FORM_VALIDATOR_OPTIONS.ajvOptionsOverrides }));
    const validate = ajv.compile({ type: 'object', properties: schema.properties });
    expect(validate({ mobileNo: '09123456789', amount: 5 })).toBe(true);
    expect(validate({ amount: -1 })).toBe(false);
  });
});
