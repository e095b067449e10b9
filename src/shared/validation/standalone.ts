/**
 * Form validators as code, generated ahead of time (docs/decisions/015): Ajv's standalone code for a form's schema,
 * so the browser validates without Ajv's compiler and without `new Function` (a Content-Security-Policy with no
 * 'unsafe-eval'). Run by the build (build/form-validators.ts: every desk of schemas/), by codegen (the entry forms,
 * into src/generated/form-validators/) and by the server for a desk published after the build
 * (src/server/modules/desks/form-validators.ts). Node only: it imports Ajv's compiler, which must never reach the web.
 *
 * One module per form, holding the validators rjsf needs for it (`compileSchemaValidatorsCode`: the form's schema as
 * rjsf draws it (`forDrawing`) and each sub-schema rjsf tests while drawing it, keyed by rjsf's `hashForSchema`) plus the whole schema as
 * `forValidation` gives it, which is what a submit is validated against (as on the server). The code has no imports:
 * it is wrapped as `export default function (require) {…}` and the web passes the few runtime parts it asks for
 * (src/web/components/form-engine/precompiled.ts): Ajv's small runtime helpers, the formats and the shared rules.
 */
import { hashForSchema } from '@rjsf/utils';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import Ajv2020 from 'ajv/dist/2020.js';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import type AjvCore from 'ajv/dist/core.js';
import { STANDALONE_RUNTIME_PARTS } from './standalone-runtime';
import type { JsonSchemaObject } from '../catalogue';
import { forDrawing, forValidation } from '../form-schema';
import type { FileLimits } from '../file-fields';
import {
  FILE_FIELD_META_SCHEMA,
  NUMBER_RANGE_META_SCHEMA,
  type NumberRange,
  sharedFormatDefinitions,
  sharedFormatNames,
  STANDALONE_FORMATS,
  STANDALONE_RULES,
  standaloneRules,
} from './ajv-keywords';

/**
 * The shared rules for code generation: the same formats (looked up at run time in the object the web passes as
 * STANDALONE_FORMATS), and `numberRange` as a code keyword calling the same predicate (STANDALONE_RULES), because
 * a keyword given as a function cannot be written out as code.
 */
function addStandaloneSharedKeywords<T extends AjvCore>(ajv: T): T {
  for (const name of sharedFormatNames) ajv.addFormat(name, sharedFormatDefinitions[name]);
  if (!ajv.getKeyword('numberRange')) {
    ajv.addKeyword({
      keyword: 'numberRange',
      schemaType: 'object',
      metaSchema: NUMBER_RANGE_META_SCHEMA,
      code(cxt) {
        const range = cxt.schema as NumberRange;
        const rules = cxt.gen.scopeValue('func', { ref: standaloneRules, code: _`require(${STANDALONE_RULES})` });
        const bounds = _`{min: ${range.min}, max: ${range.max}, inclusive: ${range.inclusive ?? true}}`;
        cxt.fail(_`!${rules}.numberRangeHolds(${cxt.data}, ${bounds})`);
      },
    });
  }
  if (!ajv.getKeyword('x-file')) {
    ajv.addKeyword({
      keyword: 'x-file',
      schemaType: 'object',
      metaSchema: FILE_FIELD_META_SCHEMA,
      code(cxt) {
        const limits = cxt.schema as FileLimits;
        const rules = cxt.gen.scopeValue('func', { ref: standaloneRules, code: _`require(${STANDALONE_RULES})` });
        const declared = _`{types: ${JSON.stringify(limits.types)}, maxBytes: ${limits.maxBytes}, maxFiles: ${limits.maxFiles}}`;
        cxt.fail(_`!${rules}.fileFieldHolds(${cxt.data}, ${declared})`);
      },
    });
  }
  if (!ajv.getKeyword('x-messages')) ajv.addKeyword({ keyword: 'x-messages' });
  if (!ajv.getKeyword('x-deadline')) ajv.addKeyword({ keyword: 'x-deadline' });
  if (!ajv.getKeyword('x-title-en')) ajv.addKeyword({ keyword: 'x-title-en' });
  return ajv;
}

/** The ES module text of a form's validators. */
export function formValidatorModule(schema: JsonSchemaObject): string {
  const whole = forValidation(schema) as JsonSchemaObject;
  const wholeKey = hashForSchema(whole as never);
  // rjsf draws the form as forDrawing gives it (dependentSchemas as `dependencies`): its validators are for that.
  const code = compileSchemaValidatorsCode(forDrawing(schema) as never, {
    AjvClass: Ajv2020 as never,
    ajvOptionsOverrides: { strict: false, code: { lines: false, formats: _`require(${STANDALONE_FORMATS})` } },
    extenderFn: <T extends AjvCore>(ajv: T): T => {
      addStandaloneSharedKeywords(ajv);
      if (!ajv.getSchema(wholeKey)) ajv.addSchema({ ...whole, $id: wholeKey });
      return ajv;
    },
  });
  const required = [...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!);
  const unknown = required.filter((name) => !STANDALONE_RUNTIME_PARTS.includes(name));
  if (unknown.length > 0) throw new Error(`form validator needs unknown runtime parts: ${unknown.join(', ')}`);
  return [
    '// Generated from a form schema by src/shared/validation/standalone.ts. Do not edit by hand.',
    'export default function (require) {',
    'const exports = {};',
    'const module = { exports };',
    code,
    'return module.exports;',
    '}',
    '',
  ].join('\n');
}
