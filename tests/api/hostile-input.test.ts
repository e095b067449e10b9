/**
 * Hostile input, generated (issue 12): for every operation of openapi/openapi.yaml with a body or parameters,
 * fast-check makes requests from the operation's own schema with one thing wrong — a field of the wrong type, a
 * missing field, a string past its limit or very long, Persian/Arabic digits, emoji and bidi controls, nulls,
 * huge/negative/fractional numbers, `__proto__`/`constructor` keys, SQL and HTML fragments, the whole body replaced,
 * malformed JSON, a wrong content type, hostile path and query parameters — plus, once per operation, a 10 MB body;
 * the upload gets non-images named .jpg, an SVG with a script, random bytes and a 10 MB file. Each request is sent as
 * someone the operation's x-access admits (guest, a verified customer, the administrator), so it reaches
 * validation and the handler.
 *
 * Every answer must be below 500, and a 4xx must carry a Persian `msg` in the JSON envelope. A request that happens
 * to be valid may succeed. The server must still answer /api/health after each operation.
 *
 * HOSTILE_CASES sets the generated cases per operation (default 200; `npm run test:deep` 2000), HOSTILE_SEED the seed
 * (default 20261123, so CI sends the same cases each run; `npm run test:deep` takes a fresh one). Cases are
 * reproducible: each operation's seed is derived from HOSTILE_SEED and the operation id, and the file prints the
 * seed and the variables that replay it.
 */
import fc from 'fast-check';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../src/server/contract/contract';
import { issueToken } from '../../src/server/modules/identity/tokens';
import {
  bodySchemaOf,
  contract,
  type Json,
  parametersOf,
  PERSIAN,
  type PathKey,
  resolve,
  sample,
  type Schema,
  setAt,
  typesOf,
  urlOf,
} from '../support/contract-samples';
import { jpegWithExif, png } from '../support/images';
import { moneyHelpers } from '../support/money';
import { announceSeed, envInteger, envSeed } from '../support/seeded';
import { bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';

const CASES = envInteger('HOSTILE_CASES', 200, 1);
const SEED = envSeed('HOSTILE_SEED', 20261123);
const REPLAY = announceSeed('hostile-input', { HOSTILE_SEED: SEED, HOSTILE_CASES: CASES });
/** About 1 s per operation at 200 cases, up to 2 s on a busy machine; the budget grows with the cases. */
const TIMEOUT_MS = Math.max(30_000, CASES * 150);
const CONCURRENCY = 4;
const TEN_MB = 10 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------------------------
// What a hostile value looks like

const TEXT = [
  '۰۹۱۲۱۲۳۴۵۶۷', // Persian digits
  '٠٩١٢١٢٣٤٥٦٧', // Arabic-Indic digits
  '۱۲۳٫۴۵',
  '😀👨‍👩‍👧‍👦🇮🇷',
  '\u202Eabc\u202C', // right-to-left override
  '\u2066x\u2069\u200F\u200E\u061C', // isolates and marks
  '\u200C\u200D\uFEFF', // joiners and BOM
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '1; SELECT pg_sleep(5)',
  '%_\\',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '../../../../etc/passwd',
  '{{7*7}}${7*7}',
  '\r\n\t',
  ' ',
  '',
  'NaN',
  'Infinity',
  '1e400',
  '-0',
  '0x10',
  '2025-02-30',
  '1403-13-40',
  'true',
  'null',
];

const NUMBERS = [1e20, -1e18, 2 ** 53, -(2 ** 53), 2 ** 31, -(2 ** 31) - 1, 1.5, -0.5, 0, -1, 1e308, -1e308, 5e-324];

function pastLimits(s: Schema): unknown[] {
  const out: unknown[] = [];
  if (typeof s.maxLength === 'number') out.push('ا'.repeat(s.maxLength + 1), '9'.repeat(s.maxLength + 1));
  if (typeof s.minLength === 'number' && s.minLength > 0) out.push('a'.repeat(s.minLength - 1));
  if (typeof s.maximum === 'number') out.push(s.maximum + 1, s.maximum + 0.5);
  if (typeof s.minimum === 'number') out.push(s.minimum - 1, s.minimum - 0.5);
  if (typeof s.maxItems === 'number') out.push(Array.from({ length: s.maxItems + 1 }, () => sample(s.items)));
  if (typeof s.maxProperties === 'number') {
    out.push(Object.fromEntries(Array.from({ length: s.maxProperties + 1 }, (_, i) => [`k${i}`, 1])));
  }
  if (Array.isArray(s.enum)) out.push(`${String(s.enum[0])}x`, String(s.enum[0]).toUpperCase());
  return out;
}

const veryLong = fc.constantFrom('ب'.repeat(100_000), '1'.repeat(100_000), '😀'.repeat(30_000));

function hostileValue(s: Schema): fc.Arbitrary<unknown> {
  const limits = pastLimits(s);
  return fc.oneof(
    { arbitrary: fc.constantFrom(...TEXT), weight: 4 },
    { arbitrary: fc.constantFrom(...NUMBERS), weight: 3 },
    { arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { a: null }), weight: 2 },
    { arbitrary: limits.length > 0 ? fc.constantFrom(...limits) : fc.constant(null), weight: 3 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
    {
      arbitrary: fc.oneof(
        fc.integer(),
        fc.double({ noNaN: true }),
        fc.bigInt().map((n) => Number(n)),
      ),
      weight: 2,
    },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
    { arbitrary: veryLong, weight: 1 },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The fields of a body schema

interface Field {
  path: PathKey[];
  schema: Schema;
  required: boolean;
}

function fieldsOf(schema: unknown, path: PathKey[] = [], out: Field[] = [], depth = 0, required = true): Field[] {
  if (depth > 5 || out.length > 80) return out;
  const s = resolve(schema);
  if (path.length > 0) out.push({ path, schema: s, required });
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const part of (s[key] as unknown[] | undefined) ?? []) fieldsOf(part, path, out, depth + 1, required);
  }
  const requiredNames = new Set((s.required as string[] | undefined) ?? []);
  for (const [name, child] of Object.entries((s.properties as Json | undefined) ?? {})) {
    fieldsOf(child, [...path, name], out, depth + 1, requiredNames.has(name));
  }
  if (s.items && typesOf(s).includes('array')) fieldsOf(s.items, [...path, 0], out, depth + 1, false);
  return out;
}

function withoutAt(target: unknown, path: PathKey[]): unknown {
  if (path.length === 0 || !target || typeof target !== 'object') return target;
  const [head, ...rest] = path;
  if (Array.isArray(target)) {
    const copy = [...target];
    if (rest.length === 0) copy.splice(Number(head), 1);
    else copy[Number(head)] = withoutAt(copy[Number(head)], rest);
    return copy;
  }
  const copy = { ...(target as Json) };
  if (rest.length === 0) delete copy[head as string];
  else copy[head as string] = withoutAt(copy[head as string], rest);
  return copy;
}

// ---------------------------------------------------------------------------------------------------------------
// Cases

interface Case {
  label: string;
  /** Path and query parameter values (unset ones get a sample). */
  params: Record<string, string>;
  /** The raw body text, or a form for the upload; undefined sends none. */
  body?: string | FormData;
  contentType?: string;
}

const MALFORMED_JSON = [
  '{',
  '{"a":',
  '[1,2',
  '{"a":1}garbage',
  "{'a':1}",
  '{"a":1,}',
  '\uFEFF{}',
  '['.repeat(20_000) + ']'.repeat(20_000),
  '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000),
  '"just a string"',
  '12345678901234567890123456789',
  'null',
  '[]',
  '\u0000',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
];

const WRONG_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=xyz',
  'application/json; charset=utf-16',
  'application/octet-stream',
  'application/jsonx',
];

/** A body text with a key JSON.stringify would not write from a literal (`__proto__`) spliced in. */
function withKey(body: unknown, key: string, value: unknown): string {
  const text = JSON.stringify(body && typeof body === 'object' && !Array.isArray(body) ? body : {});
  const entry = `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`;
  return text === '{}' ? `{${entry}}` : `{${entry},${text.slice(1)}`;
}

function jsonCases(op: Operation, base: unknown): fc.Arbitrary<Case> {
  const schema = bodySchemaOf(op);
  const fields = schema ? fieldsOf(schema) : [];
  const params = parametersOf(op).filter((p) => p.in === 'path' || p.in === 'query');
  const json = (body: unknown) => JSON.stringify(body) ?? 'null';
  const kinds: Array<fc.WeightedArbitrary<Case>> = [];
  if (fields.length > 0) {
    kinds.push({
      weight: 10,
      arbitrary: fc
        .constantFrom(...fields)
        .chain((f) => hostileValue(f.schema).map((v) => ({ f, v })))
        .map(({ f, v }) => ({
          label: `${f.path.join('.')}=${String(JSON.stringify(v)).slice(0, 60)}`,
          params: {},
          body: json(setAt(base, f.path, v)),
        })),
    });
    kinds.push({
      weight: 2,
      arbitrary: fc.constantFrom(...fields).map((f) => ({
        label: `without ${f.path.join('.')}`,
        params: {},
        body: json(withoutAt(base, f.path)),
      })),
    });
  }
  if (schema) {
    kinds.push({
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'),
          fc.constantFrom<unknown>({ isStaff: true, polluted: 1 }, { prototype: { admin: true } }, 1, null, 'x'),
        )
        .map(([key, value]) => ({ label: `key ${key}`, params: {}, body: withKey(base, key, value) })),
    });
    kinds.push({
      weight: 2,
      arbitrary: hostileValue({}).map((v) => ({
        label: `body=${String(JSON.stringify(v)).slice(0, 60)}`,
        params: {},
        body: json(v),
      })),
    });
    kinds.push({
      weight: 1,
      arbitrary: fc.constantFrom(...MALFORMED_JSON).map((text) => ({
        label: `malformed ${text.slice(0, 30)}`,
        params: {},
        body: text,
      })),
    });
    kinds.push({
      weight: 1,
      arbitrary: fc.constantFrom(...WRONG_TYPES).map((type) => ({
        label: `content-type ${type}`,
        params: {},
        body: json(base),
        contentType: type,
      })),
    });
  }
  if (params.length > 0) {
    kinds.push({
      weight: 4,
      arbitrary: fc
        .constantFrom(...params)
        .chain((p) => hostileValue(p.schema).map((v) => ({ p, v })))
        .map(({ p, v }) => ({
          label: `${p.in} ${p.name}=${String(v).slice(0, 60)}`,
          params: { [p.name]: typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null') },
          body: schema ? json(base) : undefined,
        })),
    });
  }
  return fc.oneof(...kinds);
}

const SVG_WITH_SCRIPT =
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.cookie)</script></svg>';

function uploadCases(images: { jpeg: Buffer; png: Buffer }): fc.Arbitrary<Case> {
  const form = (bytes: Uint8Array<ArrayBuffer>, name: string, type: string, prefix: unknown = 'nationalCard') => {
    const f = new FormData();
    f.set('filePrefix', typeof prefix === 'string' ? prefix : String(JSON.stringify(prefix)));
    f.set('attached_file', new Blob([bytes], { type }), name);
    return f;
  };
  const named = fc.constantFrom('card.jpg', 'card.png', 'card.svg', '../../x.jpg', 'a\u202Egpj.exe', '😀.jpg', '');
  const types = fc.constantFrom('image/jpeg', 'image/png', 'image/svg+xml', 'text/html', 'application/pdf', '');
  return fc.oneof(
    fc.tuple(fc.uint8Array({ maxLength: 4096 }), named, types).map(([bytes, name, type]) => ({
      label: `random ${bytes.length} bytes as ${name} (${type})`,
      params: {},
      body: form(new Uint8Array(bytes), name, type),
    })),
    fc
      .constantFrom(
        { label: 'text named .jpg', bytes: new TextEncoder().encode('not an image at all'), name: 'a.jpg' },
        { label: 'SVG with a script', bytes: new TextEncoder().encode(SVG_WITH_SCRIPT), name: 'a.svg' },
        { label: 'SVG with a script named .jpg', bytes: new TextEncoder().encode(SVG_WITH_SCRIPT), name: 'a.jpg' },
        { label: 'HTML named .png', bytes: new TextEncoder().encode('<html><script>1</script></html>'), name: 'a.png' },
        { label: 'a truncated JPEG', bytes: new Uint8Array(images.jpeg.subarray(0, 200)), name: 'a.jpg' },
        { label: 'a PNG named .jpg', bytes: new Uint8Array(images.png), name: 'a.jpg' },
        { label: 'an empty file', bytes: new Uint8Array(0), name: 'a.jpg' },
      )
      .map((c) => ({ label: c.label, params: {}, body: form(c.bytes, c.name, 'image/jpeg') })),
    fc.tuple(hostileValue({ maxLength: 30 }), fc.constantFrom(images.jpeg, images.png)).map(([prefix, bytes]) => ({
      label: `filePrefix=${String(JSON.stringify(prefix)).slice(0, 60)}`,
      params: {},
      body: form(new Uint8Array(bytes), 'a.jpg', 'image/jpeg', prefix),
    })),
    fc.constantFrom(...WRONG_TYPES, 'application/json').map((type) => ({
      label: `upload as ${type}`,
      params: {},
      body: type === 'application/json' ? '{"attached_file":"x"}' : 'attached_file=x',
      contentType: type,
    })),
  );
}

/** The 10 MB body and file, made once: building them again for each operation was a tenth of the file's time. */
const tenMb: { json?: string; file?: Blob } = {};

/**
 * The cases no generator needs to find: every operation gets a 10 MB body, and one with parameters a parameter past
 * Node's 16 KB header limit (answered by the HTTP parser before any route, so it must get the envelope too).
 */
function fixedCases(op: Operation): Case[] {
  const cases: Case[] = [];
  const param = parametersOf(op).find((p) => p.in === 'path' || p.in === 'query');
  if (param)
    cases.push({
      label: `${param.in} ${param.name} of 100 000 characters`,
      params: { [param.name]: '۱'.repeat(100_000) },
    });
  if (op.multipart) {
    const big = new FormData();
    big.set('filePrefix', 'nationalCard');
    big.set('attached_file', (tenMb.file ??= new Blob([new Uint8Array(TEN_MB)], { type: 'image/jpeg' })), 'big.jpg');
    cases.push({ label: '10 MB file', params: {}, body: big });
  } else if (op.method !== 'GET') {
    cases.push({ label: '10 MB body', params: {}, body: (tenMb.json ??= JSON.stringify({ a: 'x'.repeat(TEN_MB) })) });
  }
  return cases;
}

const seedOf = (id: string) => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, SEED);

// ---------------------------------------------------------------------------------------------------------------

const exercised = contract.operations.filter(
  (op) => op.multipart || op.requestSchemaPointer !== null || parametersOf(op).some((p) => p.in !== 'header'),
);

describe('hostile input generated from the contract', () => {
  let server: RunningServer;
  const tokens = { user: '', staff: '' };
  const users = { user: 0, staff: 0 };
  let images: { jpeg: Buffer; png: Buffer };
  let deskBody: Json = {};
  /** Header parameters (the idempotency key) get a value of their own per request, the same on a replay. */
  let headerValues = 0;

  beforeAll(async () => {
    server = await startServer({
      web: false,
      env: {
        UPLOAD_LIMIT_FILES_PER_DAY: '100000',
        UPLOAD_LIMIT_MB_PER_DAY: '100000',
      },
    });
    const money = moneyHelpers(server);
    await money.ready();
    const customer = await money.customer();
    tokens.user = customer.token;
    users.user = customer.userId;
    tokens.staff = await loginAdmin(server);
    const me = await post(server, '/api/me/fetchUserData', undefined, bearer(tokens.staff));
    users.staff = (me.body.data as { id: number }).id;
    const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
      items: Array<{ id: number; isCash: boolean }>;
    };
    deskBody = {
      currency: money.usd.id,
      amount: 100,
      requestedPaymentMethodGroup: groups.items.find((g) => !g.isCash)!.id,
    };
    images = { jpeg: await jpegWithExif(), png: await png() };
  }, 300_000);

  afterAll(async () => server?.stop());

  /** A case may end the session (logout, a password change, the account deactivated): sign in again. */
  async function refresh(role: 'user' | 'staff'): Promise<void> {
    const db = server.app.database.db;
    await db.updateTable('users').set({ deactivatedAt: null }).where('id', '=', users[role]).execute();
    tokens[role] = await issueToken(db, users[role]);
  }

  async function send(op: Operation, c: Case): Promise<string | null> {
    const role = op.access.kind === 'public' ? null : op.access.kind === 'user' ? 'user' : 'staff';
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
    if (role) headers.authorization = `Bearer ${tokens[role]}`;
    for (const p of parametersOf(op).filter((x) => x.in === 'header')) headers[p.name] = `hostile-${headerValues++}`;
    if (typeof c.body === 'string') headers['content-type'] = c.contentType ?? 'application/json';
    const url = urlOf(op, { desk: 'toeflGeneralCpr', ...c.params });
    let res: Response;
    try {
      res = await fetch(server.url + url, {
        method: op.method,
        headers,
        body: op.method === 'GET' ? undefined : c.body,
        redirect: 'manual',
      });
    } catch (error) {
      return `${c.label}: no answer (${(error as Error).message})`;
    }
    const text = await res.text();
    if (res.status === 401 && role) await refresh(role);
    if (res.status >= 500) return `${c.label}: ${res.status} ${text.slice(0, 200)}`;
    if (res.status >= 400) {
      let message = '';
      try {
        message = String((JSON.parse(text) as Json).msg ?? '');
      } catch {
        // not the envelope
      }
      if (!PERSIAN.test(message)) return `${c.label}: ${res.status} without a Persian msg: ${text.slice(0, 200)}`;
    }
    return null;
  }

  it('covers the operations of the contract', () => {
    expect(exercised.length).toBeGreaterThan(60);
  });

  it.each(exercised.map((op) => [op.operationId, op] as const))('%s', { timeout: TIMEOUT_MS }, async (_id, op) => {
    const desk = parametersOf(op).some((p) => p.name === 'desk');
    const schema = bodySchemaOf(op);
    const base = schema ? { ...((sample(schema) as Json | undefined) ?? {}), ...(desk ? deskBody : {}) } : undefined;
    const arbitrary = op.multipart ? uploadCases(images) : jsonCases(op, base);
    const cases = [...fixedCases(op), ...fc.sample(arbitrary, { numRuns: CASES, seed: seedOf(op.operationId) })];
    const limit = pLimit(CONCURRENCY);
    const failures = (await Promise.all(cases.map((c) => limit(() => send(op, c))))).filter((f) => f !== null);
    expect(failures, `replay: ${REPLAY}`).toEqual([]);
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status, `replay: ${REPLAY}`).toBe(200);
  });
});
