/**
 * The data-entry forms of schemas/entryForms/ (docs/decisions/009-one-form-system.md) agree with the contract:
 * every rule the named operation's request body sets on a field, the form sets the same way, so the web refuses
 * what the server refuses with the same Persian message. Each form's schema compiles with the shared rules, and
 * every message key it names is in schemas/messages/fa.json.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createAjv } from '../../src/shared/validation/ajv';

type Json = Record<string, unknown>;
interface FormFile {
  file: string;
  form: string;
  operation?: string;
  schema: Json;
}

const root = path.resolve(import.meta.dirname, '../..');
const formsDir = path.join(root, 'schemas/entryForms');
const contract = parse(readFileSync(path.join(root, 'openapi/openapi.yaml'), 'utf8')) as Json;
const messages = (JSON.parse(readFileSync(path.join(root, 'schemas/messages/fa.json'), 'utf8')) as Json)
  .messages as Json;
const forms = readdirSync(formsDir)
  .filter((f) => f.endsWith('.json'))
  .map((f): FormFile => ({
    file: f,
    ...(JSON.parse(readFileSync(path.join(formsDir, f), 'utf8')) as Omit<FormFile, 'file'>),
  }));

/** The rules a field carries that the form must repeat as the contract says them. */
const RULES = [
  'type',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'x-messages',
] as const;

/** Follows local `$ref`s (`#/components/schemas/NewPassword`). */
function resolve(node: unknown): Json {
  let current = node as Json;
  for (let hops = 0; typeof current?.$ref === 'string' && hops < 10; hops++) {
    current = (current.$ref as string)
      .slice(2)
      .split('/')
      .reduce<Json>((at, key) => at[key] as Json, contract);
  }
  return current;
}

function requestBody(operationId: string): Json | undefined {
  for (const item of Object.values(contract.paths as Json)) {
    for (const operation of Object.values(item as Json)) {
      const op = operation as Json;
      if (op.operationId === operationId) {
        const body = (op.requestBody as Json).content as Json;
        return resolve((body['application/json'] as Json).schema);
      }
    }
  }
  return undefined;
}

/** A contract field as the form sees it: of a `oneOf` (null or an e-mail), the branch of the form's type. */
function contractField(field: unknown, type: unknown): Json {
  const resolved = resolve(field);
  const branches = resolved.oneOf as unknown[] | undefined;
  return branches ? (branches.map(resolve).find((b) => b.type === type) ?? resolved) : resolved;
}

describe('data-entry forms', () => {
  it('are found', () => {
    expect(forms.map((f) => f.form).sort()).toEqual(
      expect.arrayContaining(['currency', 'passwordReset', 'profile', 'profileReject', 'userEdit']),
    );
  });

  it.each(forms)('$file is named after its file and compiles with the shared rules', ({ file, form, schema }) => {
    expect(`${String(form)}.json`).toBe(file);
    expect(() => createAjv({ strict: true }).compile(schema as object)).not.toThrow();
  });

  it.each(forms)('$file names only messages that exist', ({ schema }) => {
    const keys = Object.values((schema as Json).properties as Json).flatMap((p) =>
      Object.values(((p as Json)['x-messages'] as Json | undefined) ?? {}),
    );
    expect(keys.filter((k) => typeof messages[k as string] !== 'string')).toEqual([]);
  });

  it.each(forms.filter((f) => f.operation))('$file sets every rule its operation sets', ({ operation, schema }) => {
    const body = requestBody(String(operation));
    expect(body, `operation ${String(operation)}`).toBeDefined();
    const formProps = (schema as Json).properties as Json;
    const bodyProps = body!.properties as Json;
    const differences: string[] = [];
    for (const [name, field] of Object.entries(formProps)) {
      if (!(name in bodyProps)) continue; // a field of the form only (a repeated password)
      const mine = field as Json;
      const theirs = contractField(bodyProps[name], mine.type);
      for (const rule of RULES) {
        if (theirs[rule] === undefined) continue;
        // Messages key by key: the form may name more, for rules of its own (a pattern against blank text).
        const same =
          rule === 'x-messages'
            ? Object.entries(theirs[rule] as Json).every(([k, v]) => (mine[rule] as Json | undefined)?.[k] === v)
            : JSON.stringify(theirs[rule]) === JSON.stringify(mine[rule]);
        if (!same)
          differences.push(
            `${name}.${rule}: contract ${JSON.stringify(theirs[rule])}, form ${JSON.stringify(mine[rule])}`,
          );
      }
    }
    // What the contract requires, the form requires, unless the page fills it in (an id, a flag with a default).
    const required = new Set((schema as Json).required as string[]);
    for (const name of (body!.required as string[] | undefined) ?? []) {
      if (name in formProps && !required.has(name) && (formProps[name] as Json).type !== 'boolean')
        differences.push(`${name}: required by the contract, optional in the form`);
    }
    expect(differences).toEqual([]);
  });
});
