/**
 * A desk's effective form schema: its form type's JSON Schema with the desk's `comps` overrides applied
 * (captions, hints, required, hidden, maxLength, fixed values). The web renders it and the server
 * validates with it, so both always agree. A `comps` key is a field's path (`billingAddress/city`, or
 * `attendees/name` for a field of every row of a list); a fixed value is for a top-level field only.
 */
import type { Desk } from '../generated/schemas/desk';
import type { FormType } from '../generated/schemas/form';
import { fieldAt, itemsOf, propertyOf, type SchemaNode } from './form-schema';

export type JsonSchemaObject = {
  type: 'object';
  required: string[];
  properties: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};

export interface EffectiveForm {
  schema: JsonSchemaObject;
  uiSchema: Record<string, unknown>;
  /** Values the desk fixes (e.g. foriWire's username '-'), filled in before validation. */
  staticValues: Record<string, unknown>;
}

/** The uiSchema node of the field at `path`, made when missing (a list's row fields are under `items`). */
function uiNodeAt(root: SchemaNode, uiSchema: Record<string, unknown>, path: string[]): Record<string, unknown> {
  let ui = uiSchema;
  let schema: SchemaNode | undefined = root;
  for (const segment of path) {
    const items: SchemaNode | undefined = schema ? itemsOf(schema) : undefined;
    if (items && schema && !propertyOf(schema, segment)) {
      ui = (ui.items ??= {}) as Record<string, unknown>;
      schema = items;
    }
    ui = (ui[segment] ??= {}) as Record<string, unknown>;
    schema = schema ? fieldAt(schema, [segment]) : undefined;
  }
  return ui;
}

export function effectiveForm(desk: Desk, form: FormType): EffectiveForm {
  const schema = structuredClone(form.schema) as unknown as JsonSchemaObject;
  const uiSchema = structuredClone(form.uiSchema) as Record<string, unknown>;
  const staticValues: Record<string, unknown> = {};
  for (const [key, comp] of Object.entries(desk.comps)) {
    const path = key.split('/');
    const property = fieldAt(schema, path);
    if (!property) throw new Error(`desk ${desk.identifier}: comps names unknown field ${key}`);
    const parentField = fieldAt(schema, path.slice(0, -1))!;
    const parent = (path.length > 1 && itemsOf(parentField)) || parentField;
    const name = path.at(-1)!;
    const required = new Set((parent.required as string[] | undefined) ?? []);
    const ui = uiNodeAt(schema, uiSchema, path);
    if (comp.caption) property.title = comp.caption;
    if (comp.hint) ui['ui:help'] = comp.hint;
    if (comp.maxLength !== undefined) property.maxLength = comp.maxLength;
    if (comp.required === true) required.add(name);
    if (comp.required === false || comp.hidden) required.delete(name);
    if (comp.hidden) ui['ui:widget'] = 'hidden';
    if (comp.staticValue !== undefined) {
      if (path.length > 1) throw new Error(`desk ${desk.identifier}: a fixed value is for a top-level field (${key})`);
      property.const = comp.staticValue;
      property.default = comp.staticValue;
      staticValues[name] = comp.staticValue;
    }
    if (required.size > 0 || parent.required) parent.required = [...required];
  }
  schema.required ??= [];
  return { schema, uiSchema, staticValues };
}
