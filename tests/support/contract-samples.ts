/**
 * Requests made from the contract itself (openapi/openapi.yaml): a body or parameter value each schema accepts where
 * that is easy, the operation's parameters and its URL. The access matrix and the hostile-input tests build every
 * call from these, so an operation added to the contract is exercised without touching them.
 */
import { loadContract, type Operation } from '../../src/server/contract/contract';

export type Json = Record<string, unknown>;
export type Schema = Json;
export type PathKey = string | number;

export const contract = loadContract();
const document = contract.document;

const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The schema a JSON pointer names (`#/components/schemas/Id32`). */
export function pointer(p: string): Schema {
  let target: unknown = document;
  for (const s of p.replace(/^#\//, '').split('/')) target = (target as Json)[unescape(s)];
  return target as Schema;
}

/** A schema with its `$ref` chain followed (sibling keywords kept). */
export function resolve(schema: unknown): Schema {
  let current = (schema ?? {}) as Schema;
  for (let i = 0; i < 20 && typeof current.$ref === 'string'; i++) {
    const target = pointer(current.$ref);
    current = { ...target, ...Object.fromEntries(Object.entries(current).filter(([k]) => k !== '$ref')) };
  }
  return current;
}

export const typesOf = (schema: Schema): string[] =>
  Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];

const STRING_CANDIDATES = ['09121234567', 'a1', 'USD', 'abc', '0012345679', '2025-01-01', 'a'];

function sampleString(s: Schema): string {
  if (Array.isArray(s.enum)) return String(s.enum[0]);
  if (s.format === 'date') return '2025-01-01';
  if (s.format === 'date-time') return '2025-01-01T00:00:00Z';
  if (s.format === 'email') return 'a@example.com';
  if (s.format === 'mobile' || s.format === 'mobileOrNationalCode') return '09121234567';
  if (s.format === 'nationalCode') return '0012345679';
  const minLength = typeof s.minLength === 'number' ? s.minLength : 1;
  if (typeof s.pattern === 'string') {
    const pattern = new RegExp(s.pattern, 'u');
    const fit = STRING_CANDIDATES.find((c) => pattern.test(c));
    if (fit) return fit;
  }
  const text = 'آزمون'.padEnd(Math.max(minLength, 5), 'ی');
  return typeof s.maxLength === 'number' ? text.slice(0, Math.max(s.maxLength, minLength)) : text;
}

/** A value the schema accepts where that is easy to make (integers at their maximum: an id that names no row). */
export function sample(schema: unknown, depth = 0): unknown {
  const s = resolve(schema);
  if (depth > 8) return null;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.allOf)) {
    return Object.assign({}, ...(s.allOf as unknown[]).map((part) => sample(part, depth + 1) as Json), sampleObject(s));
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key])) return sample((s[key] as unknown[])[0], depth + 1);
  }
  const type = typesOf(s).find((t) => t !== 'null') ?? (s.properties ? 'object' : 'string');
  switch (type) {
    case 'integer':
    case 'number':
      return typeof s.maximum === 'number' ? s.maximum : typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return false;
    case 'array': {
      const count = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: count }, () => sample(s.items, depth + 1));
    }
    case 'object':
      return sampleObject(s, depth);
    default:
      return sampleString(s);
  }
}

function sampleObject(s: Schema, depth = 0): Json {
  const out: Json = {};
  const properties = (s.properties as Json | undefined) ?? {};
  for (const name of (s.required as string[] | undefined) ?? []) out[name] = sample(properties[name], depth + 1);
  return out;
}

/** Every property a body schema names at its top level (through allOf/anyOf/oneOf), with its schema. */
export function topLevelProperties(schema: unknown, depth = 0): Record<string, Schema> {
  const s = resolve(schema);
  const out: Record<string, Schema> = {};
  if (depth > 6) return out;
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const part of (s[key] as unknown[] | undefined) ?? []) Object.assign(out, topLevelProperties(part, depth + 1));
  }
  for (const [name, child] of Object.entries((s.properties as Json | undefined) ?? {})) out[name] = resolve(child);
  return out;
}

export function setAt(target: unknown, path: PathKey[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const container: Json | unknown[] =
    typeof head === 'number'
      ? Array.isArray(target)
        ? [...(target as unknown[])]
        : []
      : target && typeof target === 'object' && !Array.isArray(target)
        ? { ...(target as Json) }
        : {};
  (container as Record<PathKey, unknown>)[head as PathKey] = setAt(
    (container as Record<PathKey, unknown>)[head as PathKey],
    rest,
    value,
  );
  return container;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

/** The operation's parameters (path, query, header), resolved. */
export function parametersOf(op: Operation): Parameter[] {
  const item = pointer(`#/paths/${op.path.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  const own = (item[op.method.toLowerCase()] as Json).parameters ?? [];
  const shared = item.parameters ?? [];
  return [...(shared as unknown[]), ...(own as unknown[])].map((p) => {
    const r = resolve(p);
    return {
      name: String(r.name),
      in: r.in as Parameter['in'],
      required: r.required === true,
      schema: resolve(r.schema),
    };
  });
}

/** The request schema of a JSON body, if the operation takes one. */
export const bodySchemaOf = (op: Operation): Schema | null =>
  op.requestSchemaPointer ? pointer(op.requestSchemaPointer) : null;

/** The URL of a call: path parameters from `values` (else a sample), query parameters given in `values`. */
export function urlOf(op: Operation, values: Record<string, string> = {}): string {
  const parameters = parametersOf(op);
  let url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const p = parameters.find((x) => x.name === name);
    return encodeURIComponent(values[name] ?? String(p ? sample(p.schema) : 'a'));
  });
  const query = new URLSearchParams(
    parameters.filter((p) => p.in === 'query' && values[p.name] !== undefined).map((p) => [p.name, values[p.name]!]),
  ).toString();
  if (query) url += `?${query}`;
  return url;
}

/** Persian (or Arabic-script) letters: a refusal's `msg` must be written for the customer. */
export const PERSIAN = /[\u0600-\u06FF]/;
