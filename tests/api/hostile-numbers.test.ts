/**
 * Hostile numbers (issue 12): for every operation of openapi/openapi.yaml with a JSON body or parameters, each
 * integer field gets numbers no column holds (1e20, −1e18, 2^53), fractions, its own bounds and one past them, and
 * non-numbers, as a customer and as an admin. Every answer is a 4xx with a Persian `msg` — never a 5xx — and the
 * server still answers /api/health afterwards. The operations and their fields are read from the contract, so an
 * operation added later is covered without touching this file.
 *
 * The rest of each body is filled with values the schema accepts where that is easy (integers at their maximum, so
 * an id names no row and the value at the bound reaches the database), so most cases pass validation except for the
 * hostile field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Operation } from '../../src/server/contract/contract';
import { inputDatabaseError } from '../../src/server/http/database-errors';
import {
  bodySchemaOf,
  contract,
  type Json,
  parametersOf,
  type PathKey,
  PERSIAN,
  resolve,
  sample,
  type Schema,
  setAt,
  typesOf,
  urlOf,
} from '../support/contract-samples';
import { bearer, loginAdmin, loginByCode, type RunningServer, startServer } from '../support/server';

interface IntegerField {
  path: PathKey[];
  schema: Schema;
}

/** Every integer reachable in a body schema, with the path to set it (array items at index 0). */
function integerFields(schema: unknown, path: PathKey[] = [], out: IntegerField[] = [], depth = 0): IntegerField[] {
  if (depth > 8) return out;
  const s = resolve(schema);
  if (typesOf(s).includes('integer')) out.push({ path, schema: s });
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const part of (s[key] as unknown[] | undefined) ?? []) integerFields(part, path, out, depth + 1);
  }
  for (const [name, child] of Object.entries((s.properties as Json | undefined) ?? {})) {
    integerFields(child, [...path, name], out, depth + 1);
  }
  if (s.items) integerFields(s.items, [...path, 0], out, depth + 1);
  return out;
}

/** Numbers no column holds, fractions, the field's own bounds and one past them, and non-numbers. */
function hostileValues(schema: Schema): unknown[] {
  const values: unknown[] = [1e20, -1e18, 2 ** 53, -(2 ** 53), 2 ** 31, 1.5, -0.5, 0, -1, 1e308];
  if (typeof schema.maximum === 'number') values.push(schema.maximum, schema.maximum + 1);
  if (typeof schema.minimum === 'number') values.push(schema.minimum, schema.minimum - 1);
  values.push('1e20', '12', 'abc', '', true, null, [], {}, [1e20]);
  return values;
}

const admits = (schema: Schema, value: unknown) =>
  typeof value === 'number' &&
  Number.isInteger(value) &&
  value >= (schema.minimum as number) &&
  value <= (schema.maximum as number);

const HOSTILE_PATH_VALUES = ['99999999999999999999', '-1', '1.5', '1e20', '9007199254740993', 'abc'];

interface Case {
  label: string;
  url: string;
  method: Operation['method'];
  body: unknown;
  /** A value the contract admits (a bound itself): any answer but a 5xx. */
  admitted: boolean;
}

function cases(op: Operation): Case[] {
  const parameters = parametersOf(op);
  const hostileParams = parameters.filter((p) => p.in === 'path' || p.in === 'query');
  const baseParams = Object.fromEntries(parameters.map((p) => [p.name, String(sample(p.schema))]));
  const url = (params: Record<string, string>) => urlOf(op, params);
  const out: Case[] = [];
  const bodySchema = bodySchemaOf(op);
  const body = bodySchema ? sample(bodySchema) : undefined;
  for (const p of hostileParams) {
    for (const value of HOSTILE_PATH_VALUES) {
      out.push({
        label: `${String(p.name)}=${value}`,
        url: url({ ...baseParams, [String(p.name)]: value }),
        method: op.method,
        body,
        admitted: false,
      });
    }
  }
  if (bodySchema) {
    const fields = integerFields(bodySchema);
    for (const field of fields) {
      for (const value of hostileValues(field.schema)) {
        out.push({
          label: `${field.path.join('.') || '(body)'}=${JSON.stringify(value)}`,
          url: url(baseParams),
          method: op.method,
          body: setAt(body, field.path, value),
          admitted: admits(field.schema, value),
        });
      }
    }
    // The whole body a number no column holds.
    out.push({ label: 'body=1e20', url: url(baseParams), method: op.method, body: 1e20, admitted: false });
  }
  return out;
}

const exercised = contract.operations.filter((op) => !op.multipart && cases(op).length > 0);

describe('hostile numbers in every operation', () => {
  let server: RunningServer;
  const tokens: Record<'customer' | 'admin', string> = { customer: '', admin: '' };
  const login = {
    customer: () => loginByCode(server, '09125550123'),
    admin: () => loginAdmin(server),
  };

  beforeAll(async () => {
    server = await startServer({ web: false });
    tokens.customer = await login.customer();
    tokens.admin = await login.admin();
  });

  afterAll(async () => {
    await server?.stop();
  });

  // The second line: a value the contract let through but the column cannot hold is the client's fault. Both
  // drivers (PGlite, node-postgres) put the SQLSTATE in `code`.
  it('answers the database errors input causes as 4xx', async () => {
    const db = server.app.database.db;
    const refusal = async (query: Promise<unknown>) => {
      try {
        await query;
      } catch (error) {
        return inputDatabaseError(error);
      }
      throw new Error('the database accepted it');
    };
    expect(await refusal(sql`select ${'99999999999'}::int4`.execute(db))).toMatchObject({
      status: 400,
      sqlState: '22003',
    });
    expect(await refusal(sql`select ${'abc'}::int8`.execute(db))).toMatchObject({ status: 400, sqlState: '22P02' });
    expect(
      await refusal(sql`insert into group_users (user_id, group_id) values (${1}, ${2147483647})`.execute(db)),
    ).toMatchObject({ status: 422, sqlState: '23503' });
    expect(inputDatabaseError(new Error('any other failure'))).toBeNull();
  });

  it('covers the operations of the contract', () => {
    expect(exercised.length).toBeGreaterThan(40);
  });

  for (const role of ['customer', 'admin'] as const) {
    it.each(exercised.map((op) => [op.operationId, op] as const))(`%s as ${role}`, async (_id, op) => {
      const failures: string[] = [];
      for (const c of cases(op)) {
        const init: RequestInit = {
          method: c.method,
          headers: {
            ...bearer(tokens[role]),
            'x-requested-with': 'XMLHttpRequest',
            ...(c.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(c.body === undefined || c.method === 'GET' ? {} : { body: JSON.stringify(c.body) }),
          redirect: 'manual',
        };
        const res = await fetch(server.url + c.url, init);
        const text = await res.text();
        let message = '';
        try {
          message = String((JSON.parse(text) as Json).msg ?? '');
        } catch {
          // not JSON
        }
        const refused = res.status >= 400 && res.status < 500 && PERSIAN.test(message);
        if (res.status >= 500 || (!c.admitted && !refused && res.status !== 303)) {
          failures.push(`${c.label}: ${res.status} ${text.slice(0, 200)}`);
        }
        // A case may have ended the session (e.g. an operation that accepted its value); log in again.
        if (res.status === 401) tokens[role] = await login[role]();
      }
      expect(failures).toEqual([]);
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);
    });
  }
});
