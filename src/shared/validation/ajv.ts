/**
 * The one way this project makes an Ajv: ajv-formats, then the shared Persian rules (ajv-keywords.ts: formats,
 * `numberRange`, `x-messages` as an annotation). The server's contract validator, its desk-form validator and
 * codegen's schema check call createAjv with the 2020-12 class; the web's rjsf builds its own draft-07 Ajv
 * (with ajv-formats) and takes the same rules from FORM_VALIDATOR_OPTIONS. The class is a parameter so this
 * file stays free of any Ajv class and costs the web bundle nothing it does not already load.
 */
import type { Options } from 'ajv';
import type AjvCore from 'ajv/dist/core';
import addFormats from 'ajv-formats';
import { addSharedKeywords } from './ajv-keywords';

/** What every server-side validator shares: unknown keywords ignored, first error only, with its schema. */
export const AJV_DEFAULTS: Readonly<Options> = { strict: false, allErrors: false, verbose: true };

export function createAjv<T extends AjvCore>(AjvClass: new (options: Options) => T, options: Options = {}): T {
  const ajv = new AjvClass({ ...AJV_DEFAULTS, ...options });
  addFormats(ajv);
  return addSharedKeywords(ajv);
}

/** The options for rjsf's customizeValidator: its own Ajv (every error, for every field), our rules on top. */
export const FORM_VALIDATOR_OPTIONS = {
  ajvOptionsOverrides: { strict: false },
  extenderFn: <T extends AjvCore>(ajv: T): T => addSharedKeywords(ajv),
};
