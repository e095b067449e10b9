/**
 * Registers the shared rules on an ajv instance (Ajv, Ajv2020, rjsf's validator), as string formats
 * and the `numberRange` keyword, so a JSON Schema says `format: nationalCode` and both the form and
 * the server apply isValidNationalCode.
 */
import type AjvCore from 'ajv/dist/core';
import {
  isInRange,
  isInteger,
  isPersianText,
  isValidEmailList,
  isValidJalaliDate,
  isValidMobile,
  isValidNationalCode,
} from './index';

const FORMATS = {
  mobile: isValidMobile,
  nationalCode: isValidNationalCode,
  mobileOrNationalCode: (s: string) => isValidMobile(s) || isValidNationalCode(s),
  persianText: isPersianText,
  jalaliDate: (s: string) => isValidJalaliDate(s),
  emailList: isValidEmailList,
  integerString: (s: string) => isInteger(s),
} satisfies Record<string, (s: string) => boolean>;

export type SharedFormatName = keyof typeof FORMATS;
export const sharedFormatNames = Object.keys(FORMATS) as readonly SharedFormatName[];

/** Value of the `numberRange` keyword: bounds for a number or a numeric string. */
export interface NumberRange {
  min: number;
  max: number;
  inclusive?: boolean;
}

/** Adds the shared formats, the `numberRange` keyword and `x-messages`; safe to call more than once on one instance. */
export function addSharedKeywords<T extends AjvCore>(ajv: T): T {
  // addFormat replaces a format of the same name, so the shared rule always wins.
  for (const name of sharedFormatNames) ajv.addFormat(name, { type: 'string', validate: FORMATS[name] });
  if (!ajv.getKeyword('numberRange')) {
    ajv.addKeyword({
      keyword: 'numberRange',
      // No `type`: applies to numbers and strings, ignores other types, and asks nothing of strictTypes.
      schemaType: 'object',
      metaSchema: {
        type: 'object',
        required: ['min', 'max'],
        properties: { min: { type: 'number' }, max: { type: 'number' }, inclusive: { type: 'boolean' } },
        additionalProperties: false,
      },
      validate: (range: NumberRange, data: unknown) =>
        typeof data === 'number' || typeof data === 'string'
          ? isInRange(data, range.min, range.max, { inclusive: range.inclusive ?? true })
          : true,
      errors: false,
    });
  }
  // The Persian message keys a schema names per keyword: read by the error translators, not a rule.
  if (!ajv.getKeyword('x-messages')) ajv.addKeyword({ keyword: 'x-messages' });
  return ajv;
}

/**
 * The web's form validator, rjsf's customizeValidator, takes these: rjsf makes its own draft-07 Ajv (every error,
 * for every field, with its own ajv-formats) and adds the shared rules here. The server's and codegen's Ajv come
 * from createAjv in ajv.ts.
 */
export const FORM_VALIDATOR_OPTIONS = {
  ajvOptionsOverrides: { strict: false },
  extenderFn: <T extends AjvCore>(ajv: T): T => addSharedKeywords(ajv),
};
