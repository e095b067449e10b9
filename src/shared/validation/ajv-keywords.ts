/**
 * Registers the shared rules on an ajv instance, as formats (strings) and the `numberRange` keyword,
 * so a JSON Schema says `format: nationalCode` and both the form and the server apply isValidNationalCode.
 */
import type Ajv from 'ajv';
import {
  isInRange,
  isInteger,
  isPersianText,
  isValidEmailList,
  isValidJalaliDate,
  isValidMobile,
  isValidNationalCode,
} from './index';

const FORMATS: Record<string, (s: string) => boolean> = {
  mobile: isValidMobile,
  nationalCode: isValidNationalCode,
  mobileOrNationalCode: (s) => isValidMobile(s) || isValidNationalCode(s),
  persianText: isPersianText,
  jalaliDate: (s) => isValidJalaliDate(s),
  emailList: isValidEmailList,
  integerString: isInteger,
};

export const sharedFormatNames = Object.keys(FORMATS);

interface NumberRange {
  min: number;
  max: number;
  inclusive?: boolean;
}

export function addSharedKeywords(ajv: Ajv): Ajv {
  for (const [name, validate] of Object.entries(FORMATS)) {
    if (!ajv.formats[name]) ajv.addFormat(name, { type: 'string', validate });
  }
  if (!ajv.getKeyword('numberRange')) {
    ajv.addKeyword({
      keyword: 'numberRange',
      type: ['number', 'string'],
      schemaType: 'object',
      validate: (range: NumberRange, data: number | string) =>
        isInRange(data, range.min, range.max, { inclusive: range.inclusive ?? true }),
      errors: false,
    });
  }
  return ajv;
}
