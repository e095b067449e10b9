/**
 * The one way the server and codegen make an Ajv: draft 2020-12, ajv-formats, then the shared Persian rules
 * (ajv-keywords.ts: formats, `numberRange`, `x-messages` as an annotation). The contract validator, the desk-form
 * validator in requests and codegen's schema check all call createAjv. The web runs no Ajv: its forms validate with
 * code generated ahead of time from the same rules (standalone.ts, decision 015).
 */
import Ajv2020, { type Options } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { addSharedKeywords } from './ajv-keywords';

/** What every server-side validator shares: unknown keywords ignored, first error only, with its schema. */
export const AJV_DEFAULTS: Readonly<Options> = { strict: false, allErrors: false, verbose: true };

export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ ...AJV_DEFAULTS, ...options });
  addFormats(ajv);
  return addSharedKeywords(ajv);
}
