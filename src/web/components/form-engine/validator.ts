/**
 * The form validator: rjsf's ajv8 validator extended with the same shared keywords the server uses,
 * and one translator that turns each error into the Persian message the schema names (x-messages).
 * See docs/decisions/003 on why it compiles at run time, in the desk page's own chunk.
 */
import type { RJSFValidationError } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import messages from '../../../../schemas/messages/fa.json';
import type { JsonSchemaObject } from '../../../shared/catalogue';
import { FORM_VALIDATOR_OPTIONS } from '../../../shared/validation/ajv-keywords';

const text = messages.messages as Record<string, string>;

export const formValidator = customizeValidator(FORM_VALIDATOR_OPTIONS);

/** Maps ajv errors to the desk schema's own Persian messages, falling back to a generic one. */
export function persianErrors(schema: JsonSchemaObject) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors.map((error) => {
      const field =
        error.name === 'required'
          ? String((error.params as { missingProperty?: string }).missingProperty ?? '')
          : (error.property ?? '').replace(/^\./, '');
      const declared = (schema.properties[field]?.['x-messages'] as Record<string, string> | undefined)?.[
        error.name ?? ''
      ];
      const title = String(schema.properties[field]?.title ?? field);
      const message =
        (declared && text[declared]) ||
        (error.name === 'required' ? `${title} را وارد نمایید.` : `مقدار «${title}» معتبر نیست.`);
      return { ...error, message, stack: message };
    });
}
