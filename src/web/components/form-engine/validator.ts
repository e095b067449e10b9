/**
 * The form validator: rjsf's precompiled ajv8 validator (`createPrecompiledValidator`) over Ajv's standalone code,
 * generated ahead of time for each form with the server's shared keywords (src/shared/validation/standalone.ts), so
 * the browser runs no Ajv compiler and no `new Function` (docs/decisions/015): an entry form's code is imported
 * beside its JSON (src/generated/form-validators/), a desk's is loaded from `/form-validators/<key>.js` (written by
 * the build, or made by the server for a desk published after it). One translator turns each error into the Persian
 * message the schema names (x-messages) or one naming the field by its titles (src/shared/form-schema.ts, as the
 * server does).
 */
import type { RJSFValidationError, ValidatorType } from '@rjsf/utils';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import { useEffect, useState } from 'react';
import messages from '../../../../schemas/messages/fa.json';
import type { JsonSchemaObject } from '../../../shared/catalogue';
import { toPersianDigits } from '../../../shared/digits';
import { forDrawing, formErrorMessage, forValidation } from '../../../shared/form-schema';
import {
  instantiateValidators,
  type StandaloneValidateFunction,
  type ValidatorFactory,
} from '../../../shared/validation/standalone-runtime';
import { formValidatorKey } from '../../../shared/validation/validator-key';

const text = messages.messages as Record<string, string>;

export type FormValidator = ValidatorType;
export type FormValidators = Record<string, StandaloneValidateFunction>;

/**
 * The validator a form hands rjsf, from the form's precompiled validators: it validates every change against the
 * form's whole schema (as the server does), not the copy rjsf resolves for the values at hand (conditions merged
 * in), on which `unevaluatedProperties` is wrong, and with `dependentSchemas` in a form Ajv gets right
 * (forValidation); what rjsf asks while drawing (which branch of a condition applies) it answers from the
 * sub-schemas' validators.
 */
export function validatorFor(schema: JsonSchemaObject, validators: FormValidators): FormValidator {
  const whole = forValidation(schema);
  // rjsf is given the form as forDrawing writes it (drawnSchema), and checks its validator was made for that root.
  const forForm = createPrecompiledValidator(validators as never, drawnSchema(schema) as never) as FormValidator;
  const forWhole = createPrecompiledValidator(validators as never, whole as never) as FormValidator;
  forForm.validateFormData = (formData, _resolved, ...rest) =>
    forWhole.validateFormData(formData, whole as never, ...rest);
  return forForm;
}

/** The validators of a form whose code was imported (an entry form's, src/generated/form-validators/). */
export const importedValidators = (factory: ValidatorFactory): FormValidators => instantiateValidators(factory);

const loaded = new Map<string, Promise<FormValidators>>();

const drawn = new WeakMap<JsonSchemaObject, JsonSchemaObject>();

/** The schema handed to rjsf for `schema` (forDrawing), one object per schema so rjsf's memos hold. */
export function drawnSchema(schema: JsonSchemaObject): JsonSchemaObject {
  let found = drawn.get(schema);
  if (!found) drawn.set(schema, (found = forDrawing(schema)));
  return found;
}

/** A desk form's validators, loaded once per schema from this origin (a script, so the CSP needs no 'unsafe-eval'). */
export function loadValidators(schema: JsonSchemaObject): Promise<FormValidators> {
  const key = formValidatorKey(schema);
  let found = loaded.get(key);
  if (!found) {
    found = (import(/* @vite-ignore */ `/form-validators/${key}.js`) as Promise<{ default: ValidatorFactory }>).then(
      (module) => instantiateValidators(module.default),
    );
    // A failed load (offline, a draft the server no longer knows) is tried again on the next use.
    found.catch(() => loaded.delete(key));
    loaded.set(key, found);
  }
  return found;
}

/** The validator made for each schema from its loaded code: one per schema, however many components draw it. */
const made = new WeakMap<JsonSchemaObject, FormValidator>();
const madeFor = (schema: JsonSchemaObject, validators: FormValidators): FormValidator => {
  let found = made.get(schema);
  if (!found) made.set(schema, (found = validatorFor(schema, validators)));
  return found;
};

/** The validator of a desk form once its code has loaded; undefined until then. A failed load is thrown. */
export function useLoadedValidator(schema: JsonSchemaObject): FormValidator | undefined {
  const [state, setState] = useState<{ schema: JsonSchemaObject; validator?: FormValidator; error?: unknown }>();
  const ready = made.get(schema);
  useEffect(() => {
    if (made.has(schema)) return;
    let live = true;
    loadValidators(schema).then(
      (validators) => live && setState({ schema, validator: madeFor(schema, validators) }),
      (error: unknown) => live && setState({ schema, error }),
    );
    return () => {
      live = false;
    };
  }, [schema]);
  if (ready) return ready;
  if (state?.schema !== schema) return undefined;
  if (state.error) throw state.error;
  return state.validator;
}

/** A message of fa.json with its `{name}` placeholders filled, or undefined when there is no such key. */
const messageText = (key: string, params: Record<string, string | number> = {}) =>
  text[key]?.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    return typeof value === 'number' ? toPersianDigits(value) : String(value ?? '');
  });

/** The path of the field an rjsf error is about (`.attendees.0.name` → attendees, 0, name). */
export function errorPath(error: RJSFValidationError): string[] {
  const path = (error.property ?? '')
    .replace(/\[['"]?([^\]'"]+)['"]?\]/g, '.$1')
    .split('.')
    .filter(Boolean);
  const missing = (error.params as { missingProperty?: string } | undefined)?.missingProperty;
  if (error.name === 'required' && missing && path.at(-1) === missing) path.pop();
  return path;
}

/** Maps ajv errors to the desk schema's own Persian messages, else to one naming the field. */
export function persianErrors(schema: JsonSchemaObject) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors
      // Ajv's summary of a failed `if` repeats the branch's own error.
      .filter((error) => error.name !== 'if')
      .map((error) => {
        const message = formErrorMessage(
          schema,
          {
            keyword: error.name ?? '',
            path: errorPath(error),
            params: (error.params ?? {}) as Record<string, unknown>,
          },
          messageText,
        );
        return { ...error, message, stack: message };
      });
}
