/**
 * A form's own tests (the `cases` of a form type): given this data, these fields are shown or hidden, required or
 * optional, and the data is valid or fails at exactly these JSON pointers. `npm run schemas:check` and the catalogue
 * page's publish run them through the catalogue check, so an edit that breaks what a case promises ("when the
 * applicant is a student, the student number is shown and required") is refused with the case's name and pointer.
 *
 * Shown and required are read from the schema rjsf draws for that data (`retrieveSchema` resolves `if`/`then`/`else`,
 * `dependentSchemas` and `allOf` of the schema forDrawing gives, as the desk page does); valid and failing from the server's own rules (the
 * shared Ajv, every error). A path is a field name or a path through nested objects (`billingAddress/city`).
 */
import { retrieveSchema, type RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { ErrorObject } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { forDrawing, forValidation } from './form-schema';
import { FORM_VALIDATOR_OPTIONS } from './validation/ajv-keywords';
import { compilerOnce } from './validation/ajv';

export interface FormCase {
  name: string;
  data: Record<string, unknown>;
  shown?: string[];
  hidden?: string[];
  required?: string[];
  optional?: string[];
  valid?: boolean;
  errors?: string[];
}

/** One way a case does not hold: where in the case (a pointer below `/cases/<i>`), and what, in Persian. */
export interface CaseFailure {
  pointer: string;
  /** English, for the command line. */
  message: string;
  key:
    | 'catalogue.problem.caseNotShown'
    | 'catalogue.problem.caseNotHidden'
    | 'catalogue.problem.caseNotRequired'
    | 'catalogue.problem.caseNotOptional'
    | 'catalogue.problem.caseUnknownField'
    | 'catalogue.problem.caseRefused'
    | 'catalogue.problem.caseErrors';
  params: Record<string, string>;
}

type Node = RJSFSchema & { properties?: Record<string, RJSFSchema>; required?: string[] };
type UiSchema = Record<string, unknown>;

let rjsfValidator: ReturnType<typeof customizeValidator> | null = null;
const validator = () => (rjsfValidator ??= customizeValidator({ AjvClass: Ajv2020, ...FORM_VALIDATOR_OPTIONS }));

/** Every property name anywhere in the schema (branches included): a case may only name fields that exist. */
function allFieldNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) allFieldNames(item, into);
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && value && typeof value === 'object')
        for (const name of Object.keys(value)) into.add(name);
      allFieldNames(value, into);
    }
  }
  return into;
}

/** The object schema rjsf draws at `path` (all but the last segment) for `data`, and the last segment's name. */
function drawnParent(root: Node, data: Record<string, unknown>, path: string) {
  const segments = path.split('/');
  const name = segments.pop()!;
  let node = retrieveSchema(validator(), root, root, data) as Node;
  let value: unknown = data;
  for (const segment of segments) {
    const child = node.properties?.[segment];
    if (!child) return null;
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined;
    node = retrieveSchema(validator(), child, root, value as never) as Node;
  }
  return { node, name };
}

function isShown(root: Node, uiSchema: UiSchema, data: Record<string, unknown>, path: string): boolean {
  const drawn = drawnParent(root, data, path);
  if (!drawn?.node.properties?.[drawn.name]) return false;
  let ui: unknown = uiSchema;
  for (const segment of path.split('/')) ui = (ui as UiSchema | undefined)?.[segment];
  return (ui as UiSchema | undefined)?.['ui:widget'] !== 'hidden';
}

function isRequired(root: Node, data: Record<string, unknown>, path: string): boolean {
  const drawn = drawnParent(root, data, path);
  return Boolean(drawn?.node.required?.includes(drawn.name));
}

const pointerOf = (instancePath: string, name?: unknown) =>
  name === undefined ? instancePath || '/' : `${instancePath}/${String(name)}`;

const compileForCases = compilerOnce({ allErrors: true });

/** Where the server's rules refuse `data`, as JSON pointers to the fields (a missing field at its own pointer). */
export function refusedAt(schema: object, data: unknown): string[] {
  const validate = compileForCases(forValidation(schema));
  if (validate(data)) return [];
  const pointers = new Set<string>();
  for (const error of validate.errors as ErrorObject[]) {
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'if') continue; // said again by the branch that failed
    if (error.keyword === 'required' || error.keyword === 'dependentRequired')
      pointers.add(pointerOf(error.instancePath, params.missingProperty));
    else if (error.keyword === 'additionalProperties')
      pointers.add(pointerOf(error.instancePath, params.additionalProperty));
    else if (error.keyword === 'unevaluatedProperties')
      pointers.add(pointerOf(error.instancePath, params.unevaluatedProperty));
    else pointers.add(pointerOf(error.instancePath));
  }
  return [...pointers].sort();
}

const persianList = (items: string[]) => items.map((i) => `«${i}»`).join('، ') || '«هیچ‌جا»';

/** The ways `formCase` does not hold for the form (none when it holds). */
export function caseFailures(form: { schema: object; uiSchema?: object }, formCase: FormCase): CaseFailure[] {
  const root = forDrawing(form.schema) as Node;
  const ui = (form.uiSchema ?? {}) as UiSchema;
  const known = allFieldNames(root);
  const failures: CaseFailure[] = [];
  const fail = (pointer: string, message: string, key: CaseFailure['key'], params: Record<string, string> = {}) =>
    failures.push({ pointer, message, key, params: { name: formCase.name, ...params } });

  const lists: Array<[keyof FormCase, (path: string) => boolean, CaseFailure['key'], string]> = [
    ['shown', (p) => isShown(root, ui, formCase.data, p), 'catalogue.problem.caseNotShown', 'is not shown'],
    ['hidden', (p) => !isShown(root, ui, formCase.data, p), 'catalogue.problem.caseNotHidden', 'is shown'],
    ['required', (p) => isRequired(root, formCase.data, p), 'catalogue.problem.caseNotRequired', 'is not required'],
    ['optional', (p) => !isRequired(root, formCase.data, p), 'catalogue.problem.caseNotOptional', 'is required'],
  ];
  for (const [list, holds, key, english] of lists) {
    for (const [i, path] of ((formCase[list] as string[] | undefined) ?? []).entries()) {
      const pointer = `/${list}/${i}`;
      if (!path.split('/').every((segment) => known.has(segment)))
        fail(pointer, `names no field of the form: ${path}`, 'catalogue.problem.caseUnknownField', { field: path });
      else if (!holds(path)) fail(pointer, `${path} ${english}`, key, { field: path });
    }
  }

  if (formCase.valid === true || formCase.errors) {
    const refused = refusedAt(root, formCase.data);
    if (formCase.valid === true && refused.length > 0)
      fail('/valid', `data is refused at ${refused.join(', ')}`, 'catalogue.problem.caseRefused', {
        pointers: persianList(refused),
      });
    if (formCase.errors) {
      const expected = [...new Set(formCase.errors)].sort();
      if (expected.join('\n') !== refused.join('\n'))
        fail(
          '/errors',
          `refused at ${refused.join(', ') || 'nothing'}, not ${expected.join(', ')}`,
          'catalogue.problem.caseErrors',
          { expected: persianList(expected), actual: persianList(refused) },
        );
    }
  }
  return failures;
}
