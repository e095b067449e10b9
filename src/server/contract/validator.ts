/**
 * One ajv instance holding the whole contract, with the shared keywords of src/shared/validation,
 * so the server applies exactly the rules the forms apply. Errors become one Persian message.
 */
import type { default as Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from '../../shared/validation/ajv';
import { type MessageKey, msg } from '../http/messages';

const CONTRACT_ID = 'contract';

export class ContractValidator {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly document: Record<string, unknown>) {
    this.ajv = createAjv({ useDefaults: true, coerceTypes: false });
    this.ajv.addSchema(document, CONTRACT_ID);
  }

  validator(pointer: string): ValidateFunction {
    let fn = this.cache.get(pointer);
    if (!fn) {
      fn = this.ajv.compile({ $ref: `${CONTRACT_ID}${pointer}` });
      this.cache.set(pointer, fn);
    }
    return fn;
  }

  /** One Persian message for the first error: the schema's own `x-messages` when it names one. */
  describe(errors: ErrorObject[] | null | undefined): string {
    return describeValidationError(errors, (schema) => this.deref(schema));
  }

  /** Follows a local `$ref` (as `#/components/schemas/MobileNo`) so its `x-messages` are found. */
  private deref(schema: SchemaWithMessages | undefined): SchemaWithMessages | undefined {
    let current = schema;
    for (let hops = 0; current?.$ref?.startsWith('#/') && hops < 10; hops++) {
      let node: unknown = this.document;
      for (const segment of current.$ref.slice(2).split('/')) {
        node = (node as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
      }
      current = node as SchemaWithMessages | undefined;
    }
    return current;
  }
}

type SchemaWithMessages = {
  $ref?: string;
  'x-messages'?: Record<string, string>;
  properties?: Record<string, SchemaWithMessages>;
};
type Deref = (schema: SchemaWithMessages | undefined) => SchemaWithMessages | undefined;

/** A schema may name, per keyword, the message key the user sees: `x-messages: {required: amount.required}`. */
function declaredMessage(error: ErrorObject, deref: Deref): string | null {
  const parent = error.parentSchema as SchemaWithMessages | undefined;
  if (error.keyword === 'required') {
    const missing = String(error.params.missingProperty);
    const key = deref(parent?.properties?.[missing])?.['x-messages']?.required;
    return key ? msg(key as MessageKey) : null;
  }
  const key = parent?.['x-messages']?.[error.keyword];
  return key ? msg(key as MessageKey) : null;
}

export function describeValidationError(errors: ErrorObject[] | null | undefined, deref: Deref = (s) => s): string {
  const error = errors?.[0];
  if (!error) return msg('http.badRequest');
  const declared = declaredMessage(error, deref);
  if (declared) return declared;
  const field = error.instancePath.split('/').filter(Boolean).at(-1) ?? '';
  switch (error.keyword) {
    case 'required':
      return msg('http.fieldRequired', { field: String(error.params.missingProperty) });
    case 'additionalProperties':
      return msg('http.fieldUnknown', { field: String(error.params.additionalProperty) });
    case 'unevaluatedProperties':
      return msg('http.fieldUnknown', { field: String(error.params.unevaluatedProperty) });
    case 'maxLength':
      return msg('http.fieldTooLong', { field });
    default:
      return field ? msg('http.fieldInvalid', { field }) : msg('http.badRequest');
  }
}
