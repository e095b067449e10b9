/**
 * The one way the server and codegen make an Ajv: draft 2020-12, ajv-formats, then the shared Persian rules
 * (ajv-keywords.ts: formats, `numberRange`, `x-messages` as an annotation). The contract validator, the desk-form
 * validator in requests and codegen's schema check all call createAjv. The web runs no Ajv: its forms validate with
 * code generated ahead of time from the same rules (standalone.ts, decision 015).
 */
import Ajv2020, { type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { addSharedKeywords } from './ajv-keywords';

/** What every server-side validator shares: unknown keywords ignored, first error only, with its schema. */
export const AJV_DEFAULTS: Readonly<Options> = { strict: false, allErrors: false, verbose: true };

export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ ...AJV_DEFAULTS, ...options });
  addFormats(ajv);
  return addSharedKeywords(ajv);
}

/**
 * A compiler that compiles a schema once per distinct content on one Ajv of `options`: the catalogue check compiles
 * the same forms on every start and every publish check (and the test suites start hundreds of servers in one
 * process), and one compile costs tens of milliseconds. At most `limit` validators are kept; the oldest is dropped,
 * from Ajv's own cache too, so a long-running server that checks many published versions does not grow.
 */
export function compilerOnce(options: Options, limit = 32): (schema: object) => ValidateFunction {
  let ajv: Ajv2020 | null = null;
  const compiled = new Map<string, ValidateFunction>();
  return (schema) => {
    const key = JSON.stringify(schema);
    const known = compiled.get(key);
    if (known) return known;
    ajv ??= createAjv(options);
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(schema);
    } catch {
      // A schema whose `$id` an earlier content took here compiles on an Ajv of its own, or says why it cannot.
      return createAjv(options).compile(schema);
    }
    if (compiled.size >= limit) {
      const [oldestKey, oldest] = compiled.entries().next().value!;
      compiled.delete(oldestKey);
      ajv.removeSchema(oldest.schema as object);
    }
    compiled.set(key, validate);
    return validate;
  };
}
