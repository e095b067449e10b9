/**
 * Walking a desk form's JSON Schema by field path, shared by the server (validation messages, what a request
 * shows), the web (validation messages) and codegen (reference checks). A field may be declared beside its
 * siblings or in a conditional branch (`then`, `else`, `dependentSchemas`, `allOf`, `oneOf`, `anyOf`); a list's
 * fields are under its `items`. Paths are arrays of segments: `['billingAddress', 'city']`, `['attendees', '0', 'name']`.
 */
import { toPersianDigits } from './digits';

export type SchemaNode = Record<string, unknown>;

const asNode = (value: unknown): SchemaNode | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as SchemaNode) : undefined;

/** The schema and every subschema that may declare its properties when it applies. */
export function branchesOf(schema: SchemaNode): SchemaNode[] {
  const out: SchemaNode[] = [schema];
  const more = [
    schema.then,
    schema.else,
    ...(['allOf', 'oneOf', 'anyOf'] as const).flatMap((k) => (Array.isArray(schema[k]) ? schema[k] : [])),
    ...Object.values(asNode(schema.dependentSchemas) ?? {}),
  ];
  for (const branch of more) {
    const node = asNode(branch);
    if (node) out.push(...branchesOf(node));
  }
  return out;
}

/** The schema of property `name` of an object schema, wherever one of its branches declares it. */
export function propertyOf(schema: SchemaNode, name: string): SchemaNode | undefined {
  for (const branch of branchesOf(schema)) {
    const property = asNode(asNode(branch.properties)?.[name]);
    if (property) return property;
  }
  return undefined;
}

/** A list's item schema. */
export const itemsOf = (schema: SchemaNode): SchemaNode | undefined =>
  branchesOf(schema)
    .map((b) => asNode(b.items))
    .find(Boolean);

/** Every schema along `path` (the root first); stops where the path leaves the schema. */
export function schemasAlong(root: SchemaNode, path: readonly string[]): SchemaNode[] {
  const out = [root];
  let current: SchemaNode | undefined = root;
  for (const segment of path) {
    if (!current) break;
    const items = itemsOf(current);
    if (items && /^\d+$/.test(segment)) current = items;
    else if (items && !propertyOf(current, segment)) current = propertyOf(items, segment);
    else current = propertyOf(current, segment);
    if (current) out.push(current);
  }
  return out;
}

/** The schema at `path`, or undefined when there is no such field (`attendees/name` reaches into a list's items). */
export function fieldAt(root: SchemaNode, path: readonly string[]): SchemaNode | undefined {
  const along = schemasAlong(root, path);
  return along.length === path.length + 1 ? along.at(-1) : undefined;
}

/**
 * A field's name as a person reads it: the titles along its path, a list's row as «ردیف ۲»
 * (`attendees/1/name` → «شرکت‌کنندگان / ردیف ۲ / نام»). Segments without a schema keep their name.
 */
export function fieldLabel(root: SchemaNode, path: readonly string[]): string {
  const along = schemasAlong(root, path);
  return path
    .map((segment, i) => {
      if (/^\d+$/.test(segment)) return `ردیف ${toPersianDigits(Number(segment) + 1)}`;
      const title = along[i + 1]?.title;
      return typeof title === 'string' ? title : segment;
    })
    .join(' / ');
}

/** One validation error, as either side reports it: the keyword, the object's or value's path, ajv's params. */
export interface FormError {
  keyword: string;
  path: readonly string[];
  params: Record<string, unknown>;
}

/**
 * The Persian message for a form's validation error: the `x-messages` key the field declares for the keyword
 * when it has one, else a message naming the field by its titles. `text` turns a message key of
 * schemas/messages/fa.json and its parameters into the text.
 */
export function formErrorMessage(
  root: SchemaNode,
  error: FormError,
  text: (key: string, params?: Record<string, string | number>) => string | undefined,
): string {
  const { params } = error;
  // A field another one needs (`dependentRequired`) is missing just as a required one is.
  const keyword = ['dependentRequired', 'dependencies'].includes(error.keyword) ? 'required' : error.keyword;
  const missing = keyword === 'required' ? String(params.missingProperty ?? '') : '';
  const path = missing && error.path.at(-1) !== missing ? [...error.path, missing] : [...error.path];
  const field = fieldAt(root, path);
  const declared = (asNode(field?.['x-messages']) as Record<string, string> | undefined)?.[keyword];
  const declaredText = declared ? text(declared) : undefined;
  if (declaredText) return declaredText;
  const label = fieldLabel(root, path);
  const generic = (key: string, extra: Record<string, string | number> = {}) =>
    text(key, { field: label, ...extra }) ?? text('form.invalid', { field: label }) ?? label;
  switch (keyword) {
    case 'required':
      return generic('form.required');
    case 'minItems':
      return generic('form.minItems', { count: toPersianDigits(Number(params.limit ?? 0)) });
    case 'maxItems':
      return generic('form.maxItems', { count: toPersianDigits(Number(params.limit ?? 0)) });
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = String(params.additionalProperty ?? params.unevaluatedProperty ?? '');
      return path.length === 0
        ? (text('form.unknownField', { name }) ?? name)
        : (text('form.unknownNestedField', { name, field: label }) ?? name);
    }
    case 'maxLength':
      return generic('form.tooLong');
    case 'format': {
      // A typed identifier (passportNumber, latinName, …) has its own message (foreign-reference.ts names it so).
      const own = typeof params.format === 'string' ? text(`reference.format.${params.format}`) : undefined;
      return own ?? generic('form.invalid');
    }
    case 'x-file': {
      // Read here rather than through file-limits.ts (its typesInWords, said the same way), which every page with a
      // form would then carry.
      const limits = asNode(field?.['x-file']) as { maxFiles?: unknown; types?: unknown } | undefined;
      const kinds = Array.isArray(limits?.types)
        ? limits.types.map((t) => (t === 'webp' ? 'WebP' : String(t).toUpperCase()))
        : [];
      const types = kinds.length <= 1 ? kinds.join('') : `${kinds.slice(0, -1).join('،\u200f ')} یا ${kinds.at(-1)}`;
      return generic('form.files', { count: toPersianDigits(Number(limits?.maxFiles ?? 0)), types });
    }
    case 'enum':
    case 'const':
    case 'oneOf':
    case 'anyOf':
      return generic('form.choice');
    default:
      return generic('form.invalid');
  }
}

/** Splits an ajv instance path (`/attendees/0/name`) into its segments. */
export const pointerSegments = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** Keywords whose values are data, not schemas: the rewrites below copy them as they are. */
const DATA_KEYWORDS = ['const', 'enum', 'default', 'examples', 'x-messages', 'x-file'];

/**
 * The schema as Ajv should validate it: each `dependentSchemas` moved into an `allOf` beside it. Ajv 8.20 forgets
 * the properties an object's own `properties` evaluated when a `dependentSchemas` beside it does not apply, so
 * `unevaluatedProperties: false` would refuse every field; inside `allOf` the two are merged correctly. The meaning
 * is the same. Both the server and the web validate with this.
 */
export function forValidation<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(forValidation) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(schema as SchemaNode)) {
    // Values that are data, not schemas.
    out[key] = DATA_KEYWORDS.includes(key) ? value : forValidation(value);
  }
  if (out.dependentSchemas && typeof out.dependentSchemas === 'object') {
    const { dependentSchemas, ...rest } = out;
    return { ...rest, allOf: [...((rest.allOf as SchemaNode[] | undefined) ?? []), { dependentSchemas }] } as T;
  }
  return out as T;
}

/**
 * The schema as rjsf should draw it: `dependentSchemas` and `dependentRequired` (JSON Schema 2019-09 and later)
 * written as the draft-07 `dependencies` rjsf resolves while drawing, so a field a `dependentSchemas` adds appears
 * when its trigger is filled and one `dependentRequired` names is marked required. The meaning is the same; the
 * desk page and a form's own cases (form-cases.ts) read forms this way, validation uses forValidation.
 */
export function forDrawing<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(forDrawing) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(schema as SchemaNode)) {
    out[key] = DATA_KEYWORDS.includes(key) ? value : forDrawing(value);
  }
  const dependentSchemas = asNode(out.dependentSchemas);
  const dependentRequired = asNode(out.dependentRequired);
  if (!dependentSchemas && !dependentRequired) return out as T;
  const { dependentSchemas: _s, dependentRequired: _r, ...rest } = out;
  const dependencies: SchemaNode = { ...(asNode(rest.dependencies) ?? {}) };
  for (const [name, value] of Object.entries(dependentRequired ?? {})) dependencies[name] = value;
  for (const [name, value] of Object.entries(dependentSchemas ?? {})) {
    const required = dependencies[name];
    // A field both requires others and adds a schema: one schema saying both.
    dependencies[name] = Array.isArray(required)
      ? {
          ...(value as SchemaNode),
          required: [...new Set([...(((value as SchemaNode).required as string[]) ?? []), ...required])],
        }
      : value;
  }
  return { ...rest, dependencies } as T;
}
