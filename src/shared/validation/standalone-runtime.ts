/**
 * What a precompiled form validator (src/shared/validation/standalone.ts) asks for at run time, by the name its code
 * gives: two of Ajv's small runtime helpers, every format (ajv-formats' and the shared ones, as Ajv keeps them) and
 * the shared rules. None of this is Ajv's compiler. The web runs a validator module through `instantiateValidators`;
 * the generator refuses a module that would ask for anything else.
 */
import * as equal from 'ajv/dist/runtime/equal.js';
import * as ucs2length from 'ajv/dist/runtime/ucs2length.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { STANDALONE_FORMATS, STANDALONE_RULES, sharedFormatDefinitions, standaloneRules } from './ajv-keywords';

/** The function a CommonJS module exports as `default`, however the importer wrapped it (Node and Vite differ). */
function defaultExport(module: unknown): unknown {
  let found = module;
  while (typeof found === 'object' && found !== null && 'default' in found) found = found.default;
  return found;
}

const RUNTIME: Record<string, unknown> = {
  'ajv/dist/runtime/equal': { default: defaultExport(equal) },
  'ajv/dist/runtime/ucs2length': { default: defaultExport(ucs2length) },
  [STANDALONE_FORMATS]: { ...fullFormats, ...sharedFormatDefinitions },
  [STANDALONE_RULES]: standaloneRules,
};

export const STANDALONE_RUNTIME_PARTS: readonly string[] = Object.keys(RUNTIME);

/** A validator function as Ajv's standalone code exports it. */
export type StandaloneValidateFunction = ((data: unknown) => boolean) & { errors?: unknown[] | null };

/** A module of precompiled validators exports this by default: it takes `require` and returns the validators by key. */
export type ValidatorFactory = (require: (name: string) => unknown) => Record<string, StandaloneValidateFunction>;

export function instantiateValidators(factory: ValidatorFactory): Record<string, StandaloneValidateFunction> {
  return factory((name) => {
    if (!(name in RUNTIME)) throw new Error(`a form validator asked for an unknown part: ${name}`);
    return RUNTIME[name];
  });
}
