/**
 * A request's fields as a person reads them, from the form they were validated against: each field with its
 * title, a choice by its label, yes or no for a box, a list as its rows and a group as its fields. The server
 * sends this with every request (the customer's and the staff's pages draw it without knowing the form).
 */
import { branchesOf, itemsOf, propertyOf, type SchemaNode } from './form-schema';
import { displayDate } from './format/dates';
import { isDateField } from './deadline';

export interface FieldView {
  path: string;
  title: string;
  text?: string;
  /** A date field's Gregorian day (`YYYY-MM-DD`): the page shows it in the reader's calendar, `text` in Jalali. */
  date?: string;
  items?: FieldView[];
  fields?: FieldView[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** The label of a value among a schema's labelled choices (`oneOf`/`anyOf` of `const` + `title`), if it has one. */
function choiceLabel(schema: SchemaNode | undefined, value: unknown): string | undefined {
  if (!schema) return undefined;
  for (const branch of branchesOf(schema)) {
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = branch[key];
      if (!Array.isArray(options)) continue;
      const hit = (options as SchemaNode[]).find((o) => isRecord(o) && o.const === value);
      if (hit && typeof hit.title === 'string') return hit.title;
    }
  }
  return undefined;
}

function scalarText(schema: SchemaNode | undefined, value: unknown): string {
  const label = choiceLabel(schema, value);
  if (label) return label;
  if (typeof value === 'boolean') return value ? 'بله' : 'خیر';
  return String(value);
}

/** Field names in the form's order (`ui:order`, then the schema's own), then any the form does not declare. */
function orderedKeys(schema: SchemaNode | undefined, ui: SchemaNode | undefined, values: Record<string, unknown>) {
  const declared = schema
    ? branchesOf(schema).flatMap((b) => Object.keys(isRecord(b.properties) ? b.properties : {}))
    : [];
  const order = Array.isArray(ui?.['ui:order']) ? (ui['ui:order'] as string[]).filter((k) => k !== '*') : [];
  return [...new Set([...order, ...declared, ...Object.keys(values)])].filter((k) => k in values);
}

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

function viewOfValue(
  schema: SchemaNode | undefined,
  ui: SchemaNode | undefined,
  value: unknown,
  path: string,
  title: string,
): FieldView {
  if (Array.isArray(value)) {
    const items = schema ? itemsOf(schema) : undefined;
    const itemUi = isRecord(ui?.items) ? (ui.items as SchemaNode) : undefined;
    return {
      path,
      title,
      items: value.map((item, i) => viewOfValue(items, itemUi, item, `${path}/${i}`, String(items?.title ?? title))),
    };
  }
  if (isRecord(value)) return { path, title, fields: viewOfFields(schema, ui, value, `${path}/`) };
  // A date as a person reads it (decision 020): Jalali, Persian digits, slashes — never the form's ISO `2026-11-29`.
  const jalali = isDateField(schema) && typeof value === 'string' ? displayDate(value, 'slashDate', 'fa') : '';
  if (jalali) return { path, title, text: jalali, date: value as string };
  return { path, title, text: scalarText(schema, value) };
}

/**
 * The fields of an object value; `omit` names top-level fields left out (the price inputs the price already shows,
 * staff-only secrets).
 */
export function viewOfFields(
  schema: SchemaNode | undefined,
  ui: SchemaNode | undefined,
  values: Record<string, unknown>,
  prefix = '',
  omit: ReadonlySet<string> = new Set(),
): FieldView[] {
  return orderedKeys(schema, ui, values)
    .filter((key) => !omit.has(key) && !empty(values[key]))
    .filter((key) => (isRecord(ui?.[key]) ? (ui[key] as SchemaNode)['ui:widget'] !== 'hidden' : true))
    .map((key) => {
      const property = schema ? propertyOf(schema, key) : undefined;
      const title = typeof property?.title === 'string' ? property.title : key;
      return viewOfValue(
        property,
        isRecord(ui?.[key]) ? (ui[key] as SchemaNode) : undefined,
        values[key],
        `${prefix}${key}`,
        title,
      );
    });
}
