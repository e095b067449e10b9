/**
 * The OpenAPI document as the server reads it: every operation with its method, path, access rule
 * and the schemas of its request body and success response.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export type Access = { kind: 'public' } | { kind: 'user' } | { kind: 'staff'; action: string };

export interface Operation {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path as the document writes it, e.g. /api/me/desks/{desk}/priceInquiry */
  path: string;
  access: Access;
  /** JSON pointer into the document of the JSON request body schema, if any */
  requestSchemaPointer: string | null;
  requestBodyRequired: boolean;
  multipart: boolean;
  /** JSON pointer of the 200 JSON response schema, if any */
  responseSchemaPointer: string | null;
}

export interface Contract {
  document: Record<string, unknown>;
  operations: Operation[];
}

export const CONTRACT_FILE = path.resolve(import.meta.dirname, '../../../openapi/openapi.yaml');

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function parseAccess(value: unknown, where: string): Access {
  if (value === 'public' || value === 'user') return { kind: value };
  if (typeof value === 'string' && /^staff:[A-Za-z][A-Za-z0-9]*$/.test(value)) {
    return { kind: 'staff', action: value.slice('staff:'.length) };
  }
  throw new Error(`${where}: x-access must be public, user or staff:<action>, got ${JSON.stringify(value)}`);
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

type Json = Record<string, unknown>;

/**
 * The contract of `file`, read once per process while the file stays as it is: parsing the YAML is most of a
 * second on a busy two-core machine, and the test suites build hundreds of servers in one process. The document is
 * only read from, never changed, so every server of the process may share it.
 */
export function loadContract(file = CONTRACT_FILE): Contract {
  const { mtimeMs, size } = statSync(file);
  const key = `${file}:${mtimeMs}:${size}`;
  const known = loaded.get(key);
  if (known) return known;
  const contract = readContract(file);
  loaded.clear();
  loaded.set(key, contract);
  return contract;
}

const loaded = new Map<string, Contract>();

function readContract(file: string): Contract {
  const document = parse(readFileSync(file, 'utf8')) as Json;
  const operations: Operation[] = [];
  for (const [p, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const where = `${method.toUpperCase()} ${p}`;
      const base = `#/paths/${escapePointer(p)}/${method}`;
      const body = op.requestBody as Json | undefined;
      const content = (body?.content ?? {}) as Json;
      const ok = ((op.responses as Json | undefined)?.['200'] as Json | undefined)?.content as Json | undefined;
      operations.push({
        operationId: String(op.operationId),
        method: method.toUpperCase() as Operation['method'],
        path: p,
        access: parseAccess(op['x-access'], where),
        requestSchemaPointer: content['application/json']
          ? `${base}/requestBody/content/application~1json/schema`
          : null,
        requestBodyRequired: body?.required === true,
        multipart: Boolean(content['multipart/form-data']),
        responseSchemaPointer: ok?.['application/json']
          ? `${base}/responses/200/content/application~1json/schema`
          : null,
      });
    }
  }
  return { document, operations };
}

/** Fastify route pattern for an OpenAPI path: {desk} -> :desk */
export const toRoutePattern = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');
