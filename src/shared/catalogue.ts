/**
 * A desk's effective form schema: its form type's JSON Schema with the desk's `comps` overrides applied
 * (captions, hints, required, hidden, maxLength, fixed values). The web renders it and the server
 * validates with it, so both always agree.
 */
import type { Desk } from '../generated/schemas/desk';
import type { FormType } from '../generated/schemas/form';

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

export function effectiveForm(desk: Desk, form: FormType): EffectiveForm {
  const schema = structuredClone(form.schema) as JsonSchemaObject;
  const uiSchema = structuredClone(form.uiSchema) as Record<string, Record<string, unknown>>;
  const required = new Set(schema.required);
  const staticValues: Record<string, unknown> = {};
  for (const [field, comp] of Object.entries(desk.comps)) {
    const property = schema.properties[field];
    if (!property) throw new Error(`desk ${desk.identifier}: comps names unknown field ${field}`);
    const ui = uiSchema[field] ?? {};
    uiSchema[field] = ui;
    if (comp.caption) property.title = comp.caption;
    if (comp.hint) ui['ui:help'] = comp.hint;
    if (comp.maxLength !== undefined) property.maxLength = comp.maxLength;
    if (comp.required === true) required.add(field);
    if (comp.required === false || comp.hidden) required.delete(field);
    if (comp.hidden) ui['ui:widget'] = 'hidden';
    if (comp.staticValue !== undefined) {
      property.const = comp.staticValue;
      property.default = comp.staticValue;
      staticValues[field] = comp.staticValue;
    }
  }
  schema.required = [...required];
  return { schema, uiSchema, staticValues };
}
