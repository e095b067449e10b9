/**
 * The form validator: rjsf's ajv8 validator on Ajv's draft 2020-12 class (so `dependentRequired`,
 * `dependentSchemas` and `unevaluatedProperties` mean what they mean on the server) extended with the same shared
 * keywords the server uses, and one translator that turns each error into the Persian message the schema names
 * (x-messages) or one naming the field by its titles (src/shared/form-schema.ts, as the server does).
 * See docs/decisions/003 on why it compiles at run time, in the desk page's own chunk.
 */
import type { RJSFValidationError } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import Ajv2020 from 'ajv/dist/2020';
import messages from '../../../../schemas/messages/fa.json';
import type { JsonSchemaObject } from '../../../shared/catalogue';
import { formErrorMessage, forValidation } from '../../../shared/form-schema';
import { FORM_VALIDATOR_OPTIONS } from '../../../shared/validation/ajv-keywords';

const text = messages.messages as Record<string, string>;

export const formValidator = customizeValidator({ ...FORM_VALIDATOR_OPTIONS, AjvClass: Ajv2020 });

/**
 * The validator a form hands rjsf: it validates every change against the form's whole schema (as the server does),
 * not the copy rjsf resolves for the values at hand (conditions merged in), on which `unevaluatedProperties` is
 * wrong, and with `dependentSchemas` in a form Ajv gets right (forValidation).
 */
export function validatorFor(schema: JsonSchemaObject): typeof formValidator {
  const whole = forValidation(schema);
  const validator = Object.create(formValidator) as typeof formValidator;
  validator.validateFormData = (formData, _resolved, ...rest) =>
    formValidator.validateFormData(formData, whole as never, ...rest);
  return validator;
}

/** A message of fa.json with its `{name}` placeholders filled, or undefined when there is no such key. */
const messageText = (key: string, params: Record<string, string | number> = {}) =>
  text[key]?.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));

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
