/**
 * The name of a form's precompiled validators (src/shared/validation/standalone.ts): rjsf's hash of the form's
 * schema, computed the same in Node and in the browser, so the web finds the module the build or the server made
 * for the schema it draws (`/form-validators/<key>.js`).
 */
import { hashForSchema } from '@rjsf/utils';
import type { JsonSchemaObject } from '../catalogue';

export const formValidatorKey = (schema: JsonSchemaObject): string => hashForSchema(schema as never);
