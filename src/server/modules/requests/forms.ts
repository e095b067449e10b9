/**
 * A desk's form as requests check and keep it: the desk a request names, validating fields with the first error's
 * Persian message, and the form version (with its hash) a request is validated against.
 */
import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import {
  formErrorMessage,
  forValidation,
  pointerSegments,
  propertyOf,
  type SchemaNode,
} from '../../../shared/form-schema';
import { HttpError } from '../../http/errors';
import { type MessageKey, msg } from '../../http/messages';
import messageCatalogue from '../../../../schemas/messages/fa.json' with { type: 'json' };
import { createAjv } from '../../../shared/validation/ajv';
import type { Catalogue, DeskForm } from '../desks';

/** The form a request keeps (table form_versions): what validated its fields and titles them later. */
export interface StoredForm {
  schema: SchemaNode;
  uiSchema: SchemaNode;
  priceInputs: string[];
  staffOnlyFields: string[];
}

const messageTexts = messageCatalogue.messages;

/**
 * Compiled validators and form versions, kept per desk form: a published version replaces the desk form (never
 * changes it), so its validators are compiled anew and the old ones go with it.
 */
export interface FormCache {
  // The same formats the web's rjsf validator knows (ajv-formats) plus the shared keywords.
  ajv: ReturnType<typeof createAjv>;
  validators: WeakMap<DeskForm, Partial<Record<FormPart, ValidateFunction>>>;
  versions: WeakMap<DeskForm, { hash: string; form: StoredForm }>;
}

/** What of a desk's form is validated: the whole request, or only the price inputs a quote needs. */
type FormPart = 'fields' | 'price';

export function formCache(): FormCache {
  return { ajv: createAjv(), validators: new WeakMap(), versions: new WeakMap() };
}

export function deskFormOrThrow(deps: { catalogue: Catalogue }, identifier: string): DeskForm {
  const deskForm = deps.catalogue.deskForm(identifier);
  if (!deskForm) throw HttpError.of(404, 'desk.notFound');
  if (deskForm.desk.underConstruction) throw HttpError.of(422, 'desk.underConstruction');
  return deskForm;
}

/** Refuses `data` with the first error's Persian message (the field's `x-messages`, else one naming it). */
export function validate(
  deps: { forms: FormCache },
  deskForm: DeskForm,
  part: FormPart,
  schema: SchemaNode,
  data: unknown,
): void {
  let compiled = deps.forms.validators.get(deskForm);
  if (!compiled) deps.forms.validators.set(deskForm, (compiled = {}));
  const fn = (compiled[part] ??= deps.forms.ajv.compile(forValidation(schema)));
  if (fn(data)) return;
  const error = fn.errors?.[0];
  if (!error) throw HttpError.of(400, 'http.badRequest');
  const message = formErrorMessage(
    schema,
    { keyword: error.keyword, path: pointerSegments(error.instancePath), params: error.params },
    (k, params) => (k in messageTexts ? msg(k as MessageKey, params) : undefined),
  );
  throw new HttpError(400, message);
}

/** Only the price inputs, each required: a quote needs nothing else. */
export function validatePriceInputs(
  deps: { forms: FormCache },
  deskForm: DeskForm,
  input: Record<string, unknown>,
): void {
  const { schema, form } = deskForm;
  const properties = Object.fromEntries(form.priceInputs.map((f) => [f, propertyOf(schema, f)]));
  validate(deps, deskForm, 'price', { type: 'object', required: form.priceInputs, properties }, input);
}

/** The desk's effective form as a request keeps it, and the hash that names this version. */
export function formVersionOf(deps: { forms: FormCache }, deskForm: DeskForm): { hash: string; form: StoredForm } {
  let version = deps.forms.versions.get(deskForm);
  if (!version) {
    const form: StoredForm = {
      schema: deskForm.schema,
      uiSchema: deskForm.uiSchema,
      priceInputs: deskForm.form.priceInputs,
      staffOnlyFields: deskForm.form.staffOnlyFields ?? [],
    };
    version = { hash: createHash('sha256').update(canonicalJson(form)).digest('hex'), form };
    deps.forms.versions.set(deskForm, version);
  }
  return version;
}

/** JSON with sorted keys, so the same body always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
