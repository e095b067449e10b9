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
import { fileFieldHolds, type FileLimits } from '../file-fields';
import { isForeignReference } from './foreign-reference';

const FORMATS = {
  mobile: isValidMobile,
  nationalCode: isValidNationalCode,
  mobileOrNationalCode: (s: string) => isValidMobile(s) || isValidNationalCode(s),
  persianText: isPersianText,
  jalaliDate: (s: string) => isValidJalaliDate(s),
  emailList: isValidEmailList,
  integerString: (s: string) => isInteger(s),
  sevisId: (s: string) => isForeignReference('sevisId', s),
  passportNumber: (s: string) => isForeignReference('passportNumber', s),
  etsOrderNumber: (s: string) => isForeignReference('etsOrderNumber', s),
  latinName: (s: string) => isForeignReference('latinName', s),
} satisfies Record<string, (s: string) => boolean>;

export type SharedFormatName = keyof typeof FORMATS;
export const sharedFormatNames = Object.keys(FORMATS) as readonly SharedFormatName[];

/** Value of the `numberRange` keyword: bounds for a number or a numeric string. */
export interface NumberRange {
  min: number;
  max: number;
  inclusive?: boolean;
}

/** The shared formats as Ajv keeps a format: what a precompiled validator looks a format up in, beside ajv-formats'. */
export const sharedFormatDefinitions = Object.fromEntries(
  sharedFormatNames.map((name) => [name, { type: 'string', validate: FORMATS[name] }]),
) as Record<SharedFormatName, { type: 'string'; validate: (s: string) => boolean }>;

/** The `numberRange` rule: a number or numeric string within the range; other types are not its business. */
export const numberRangeHolds = (data: unknown, range: NumberRange): boolean =>
  typeof data === 'number' || typeof data === 'string'
    ? isInRange(data, range.min, range.max, { inclusive: range.inclusive ?? true })
    : true;

export const NUMBER_RANGE_META_SCHEMA = {
  type: 'object',
  required: ['min', 'max'],
  properties: { min: { type: 'number' }, max: { type: 'number' }, inclusive: { type: 'boolean' } },
  additionalProperties: false,
} as const;

/**
 * The names under which a precompiled validator asks for the shared formats (every format, ajv-formats' and ours)
 * and the shared rules (`numberRange`); see src/shared/validation/standalone.ts.
 */
export const STANDALONE_FORMATS = 'arzpay:formats';
export const STANDALONE_RULES = 'arzpay:rules';
export const standaloneRules = { numberRangeHolds, fileFieldHolds };

/** Value of the `x-file` keyword: what a file field takes (src/shared/file-fields.ts). */
export const FILE_FIELD_META_SCHEMA = {
  type: 'object',
  required: ['types', 'maxBytes', 'maxFiles'],
  properties: {
    types: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: ['pdf', 'jpeg', 'png', 'webp'] } },
    maxBytes: { type: 'integer', minimum: 1 },
    maxFiles: { type: 'integer', minimum: 1 },
  },
  additionalProperties: false,
} as const;

/** Adds the shared formats, the `numberRange` keyword, `x-messages` and `x-deadline`; safe to call more than once on one instance. */
export function addSharedKeywords<T extends AjvCore>(ajv: T): T {
  // addFormat replaces a format of the same name, so the shared rule always wins.
  for (const name of sharedFormatNames) ajv.addFormat(name, sharedFormatDefinitions[name]);
  if (!ajv.getKeyword('numberRange')) {
    ajv.addKeyword({
      keyword: 'numberRange',
      // No `type`: applies to numbers and strings, ignores other types, and asks nothing of strictTypes.
      schemaType: 'object',
      metaSchema: NUMBER_RANGE_META_SCHEMA,
      validate: (range: NumberRange, data: unknown) => numberRangeHolds(data, range),
      errors: false,
    });
  }
  // A file field's limits: at most maxFiles stored paths, each of a declared type (the bytes are the server's).
  if (!ajv.getKeyword('x-file')) {
    ajv.addKeyword({
      keyword: 'x-file',
      schemaType: 'object',
      metaSchema: FILE_FIELD_META_SCHEMA,
      validate: (limits: FileLimits, data: unknown) => fileFieldHolds(data, limits),
      errors: false,
    });
  }
  // The Persian message keys a schema names per keyword: read by the error translators, not a rule.
  if (!ajv.getKeyword('x-messages')) ajv.addKeyword({ keyword: 'x-messages' });
  // Marks the field holding a request's deadline (shared/deadline.ts): read by the server, not a rule.
  if (!ajv.getKeyword('x-deadline')) ajv.addKeyword({ keyword: 'x-deadline' });
  // A field's English title, printed on the proof letter (docs/decisions/040-proof-letter.md).
  if (!ajv.getKeyword('x-title-en')) ajv.addKeyword({ keyword: 'x-title-en' });
  return ajv;
}

/**
 * What rjsf's customizeValidator takes to compile a form with the shared rules at run time (every error, for every
 * field): no longer used by the web, whose validators are generated ahead of time (standalone.ts); kept for tests
 * that compare a form the way rjsf compiles it. The server's and codegen's Ajv come from createAjv in ajv.ts.
 */
export const FORM_VALIDATOR_OPTIONS = {
  ajvOptionsOverrides: { strict: false },
  extenderFn: <T extends AjvCore>(ajv: T): T => addSharedKeywords(ajv),
};
